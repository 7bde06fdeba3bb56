import { useState } from 'react';
import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import { useNotify, useTranslate } from 'react-admin';

/**
 * Saves a list's export (docs/api.md, "Exports"): `onExport` downloads it through the page's API
 * module and answers the file's name. A refusal (-101: a second export within 10 s) is shown by the
 * error catalogue, not here.
 */
export function ExportButton({
  onExport,
  label = 'console.action.export',
  testId,
}: {
  onExport: () => Promise<string>;
  label?: string;
  testId?: string;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      notify(await onExport(), { type: 'success' });
    } catch {
      /* the catalogue shows it */
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
