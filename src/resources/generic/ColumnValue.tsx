import { Suspense } from 'react';
import Chip from '@mui/material/Chip';
import { ChipField, ImageField, ReferenceArrayField, ReferenceField, SingleFieldList, TextField, type RaRecord } from 'react-admin';
import { useCanAccess, useTranslate } from 'ra-core';
import { useDateFormatter } from '../../format/useDateFormatter';
import type { ColumnDef } from '../types';
import { ReferenceChip, ReferenceText } from './referenceOptions';
import { lazyView } from '../lazyView';

/** A geometry column's small map, loaded with the first page that shows one. */
const GeometryView = lazyView(
  () => import('../../map/GeometryView'),
  (m) => m.GeometryView,
);

const ELLIPSIS = {
  display: 'inline-block',
  maxWidth: 320,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'bottom',
} as const;

/**
 * Several referenced records, each a chip by its optionText. A user who may not read the referenced
 * resource (level 3 and the contact points of a rule) sees how many there are: fetching them would
 * only fail, with an error notification per row.
 */
function ReferencesValue({ column, record, count }: { column: ColumnDef; record: RaRecord; count: number }) {
  const reference = column.reference!;
  const { canAccess, isPending } = useCanAccess({ resource: reference.resource, action: 'show' });
  if (isPending) return null;
  if (!canAccess) return <>{count}</>;
  return (
    <ReferenceArrayField source={column.source} reference={reference.resource} record={record}>
      <SingleFieldList linkType={false}>
        {typeof reference.optionText === 'function' ? (
          <ReferenceChip reference={reference} />
        ) : (
          <ChipField source={reference.optionText ?? 'name'} size="small" />
        )}
      </SingleFieldList>
    </ReferenceArrayField>
  );
}

/** One value of a record as its column's kind shows it (list cells and the generic Show page). */
export function ColumnValue({ column, record }: { column: ColumnDef; record: RaRecord }) {
  const translate = useTranslate();
  const format = useDateFormatter();
  const value = record[column.source];
  const empty = value === null || value === undefined || value === '';
  if (column.component)
    return (
      <Suspense fallback={null}>
        <column.component record={record} />
      </Suspense>
    );
  switch (column.kind) {
    case 'date':
      // A calendar day (2026-11-23) is shown as it is; an instant as its day in the user's time zone.
      // One line, as a date and time: "2026-01-" above "09" reads as two values on a phone.
      return (
        <span style={{ whiteSpace: 'nowrap' }}>
          {typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : format(value as string, false)}
        </span>
      );
    case 'datetime':
      // A date and time keep one line: a wrapped timestamp is hard to read down a column.
      return <span style={{ whiteSpace: 'nowrap' }}>{format(value as string)}</span>;
    case 'boolean':
      return <>{empty ? '' : translate(value ? 'console.value.yes' : 'console.value.no')}</>;
    case 'json': {
      const text =
        value && typeof value === 'object'
          ? Object.entries(value)
              .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
              .join(', ')
          : '';
      return (
        <span title={text} style={ELLIPSIS}>
          {text}
        </span>
      );
    }
    case 'choice':
      return <>{empty ? '' : translate(`${column.choicePrefix}${String(value)}`, { _: String(value) })}</>;
    case 'chip':
      return empty ? null : (
        <Chip
          size="small"
          color={column.chipColors?.[String(value)] ?? 'default'}
          label={translate(`${column.choicePrefix}${String(value)}`, { _: String(value) })}
          data-value={String(value)}
        />
      );
    case 'reference':
      // The referenced record by its optionText (a vessel's name), or by its resource's representation.
      return column.reference ? (
        <ReferenceField source={column.source} reference={column.reference.resource} record={record} link={false} emptyText="">
          {typeof column.reference.optionText === 'function' ? (
            <ReferenceText reference={column.reference} />
          ) : column.reference.optionText ? (
            <TextField source={column.reference.optionText} />
          ) : undefined}
        </ReferenceField>
      ) : null;
    case 'references':
      return column.reference && Array.isArray(value) && value.length ? (
        <ReferencesValue column={column} record={record} count={value.length} />
      ) : null;
    case 'image':
      return empty ? null : <ImageField source={column.source} record={record} sx={{ '& img': { maxWidth: 48, maxHeight: 48, m: 0 } }} />;
    case 'geometry':
      return (
        <Suspense fallback={null}>
          <GeometryView record={record} source={column.source} />
        </Suspense>
      );
    default:
      return <>{empty ? '' : String(value)}</>;
  }
}
