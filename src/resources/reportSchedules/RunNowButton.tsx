import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useCallMutation } from '../../data/dataHooks';
import { REPORT_RUNS_NAME, REPORT_SCHEDULES_NAME } from '../../domain/reports';

const WORDS = `resources.${REPORT_SCHEDULES_NAME}.runNow`;

/**
 * A schedule's "Run now": over its last complete period, or over a past range of days in its zone.
 * The run goes on in the server; the runs list (Reports > Runs) shows how it went.
 */
export function RunNowButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const { mutateAsync: runNow, isPending } = useCallMutation('support', 'runReportNow', { resources: [REPORT_RUNS_NAME] });
  if (!record) return null;
  const onlyOne = !from !== !to;
  const run = async () => {
    try {
      const { runIds } = await runNow([Number(record.id), from && to ? { from, to } : undefined]);
      notify(translate(`${WORDS}.started`, { id: runIds.join(', ') }), { type: 'success' });
      setOpen(false);
    } catch {
      /* the error catalogue shows it (a bad range names its field) */
    }
  };
  return (
    <>
      <Button size="small" startIcon={<PlayArrowIcon />} onClick={() => setOpen(true)} data-testid="report-run-now">
        {translate(`${WORDS}.action`)}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>{translate(`${WORDS}.title`, { name: String(record.name ?? '') })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {translate(`${WORDS}.intro`)}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              type="date"
              label={translate(`${WORDS}.from`)}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'report-run-from' } }}
              fullWidth
            />
            <TextField
              type="date"
              label={translate(`${WORDS}.to`)}
              value={to}
              onChange={(e) => setTo(e.target.value)}
              error={onlyOne}
              helperText={onlyOne ? translate(`${WORDS}.both`) : ' '}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'report-run-to' } }}
              fullWidth
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" disabled={isPending || onlyOne} onClick={run} data-testid="report-run-confirm">
            {translate(`${WORDS}.confirm`)}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
