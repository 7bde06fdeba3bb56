import * as yup from 'yup';
import { blankToUndefined, idRule, isRealTime, optionalText, requiredText } from './schemaRules';

/**
 * The voyage and camera rules, written once for the console's forms and the API.
 * Messages are keys of messages.ts, so both sides show them in the caller's language.
 */

/** An instant with a date, a time and an explicit zone (Z or +hh:mm): what the API stores. */
export const ZONED_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/;
/** Camera streams are opened by the browser: only http and https links are accepted. */
export const STREAM_LINK_PATTERN = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
export const PHONE_PATTERN = /^[+0-9()\-\s]{3,32}$/;

const zonedTime = () =>
  yup
    .string()
    .transform(blankToUndefined)
    .trim()
    .required('validation.required')
    .matches(ZONED_TIME_PATTERN, 'validation.dateTime')
    .test('real-time', 'validation.dateTime', isRealTime);

/** eta may not be before etd (checked only when both are valid times). */
export const etaNotBeforeEtd = (etd: string | undefined | null, eta: string | undefined | null): boolean => {
  if (!etd || !eta) return true;
  const [d, a] = [Date.parse(etd), Date.parse(eta)];
  return Number.isNaN(d) || Number.isNaN(a) || a >= d;
};

export const voyageFields = {
  deviceId: idRule().required('validation.required').min(1, 'validation.required'),
  voyageNo: requiredText(32),
  destination: requiredText(128),
  etd: zonedTime(),
  eta: zonedTime().test('eta-after-etd', 'validation.etaBeforeEtd', function check(eta) {
    return etaNotBeforeEtd(this.parent?.etd as string | undefined, eta);
  }),
  agent: requiredText(128),
  email: yup.string().transform(blankToUndefined).trim().email('validation.email').max(128, 'validation.tooLong').optional().nullable(),
  phone: yup.string().transform(blankToUndefined).trim().matches(PHONE_PATTERN, 'validation.phone').optional().nullable(),
  remark: optionalText(500),
};
export const voyageSchema = yup.object(voyageFields);
export const updateVoyageSchema = yup.object({ id: idRule().required('validation.required'), ...voyageFields });
export type VoyageInput = yup.InferType<typeof voyageSchema>;

export const cameraFields = {
  deviceId: idRule().required('validation.required').min(1, 'validation.required'),
  name: requiredText(64),
  link: yup
    .string()
    .transform(blankToUndefined)
    .trim()
    .required('validation.required')
    .max(1000, 'validation.tooLong')
    .matches(STREAM_LINK_PATTERN, 'validation.streamLink'),
  description: optionalText(500),
};
export const cameraSchema = yup.object(cameraFields);
export const updateCameraSchema = yup.object({ id: idRule().required('validation.required'), ...cameraFields });
export type CameraInput = yup.InferType<typeof cameraSchema>;

/** How the console opens a stream link: HLS in the page, MJPEG in an image, anything else in a new tab. */
export type StreamKind = 'hls' | 'mjpeg' | 'external';
export function streamKindOf(link: string): StreamKind {
  let path = link;
  try {
    path = new URL(link).pathname;
  } catch {
    /* keep the text as it is */
  }
  const lower = path.toLowerCase();
  if (lower.endsWith('.m3u8')) return 'hls';
  if (/\.(mjpe?g|cgi)$/.test(lower) || lower.includes('mjpeg') || lower.includes('mjpg')) return 'mjpeg';
  return 'external';
}

/** The data windows of the detail charts (docs/requirements.md §9) by their names. */
export const DATA_WINDOWS = { '6h': 6, '12h': 12, '24h': 24, '7d': 24 * 7 } as const;
export type DataWindow = keyof typeof DATA_WINDOWS;
export const DATA_WINDOW_NAMES = Object.keys(DATA_WINDOWS) as DataWindow[];
/** About this many points per chart, whatever the window. */
export const SERIES_POINTS = 300;

/** What a voyage is, as of now: underway (etd passed, eta not), planned (etd ahead), arrived. */
export type VoyageStatus = 'planned' | 'underway' | 'arrived';
export function voyageStatusOf(etd: string, eta: string, now = Date.now()): VoyageStatus {
  if (Date.parse(eta) < now) return 'arrived';
  return Date.parse(etd) <= now ? 'underway' : 'planned';
}
