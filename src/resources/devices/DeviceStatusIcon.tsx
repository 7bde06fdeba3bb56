import { useState } from 'react';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { useTranslate } from 'react-admin';
import { DEVICE_KIND_KEYS, DEVICE_STATE_KEYS, isDeviceKind, type DeviceState } from '../../domain/deviceKinds';
import { defaultDeviceIcon, deviceIcon } from '../../state/deviceIcons';
import { useClientState } from '../../state/useClientState';

/** A device's kind and connection state as one icon; a picture that fails to load falls back to the default. */
export function DeviceStatusIcon({ kind, status, size = 28 }: { kind: string; status: number; size?: number }) {
  const translate = useTranslate();
  const icons = useClientState((s) => s.icons);
  const [failed, setFailed] = useState(false);
  const src = failed ? defaultDeviceIcon(kind, status) : deviceIcon(kind, status, icons);
  const label = `${isDeviceKind(kind) ? translate(DEVICE_KIND_KEYS[kind]) : kind} · ${translate(DEVICE_STATE_KEYS[status as DeviceState] ?? 'deviceState.offline')}`;
  return (
    <Tooltip title={label}>
      <Box
        component="img"
        src={src}
        alt={label}
        onError={() => setFailed(true)}
        data-testid={`device-icon-${kind}-${status}`}
        sx={{ width: size, height: size, objectFit: 'contain', verticalAlign: 'middle' }}
      />
    </Tooltip>
  );
}

/** A device kind's name in the user's language (an unknown kind as it is). */
export function DeviceKindName({ kind }: { kind: string }) {
  const translate = useTranslate();
  return <>{isDeviceKind(kind) ? translate(DEVICE_KIND_KEYS[kind]) : kind}</>;
}
