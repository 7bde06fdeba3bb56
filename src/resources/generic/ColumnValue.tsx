import Chip from '@mui/material/Chip';
import { ImageField, ReferenceField, type RaRecord } from 'react-admin';
import { useTranslate } from 'ra-core';
import { useDateFormatter } from '../../format/useDateFormatter';
import type { ColumnDef } from '../types';

const ELLIPSIS = {
  display: 'inline-block',
  maxWidth: 320,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'bottom',
} as const;

/** One value of a record as its column's kind shows it (list cells and the generic Show page). */
export function ColumnValue({ column, record }: { column: ColumnDef; record: RaRecord }) {
  const translate = useTranslate();
  const format = useDateFormatter();
  const value = record[column.source];
  const empty = value === null || value === undefined || value === '';
  switch (column.kind) {
    case 'date':
      // A calendar day (2026-11-23) is shown as it is; an instant as its day in the user's time zone.
      return <>{typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : format(value as string, false)}</>;
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
      return column.reference ? (
        <ReferenceField source={column.source} reference={column.reference.resource} record={record} link={false} emptyText="" />
      ) : null;
    case 'image':
      return empty ? null : <ImageField source={column.source} record={record} sx={{ '& img': { maxWidth: 48, maxHeight: 48, m: 0 } }} />;
    default:
      return <>{empty ? '' : String(value)}</>;
  }
}
