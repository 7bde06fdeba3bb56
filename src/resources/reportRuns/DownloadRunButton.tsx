import { useState } from 'react';
import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import Stack from '@mui/material/Stack';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { supportApi } from '../../api/supportApi';
import { REPORT_RUNS_NAME } from '../../domain/reports';

/** A finished run's downloads: its workbook and its PDF, while they are kept. */
export function DownloadRunButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  if (!record || record.state !== 'done') return null;
  const save = async (format: 'xlsx' | 'pdf') => {
    setBusy(true);
    try {
      notify(await supportApi.downloadReportRun(Number(record.id), format), { type: 'success' });
    } catch {
      /* the error catalogue shows it (a file no longer kept) */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction="row" spacing={0.5}>
      <Button size="small" startIcon={<DownloadIcon />} disabled={busy} onClick={() => save('xlsx')} data-testid="report-run-download">
        {translate(`resources.${REPORT_RUNS_NAME}.download`)}
      </Button>
      <Button size="small" startIcon={<PictureAsPdfIcon />} disabled={busy} onClick={() => save('pdf')} data-testid="report-run-pdf">
        {translate(`resources.${REPORT_RUNS_NAME}.downloadPdf`)}
      </Button>
    </Stack>
  );
}
