import Box from '@mui/material/Box';
import { useTranslate, type RaRecord } from 'react-admin';
import { ISO_TIME, auditFieldKey, auditName, type AuditChange } from '../../domain/auditChanges';
import { useDateFormatter } from '../../format/useDateFormatter';

/**
 * An audit entry's changes as people read them: one line per changed field, under the name the
 * console gives it, "before → after", times in the console's zone (src/domain/auditChanges.ts).
 */
export function AuditChangesCell({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const formatDate = useDateFormatter();
  const changes = (record.changes ?? []) as AuditChange[];
  if (!changes.length) return null;
  const text = (value: unknown): string => {
    if (value === null || value === undefined || value === '') return '—';
    if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
    if (typeof value === 'string' && ISO_TIME.test(value)) return formatDate(value);
    if (Array.isArray(value)) return value.map(text).join(', ');
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  return (
    <Box component="ul" sx={{ m: 0, pl: 2, maxWidth: 480 }} data-testid="audit-changes">
      {changes.map((c) => {
        const key = auditFieldKey(String(record.entity), c.field);
        return (
          <li key={c.field}>
            <Box component="span" sx={{ fontWeight: 500 }}>
              {key ? translate(key, { _: c.field }) : c.field}
            </Box>
            : {text(c.before)} → {text(c.after)}
          </li>
        );
      })}
    </Box>
  );
}

/** An audit entry's entity or action under its console name ("Device", "Changed"); a declared resource's as it is. */
export const auditNameCell = (kind: 'entity' | 'action') =>
  function AuditNameCell({ record }: { record: RaRecord }) {
    const translate = useTranslate();
    return <>{auditName(kind, String(record[kind] ?? ''), (key) => translate(key))}</>;
  };
