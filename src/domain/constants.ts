/** Business constants and limits of SPEC section 9. */
export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh';
export const normaliseLanguage = (value: unknown): Language =>
  (LANGUAGES as readonly unknown[]).includes(value) ? (value as Language) : DEFAULT_LANGUAGE;
/** The cookie holding the chosen language (the server reads it too, to preload that catalogue). */
export const LANGUAGE_COOKIE = 'language';

export const DEFAULT_SIZE = 'mini';
export const DEFAULT_THEME = '#065aa1';
export const REQUEST_TIMEOUT_MS = 60_000;
export const MESSAGE_DURATION_MS = 5_000;
export const COOKIE_DAYS = 30;
export const TIME_ZONES: readonly number[] = Array.from({ length: 25 }, (_, i) => i - 12);
export const MOBILE_BREAKPOINT_PX = 1024;
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_SIZE = { width: 160, height: 35 };
export const ANTENNA_ICON_SIZE = { width: 200, height: 200 };
export const LOGIN_BACKGROUNDS = 6;
export const HOME_BACKGROUNDS = 6;
export const STATISTICS_RANGES_DAYS = [5, 10, 15] as const;
export const DATA_WINDOWS_HOURS = [6, 12, 24, 24 * 7] as const;
export const TRACK_WINDOWS_DAYS = [3, 7, 14, 21, 30] as const;
export const LOCATION_HISTORY_DAYS = [7, 30, 90, 365] as const;
export const EXPORT_THROTTLE_MS = 10_000;
export const apiSegmentFor = (production: boolean): 'v1' | 'test' => (production ? 'v1' : 'test');
export const PAGE_SIZE_MAX = 500;
