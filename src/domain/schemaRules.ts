import * as yup from 'yup';
import { INTEGER_MAX, INTEGER_MIN } from './constants';

/**
 * The building blocks every domain schema uses (devices, voyages, cameras, firmware, after-sales),
 * written once. Messages are keys of messages.ts.
 */

/** Empty text is "not given", so that required() answers "required". */
export const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

export const requiredText = (max: number) =>
  yup.string().transform(blankToUndefined).trim().required('validation.required').max(max, 'validation.tooLong');

export const optionalText = (max: number) =>
  yup.string().transform(blankToUndefined).trim().max(max, 'validation.tooLong').optional().nullable();

export const optionalPattern = (pattern: RegExp, key: string) =>
  yup.string().transform(blankToUndefined).trim().matches(pattern, key).optional().nullable();

/** A whole number PostgreSQL's integer columns take (ids, counts); past that range it is "out of range", not a database error. */
export const idRule = () =>
  yup
    .number()
    .typeError('validation.integer')
    .integer('validation.integer')
    .min(INTEGER_MIN, 'validation.outOfRange')
    .max(INTEGER_MAX, 'validation.outOfRange');

/** An empty list may come as null (a row stored before the field existed). */
export const nullToEmpty = (value: unknown, original: unknown) => (original === null ? [] : value);

/** A list of ids (a rule's or a schedule's vessels, users, contact points): at most 200, none twice, null as empty. */
export const idListRule = (field: string) =>
  yup
    .array()
    .transform(nullToEmpty)
    .of(idRule().required('validation.required'))
    .max(200, 'validation.tooMany')
    .default([])
    .test(field, 'validation.duplicate', (list) => !list || new Set(list).size === list.length);

/** A YYYY-MM-DD that is a day of the calendar (02-30 is refused, not rolled over); empty passes (required() decides). */
export const isRealDate = (value: string | undefined | null): boolean => {
  if (!value) return true;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};

/** An ISO date-time that JavaScript reads and whose date part is a real calendar day, whatever its zone. */
export const isRealTime = (value: string | undefined | null): boolean =>
  !value || (isRealDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value)));

/** A calendar day, YYYY-MM-DD; empty is "not given" (required() decides). */
export const dayRule = () =>
  yup
    .string()
    .transform(blankToUndefined)
    .trim()
    .matches(/^\d{4}-\d{2}-\d{2}$/, 'validation.date')
    .test('real-date', 'validation.date', isRealDate);

/** One of a fixed list of values (a kind, a state); the message names what is wrong with it. */
export const choiceRule = (values: readonly string[], message = 'validation.invalid') =>
  yup
    .string()
    .transform(blankToUndefined)
    .trim()
    .oneOf([...values], message);
