import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import PauseIcon from '@mui/icons-material/Pause';
import DownloadIcon from '@mui/icons-material/Download';
import { TRACK_WINDOWS, type TrackWindow } from '../../domain/track';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useTranslate } from 'ra-core';
import { PLAYBACK_SPEEDS } from './playback';

export function WindowPicker({ value, onChange }: { value: TrackWindow; onChange: (w: TrackWindow) => void }) {
  const t = useTranslate();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      onChange={(_, w: TrackWindow | null) => w && onChange(w)}
      aria-label={t('track.window')}
      sx={{ flexWrap: 'wrap' }}
    >
      {[...TRACK_WINDOWS, 'custom' as const].map((w) => (
        <ToggleButton key={w} value={w} data-testid={`window-${w}`} sx={{ px: 1.25, py: 0.5 }}>
          {t(`track.windows.${w}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

export interface CustomRange {
  from: string;
  to: string;
}

export function CustomRangeFields({
  value,
  errors,
  onChange,
  onApply,
}: {
  value: CustomRange;
  errors: Record<string, string>;
  onChange: (r: CustomRange) => void;
  onApply: () => void;
}) {
  const t = useTranslate();
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <TextField
        size="small"
        type="datetime-local"
        label={t('track.from')}
        value={value.from}
        onChange={(e) => onChange({ ...value, from: e.target.value })}
        error={Boolean(errors.from)}
        helperText={errors.from && t(errors.from)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'custom-from' } }}
      />
      <TextField
        size="small"
        type="datetime-local"
        label={t('track.to')}
        value={value.to}
        onChange={(e) => onChange({ ...value, to: e.target.value })}
        error={Boolean(errors.to)}
        helperText={errors.to && t(errors.to)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'custom-to' } }}
      />
      <Button variant="contained" onClick={onApply} data-testid="custom-apply">
        {t('track.apply')}
      </Button>
    </Stack>
  );
}

export function ExportButtons({ disabled, onExport }: { disabled: boolean; onExport: (format: 'gpx' | 'kml' | 'csv') => void }) {
  const t = useTranslate();
  return (
    <ButtonGroup size="small" variant="outlined" disabled={disabled} aria-label={t('track.export')}>
      {(['gpx', 'kml', 'csv'] as const).map((f) => (
        <Tooltip key={f} title={t('track.exportAs', { format: f.toUpperCase() })}>
          <Button startIcon={<DownloadIcon />} onClick={() => onExport(f)} data-testid={`export-${f}`}>
            {f.toUpperCase()}
          </Button>
        </Tooltip>
      ))}
    </ButtonGroup>
  );
}

/** Play/pause, the time slider, the speed and "follow the vessel". */
export function PlaybackBar({
  start,
  end,
  cursor,
  playing,
  speed,
  follow,
  onPlay,
  onPause,
  onSeek,
  onSpeed,
  onFollow,
}: {
  start: number;
  end: number;
  cursor: number;
  playing: boolean;
  speed: number;
  follow: boolean;
  onPlay: () => void;
  onPause: () => void;
  onSeek: (t: number) => void;
  onSpeed: (s: number) => void;
  onFollow: (f: boolean) => void;
}) {
  const t = useTranslate();
  const date = useDateFormatter();
  return (
    <Stack
      direction="row"
      spacing={1.5}
      useFlexGap
      sx={{ alignItems: 'center', flexWrap: { xs: 'wrap', md: 'nowrap' } }}
      data-testid="playback"
    >
      <IconButton
        color="primary"
        onClick={playing ? onPause : onPlay}
        aria-label={playing ? t('track.pause') : t('track.play')}
        data-testid={playing ? 'pause' : 'play'}
      >
        {playing ? <PauseIcon /> : <PlayArrowIcon />}
      </IconButton>
      <Box sx={{ flex: 1, minWidth: 160, px: 1 }}>
        <Slider
          size="small"
          min={start}
          max={end}
          step={1000}
          value={Math.min(end, Math.max(start, cursor))}
          onChange={(_, v) => onSeek(v as number)}
          valueLabelDisplay="auto"
          valueLabelFormat={(v) => date(v)}
          aria-label={t('track.slider')}
          data-testid="time-slider"
        />
      </Box>
      <TextField
        select
        size="small"
        label={t('track.speed')}
        value={speed}
        onChange={(e) => onSpeed(Number(e.target.value))}
        sx={{ width: 92 }}
        slotProps={{ htmlInput: { 'data-testid': 'speed' } }}
        title={t('track.speedHint')}
      >
        {PLAYBACK_SPEEDS.map((s) => (
          <MenuItem key={s} value={s} data-testid={`speed-${s}`}>
            {s}x
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        control={<Checkbox size="small" checked={follow} onChange={(e) => onFollow(e.target.checked)} data-testid="follow" />}
        label={t('track.follow')}
        sx={{ whiteSpace: 'nowrap', mr: 0 }}
      />
    </Stack>
  );
}
