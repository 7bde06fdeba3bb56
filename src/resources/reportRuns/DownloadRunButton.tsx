import { useState } from 'react';
import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { supportApi } from '../../api/supportApi';
import { REPORT_RUNS_NAME } from '../../domain/reports';

/** A finished run's "Download": its workbook, while it is kept. */
export function DownloadRunButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  if (!record || record.state !== 'done') return null;
  const save = async () => {
    setBusy(true);
    try {
      notify(await supportApi.downloadReportRun(Number(record.id)), { type: 'success' });
    } catch {
      /* the error catalogue shows it (a file no longer kept) */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" startIcon={<DownloadIcon />} disabled={busy} onClick={save} data-testid="report-run-download">
      {translate(`resources.${REPORT_RUNS_NAME}.download`)}
    </Button>
  );
}
