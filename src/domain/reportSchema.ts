import * as yup from 'yup';
import { isRealTime } from './schemaRules';
import { FAULT_CODE_LIST, isFaultCode } from './faultCodes';
import { MAX_BYTES_PER_REPORT } from './dataPlans';
import { linksSchema } from './links';

/**
 * One report of a device to the ingest endpoint. Every field is checked; a message is a
 * key of messages.ts so the server answers it in the caller's language.
 */
export const FIRMWARE_VERSION_PATTERN = /^V\d{1,2}\.\d{1,2}\.\d{1,2}$/;
/** ISO 8601 with a time and an explicit UTC designator (Z or +00:00). */
export const UTC_ISO_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]00:?00)$/;
export const MAX_BATCH_REPORTS = 1000;
/**
 * Largest report body, in bytes: HTTP ingest's body limit and an MQTT report's payload limit
 * (docs/devices.md, "Limits"). A batch of 1000 reports with every field at its longest is about 0.95 MB.
 */
export const MAX_REPORT_BODY_BYTES = 4 * 1024 * 1024;
/** Reports dated further ahead of the server's clock than this are refused. */
export const MAX_FUTURE_MS = 5 * 60_000;

const num = (min: number, max: number, key: string) =>
  yup.number().strict().typeError(key).required('validation.required').min(min, key).max(max, key);
/** A number a device of some kinds does not have (src/domain/deviceKinds.ts, KIND_REPORTS): absent or null, else in range. */
const optionalNum = (min: number, max: number, key: string) =>
  yup.number().strict().typeError(key).min(min, key).max(max, key).optional().nullable();

/** A real instant whose calendar date is the one written (JavaScript would roll 02-30 into March). */

export const reportSchema = yup.object({
  deviceTime: yup
    .string()
    .strict()
    .typeError('validation.deviceTime')
    .required('validation.required')
    .matches(UTC_ISO_PATTERN, 'validation.deviceTime')
    .test('real-time', 'validation.deviceTime', isRealTime),
  lat: num(-90, 90, 'validation.latitude'),
  lon: num(-180, 180, 'validation.longitude'),
  speed: num(0, 60, 'validation.speed'),
  heading: num(0, 360, 'validation.heading'),
  // Satellite pointing: absent (or null) from a device without a satellite link (a 4G router, a microwave link, an AIS transponder).
  azimuth: optionalNum(0, 360, 'validation.azimuth'),
  elevation: optionalNum(-90, 90, 'validation.elevation'),
  skew: optionalNum(-90, 90, 'validation.skew'),
  satellite: yup
    .object({
      name: yup
        .string()
        .strict()
        .typeError('validation.invalid')
        .trim()
        .required('validation.required')
        .max(64, 'validation.tooLong')
        // eslint-disable-next-line no-control-regex -- refusing control characters is the point
        .matches(/^[^\u0000-\u001f\u007f]*$/, 'validation.invalid'),
      longitude: num(-180, 180, 'validation.longitude'),
    })
    .default(undefined)
    .optional()
    .nullable(),
  signalLevel: num(0, 100, 'validation.signalLevel'),
  snr: num(-20, 50, 'validation.snr'),
  modemLock: yup.boolean().strict().typeError('validation.boolean').required('validation.required'),
  txOn: yup.boolean().strict().typeError('validation.boolean').required('validation.required'),
  lteSignal: yup
    .number()
    .strict()
    .typeError('validation.lteSignal')
    .min(-140, 'validation.lteSignal')
    .max(0, 'validation.lteSignal')
    .optional()
    .nullable(),
  faults: yup
    .array(
      yup
        .string()
        .strict()
        .typeError('validation.faultCode')
        .required('validation.faultCode')
        .test('known', 'validation.faultCode', isFaultCode),
    )
    .typeError('validation.faultCode')
    .required('validation.required')
    .max(FAULT_CODE_LIST.length, 'validation.tooLong'),
  /** Bytes sent and received since the device's previous report (docs/api.md, "dataPlan"); optional. */
  bytesUsed: yup
    .number()
    .strict()
    .typeError('validation.bytesUsed')
    .integer('validation.bytesUsed')
    .min(0, 'validation.bytesUsed')
    .max(MAX_BYTES_PER_REPORT, 'validation.bytesUsed')
    .optional()
    .nullable(),
  /** The vessel's WAN links, in its router's order of preference (src/domain/links.ts); optional. */
  links: linksSchema,
  firmware: yup
    .object({
      adu: yup
        .string()
        .strict()
        .typeError('validation.firmwareVersion')
        .required('validation.required')
        .matches(FIRMWARE_VERSION_PATTERN, 'validation.firmwareVersion'),
      bdu: yup
        .string()
        .strict()
        .typeError('validation.firmwareVersion')
        .required('validation.required')
        .matches(FIRMWARE_VERSION_PATTERN, 'validation.firmwareVersion'),
    })
    .default(undefined)
    .optional(),
});

export type DeviceReport = yup.InferType<typeof reportSchema>;
