import * as yup from 'yup';
import { idRule } from './schemaRules';
import { isFaultCode } from './faultCodes';

/** A record of what was done to clear a fault on a device, kept in the device's history. */
export const faultClearingRecordSchema = yup.object({
  deviceId: idRule().required('validation.required'),
  code: yup.string().required('validation.required').test('fault', 'validation.faultCode', isFaultCode),
  /** Indexes (0-based) of the guided steps that were carried out. */
  stepsDone: yup.array(yup.number().integer('validation.integer').min(0).max(20).required()).max(20).default([]),
  action: yup.string().trim().required('validation.required').max(2000, 'validation.tooLong'),
  cleared: yup.boolean().typeError('validation.boolean').required('validation.required'),
});
export type FaultClearingRecordInput = yup.InferType<typeof faultClearingRecordSchema>;
