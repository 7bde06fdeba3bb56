/** Business constants and limits of docs/requirements.md §9. */
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
/**
 * The request header a console sends on a call it makes by itself (a poll), value '1': the server
 * answers it but does not count it as the user's activity, so an idle session still times out.
 */
export const BACKGROUND_HEADER = 'X-Background';
export const apiSegmentFor = (production: boolean): 'v1' | 'test' => (production ? 'v1' : 'test');
export const PAGE_SIZE_MAX = 500;

/*
 * Upload limits: what an uploaded file may hold, checked while it is read so that a
 * hostile file is refused early (code 8, the limit named in the message) and never costs the
 * server more than a few tens of MB or a few seconds. docs/api.md lists them.
 */
/** Device import: the .xlsx as uploaded (compressed). 10,000 real rows take about 1-2 MB. */
export const IMPORT_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Device import: zip parts (entries) in the .xlsx; a workbook has a dozen or two. */
export const IMPORT_MAX_ZIP_ENTRIES = 1000;
/** Device import: one zip part once unpacked (the sheet, the shared strings), as declared and as inflated. */
export const IMPORT_MAX_ENTRY_BYTES = 24 * 1024 * 1024;
/** Device import: all zip parts unpacked together, by the sizes the zip declares (checked before unpacking). */
export const IMPORT_MAX_UNZIPPED_BYTES = 32 * 1024 * 1024;
/** Device import: data rows (devices) in one file; rows after the header that hold any value count. */
export const IMPORT_MAX_ROWS = 10_000;
/** Device import: columns of the sheet that hold a value (the template has 19). */
export const IMPORT_MAX_COLUMNS = 64;
/** Device import: characters in one cell (the longest device field takes 200). */
export const IMPORT_MAX_CELL_CHARS = 1000;
/** Device import: characters in all imported cells together (10,000 rows of the longest valid values take about 8.5 million). */
export const IMPORT_MAX_TEXT_CHARS = 10_000_000;
/** Device import: the file is read in a worker thread; past this time it is stopped and the import refused. */
export const IMPORT_READ_TIMEOUT_MS = 10_000;
/** Device import: heap of the reading thread (old generation, MB); past it the thread dies and the import is refused. */
export const IMPORT_READER_HEAP_MB = 256;
/** Device import: files read at the same time; more wait their turn (up to IMPORT_READERS_QUEUE, then -100 busy). */
export const IMPORT_READERS_AT_ONCE = 2;
export const IMPORT_READERS_QUEUE = 16;
/** Images (JPG or PNG, at most IMAGE_MAX_BYTES): the largest width and height accepted, in pixels. */
export const IMAGE_MAX_DIMENSION = 8000;
/** PostgreSQL's integer range: every id, count and page number the API takes fits in it. */
export const INTEGER_MIN = -2147483648;
export const INTEGER_MAX = 2147483647;
/** Control characters refused in any text the API takes (tab, line feed and carriage return are text). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
