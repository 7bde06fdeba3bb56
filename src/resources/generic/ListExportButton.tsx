import { useListContext } from 'react-admin';
import { downloadFile } from '../../api/transfer';
import type { QueryValue } from '../../api';
import { ExportButton } from '../../layout/ExportButton';

/**
 * Exports what the list shows (its filters and sort) through the resource's export route; a
 * second export within 10 s is refused by the server (-101) and the error catalogue says so.
 */
export function ListExportButton({ path, label, testId }: { path: string; label: string; testId?: string }) {
  const { filterValues, sort } = useListContext();
  const run = () =>
    downloadFile(path, {
      ...(filterValues as Record<string, QueryValue>),
      sort: sort.field,
      order: sort.order === 'DESC' ? 'desc' : 'asc',
    });
  return <ExportButton onExport={run} label={label} testId={testId} />;
}
