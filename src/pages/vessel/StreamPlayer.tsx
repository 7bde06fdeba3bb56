import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { Camera } from '../../api/vesselApi';
import { useTranslate } from 'ra-core';

/** Plays a camera in the page: HLS in a <video> (native, else hls.js loaded on demand), MJPEG in an <img>. */
export default function StreamPlayer({ camera }: { camera: Camera }) {
  const t = useTranslate();
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setFailed(false);
    const element = video.current;
    if (camera.kind !== 'hls' || !element) return undefined;
    let destroy: (() => void) | undefined;
    let live = true;
    if (element.canPlayType('application/vnd.apple.mpegurl')) {
      element.src = camera.link;
    } else {
      void import('hls.js').then(
        ({ default: Hls }) => {
          if (!live) return;
          if (!Hls.isSupported()) return setFailed(true);
          const hls = new Hls();
          hls.on(Hls.Events.ERROR, (_, data) => {
            if (data.fatal) setFailed(true);
          });
          hls.loadSource(camera.link);
          hls.attachMedia(element);
          destroy = () => hls.destroy();
        },
        () => setFailed(true),
      );
    }
    return () => {
      live = false;
      destroy?.();
      element.removeAttribute('src');
    };
  }, [camera]);

  return (
    <Box data-testid="stream-player" data-kind={camera.kind}>
      {failed && (
        <Alert severity="error" sx={{ mb: 1 }} data-testid="stream-error">
          {t('vessel.camera.playError')}
        </Alert>
      )}
      {camera.kind === 'hls' && (
        <video
          ref={video}
          controls
          autoPlay
          muted
          playsInline
          style={{ width: '100%', maxHeight: 480, background: '#000' }}
          onError={() => setFailed(true)}
        />
      )}
      {camera.kind === 'mjpeg' && (
        <img
          src={camera.link}
          alt={camera.name}
          style={{ width: '100%', maxHeight: 480, objectFit: 'contain', background: '#000' }}
          onError={() => setFailed(true)}
        />
      )}
    </Box>
  );
}
