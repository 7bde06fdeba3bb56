import Chip from '@mui/material/Chip';
import { useEffect, useMemo, useRef } from 'react';
import { useRecordContext } from 'ra-core';
import { useFormContext, useWatch } from 'react-hook-form';
import type { ReferenceDef } from '../types';

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && !value.length);

/**
 * A reference's filter with the values of its form that its `filterFrom` names (ReferenceDef):
 * `{ ownerId: 'ownerId' }` adds `ownerId: <the form's ownerId>` while the form names one. When such a
 * value changes from one record to another, the picks made for the old one are cleared (`empty`):
 * the server would refuse another enterprise's contact points anyway.
 */
export function useNarrowedFilter(source: string, reference: ReferenceDef, empty: unknown): Record<string, unknown> | undefined {
  const from = Object.entries(reference.filterFrom ?? {});
  const values = useWatch({ name: from.map(([, field]) => field) }) as unknown[];
  const { setValue } = useFormContext();
  const narrowing = from.flatMap(([filter], i) => (isSet(values?.[i]) ? [[filter, values[i]] as const] : []));
  const key = JSON.stringify(narrowing);
  const previous = useRef(key);
  useEffect(() => {
    const before = previous.current;
    previous.current = key;
    // Only a change away from a value clears: a form loading its record goes from nothing to the record's value.
    if (before !== key && before !== '[]') setValue(source, empty, { shouldDirty: true });
  }, [key, source, empty, setValue]);
  const base = reference.filter;
  return useMemo(() => (key === '[]' ? base : { ...base, ...Object.fromEntries(JSON.parse(key) as [string, unknown][]) }), [key, base]);
}

/** The text of a referenced record, from the reference's optionText: a field, or a function of the record. */
export const optionTextOf = (reference: ReferenceDef, record: Record<string, unknown>): string => {
  const { optionText } = reference;
  if (typeof optionText === 'function') return optionText(record);
  const value = record[optionText ?? 'name'];
  return value === undefined || value === null ? '' : String(value);
};

/** The referenced record of the context (inside a ReferenceField) as its reference's text. */
export function ReferenceText({ reference }: { reference: ReferenceDef }) {
  const record = useRecordContext();
  return record ? <>{optionTextOf(reference, record)}</> : null;
}

/** One record of a reference list (inside a ReferenceArrayField) as a small chip with its reference's text. */
export function ReferenceChip({ reference }: { reference: ReferenceDef }) {
  const record = useRecordContext();
  return record ? <Chip size="small" label={optionTextOf(reference, record)} /> : null;
}
