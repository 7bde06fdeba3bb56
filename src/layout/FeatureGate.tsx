import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import LockIcon from '@mui/icons-material/Lock';
import { useCallQuery } from '../data/dataHooks';
import type { Feature } from '../domain/features';
import { FEATURE_LOCKED_KEY } from '../domain/features';
import { useTranslate } from 'ra-core';

type DeviceFeatures = Record<Feature, boolean>;

/** A device's unlocked features (devices.deviceFeatures, deviceAuth/getDeviceFeatures); null while loading, after a failure or without a device. */
export function useDeviceFeatures(deviceId: number | null | undefined): DeviceFeatures | null {
  const { data } = useCallQuery('devices', 'deviceFeatures', deviceId ? [deviceId] : null);
  return deviceId && data ? data : null;
}

/** The refusal a locked feature shows, in the user's language. */
export function FeatureLockedNotice() {
  const t = useTranslate();
  return (
    <Alert severity="warning" icon={<LockIcon />} data-testid="feature-locked" sx={{ m: 2 }}>
      {t(FEATURE_LOCKED_KEY)}
    </Alert>
  );
}

/**
 * Shows its children only when the feature is unlocked for the device; otherwise the
 * 'contact your service provider to unlock it' notice. The server refuses the same calls (code 3).
 */
export function FeatureGate({
  feature,
  deviceId,
  children,
}: {
  feature: Feature;
  deviceId: number | null | undefined;
  children: ReactNode;
}) {
  const features = useDeviceFeatures(deviceId);
  if (!deviceId) return <>{children}</>;
  if (!features) return null;
  return features[feature] ? <>{children}</> : <FeatureLockedNotice />;
}
