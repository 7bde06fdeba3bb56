import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import type { PendingReport } from '../../api/vesselApi';
import { useDateFormatter } from '../../format/useDateFormatter';
import { FieldGrid } from './FieldGrid';
import { formatSignal } from '../../format/signal';

/**
 * A device not activated: its newest report, kept awaiting activation (docs/api.md, GET /vessel/getDetail),
 * shown apart from the latest report, with its time and key fields. Nothing when it sent none.
 */
export function PendingReportNotice({ pending }: { pending: PendingReport | null | undefined }) {
  const t = useTranslate();
  const format = useDateFormatter();
  if (!pending) return null;
  const r = pending.report;
  const number = (v: number | null | undefined, decimals: number) => (typeof v === 'number' ? String(Number(v.toFixed(decimals))) : null);
  const items = [
    { label: t('vessel.detail.fields.reportedAt'), value: format(r.deviceTime) },
    { label: t('vessel.detail.fields.receivedAt'), value: format(pending.receivedAt) },
    { label: t('vessel.detail.fields.lat'), value: number(r.lat, 5) },
    { label: t('vessel.detail.fields.lon'), value: number(r.lon, 5) },
    { label: t('vessel.detail.fields.speed'), value: number(r.speed, 2) },
    { label: t('vessel.detail.fields.satelliteName'), value: r.satellite?.name },
    { label: t('vessel.detail.fields.signalLevel'), value: formatSignal(r.signalLevel) },
    { label: t('vessel.detail.fields.modemLock'), value: t(r.modemLock ? 'vessel.detail.yes' : 'vessel.detail.no') },
    { label: t('vessel.detail.pending.faults'), value: r.faults?.length ? r.faults.join(', ') : t('vessel.detail.noFaults') },
  ];
  return (
    <Alert severity="warning" data-testid="pending-report" sx={{ '& .MuiAlert-message': { flex: 1, minWidth: 0 } }}>
      <AlertTitle>{t('vessel.detail.pending.title')}</AlertTitle>
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        {t('vessel.detail.pending.text')}
      </Typography>
      <Box>
        <FieldGrid items={items} testId="pending-report-fields" />
      </Box>
    </Alert>
  );
}
