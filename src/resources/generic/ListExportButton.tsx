import { useState } from 'react';
import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import { useListContext, useNotify, useTranslate } from 'react-admin';
import { downloadFile } from '../../api/transfer';
import type { QueryValue } from '../../api';

/**
 * Exports what the list shows (its filters and sort) through the resource's export route; a
 * second export within 10 s is refused by the server (-101) and the error catalogue says so.
 */
export function ListExportButton({ path, label, testId }: { path: string; label: string; testId?: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { filterValues, sort } = useListContext();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const name = await downloadFile(path, {
        ...(filterValues as Record<string, QueryValue>),
        sort: sort.field,
        order: sort.order === 'DESC' ? 'desc' : 'asc',
      });
      notify(name, { type: 'success' });
    } catch {
      /* the catalogue shows it (-101: "Do not export data frequently...") */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" startIcon={<DownloadIcon />} disabled={busy} onClick={run} data-testid={testId}>
      {translate(label)}
    </Button>
  );
}
