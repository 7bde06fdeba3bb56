import { useEffect, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import LockIcon from '@mui/icons-material/Lock';
import { request } from '../api';
import type { Feature } from '../domain/features';
import { FEATURE_LOCKED_KEY } from '../domain/features';
import { useTranslate } from 'ra-core';

type DeviceFeatures = Record<Feature, boolean>;

/** A device's unlocked features (deviceAuth/getDeviceFeatures); null while loading or without a device. */
export function useDeviceFeatures(deviceId: number | null | undefined): DeviceFeatures | null {
  const [features, setFeatures] = useState<DeviceFeatures | null>(null);
  useEffect(() => {
    setFeatures(null);
    if (!deviceId) return undefined;
    const controller = new AbortController();
    request<DeviceFeatures>('/deviceModule/deviceAuth/getDeviceFeatures', { query: { id: deviceId }, signal: controller.signal, quiet: true })
      .then(setFeatures)
      .catch(() => undefined);
    return () => controller.abort();
  }, [deviceId]);
  return features;
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
export function FeatureGate({ feature, deviceId, children }: { feature: Feature; deviceId: number | null | undefined; children: ReactNode }) {
  const features = useDeviceFeatures(deviceId);
  if (!deviceId) return <>{children}</>;
  if (!features) return null;
  return features[feature] ? <>{children}</> : <FeatureLockedNotice />;
}
