/**
 * Features an admin can lock per enterprise or per device (device authorization, level 1).
 * A locked feature shows and answers 'contact your service provider to unlock it'.
 */
export const Feature = {
  TrackHistory: 'trackHistory',
  Camera: 'camera',
  Statistics: 'statistics',
  IotData: 'iotData',
} as const;
export type Feature = (typeof Feature)[keyof typeof Feature];
export const FEATURES: readonly Feature[] = Object.values(Feature);
export const isFeature = (value: unknown): value is Feature => (FEATURES as readonly unknown[]).includes(value);

/** Message key of each feature's name (messages.ts: feature.*). */
export const FEATURE_KEYS: Record<Feature, string> = {
  trackHistory: 'feature.trackHistory',
  camera: 'feature.camera',
  statistics: 'feature.statistics',
  iotData: 'feature.iotData',
};

/** The message key of the refusal, in the console and in the API. */
export const FEATURE_LOCKED_KEY = 'error.featureLocked';
