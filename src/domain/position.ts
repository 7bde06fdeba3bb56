import * as yup from 'yup';
import { idRule } from './schemaRules';
import { wrapLongitude } from './greatCircle';

/**
 * A position typed by hand (docs/requirements.md §5): longitude 0 to 180 with E or W, latitude 0 to 90
 * with N or S, at most two decimals. The console's form and the server use this one schema.
 */
export const TWO_DECIMALS = /^\d{1,3}(\.\d{1,2})?$/;

const magnitude = (max: number, key: string) =>
  yup
    .string()
    .typeError(key)
    .trim()
    .required('validation.required')
    .test('format', key, (v) => !v || (TWO_DECIMALS.test(v) && Number(v) >= 0 && Number(v) <= max));

export const positionSchema = yup.object({
  longitude: magnitude(180, 'validation.positionLongitude'),
  lonHemisphere: yup.string().required('validation.required').oneOf(['E', 'W'], 'validation.lonHemisphere'),
  latitude: magnitude(90, 'validation.positionLatitude'),
  latHemisphere: yup.string().required('validation.required').oneOf(['N', 'S'], 'validation.latHemisphere'),
});
export type PositionInput = yup.InferType<typeof positionSchema>;

/** Signed decimal degrees of a valid typed position. */
export const toSigned = (p: PositionInput): { lat: number; lon: number } => ({
  lat: Number(p.latitude) * (p.latHemisphere === 'S' ? -1 : 1),
  lon: Number(p.longitude) * (p.lonHemisphere === 'W' ? -1 : 1),
});

/** The form's fields for signed degrees (rounded to two decimals). */
export const fromSigned = (lat: number, lon: number): PositionInput => ({
  longitude: Math.abs(lon).toFixed(2),
  lonHemisphere: lon < 0 ? 'W' : 'E',
  latitude: Math.abs(lat).toFixed(2),
  latHemisphere: lat < 0 ? 'S' : 'N',
});

/** A vessel's manual position: the typed position plus the device it is for. */
export const manualPositionSchema = positionSchema.shape({
  deviceId: idRule().required('validation.required'),
});

/** Signed degrees as text in the hemisphere notation of the form, e.g. "22.30° N, 114.20° E". */
export const formatPosition = (lat: number, lon: number, decimals = 4): string => {
  const wrapped = wrapLongitude(lon);
  return `${Math.abs(lat).toFixed(decimals)}° ${lat < 0 ? 'S' : 'N'}, ${Math.abs(wrapped).toFixed(decimals)}° ${wrapped < 0 ? 'W' : 'E'}`;
};
