import { lazy, Suspense, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import { Confirm, useLocaleState, useNotify } from 'react-admin';
import { useTranslate } from 'ra-core';
import type { DataUsage } from '../../api/dataPlansApi';
import { useCallMutation, useCallQuery, type Invalidates } from '../../data/dataHooks';
import { dataPlanSchema, formatBytes, GB } from '../../domain/dataPlans';
import { canEditDevices } from '../../domain/levels';
import { validate } from '../../domain/validate';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useClientState } from '../../state/useClientState';
import { LoadState } from './LoadState';

const DataUsageCharts = lazy(() => import('./DataUsageCharts'));

/** A plan change moves the usage, the alarms (list, bell) and the vessel page. */
const PLAN_CHANGE: Invalidates = { calls: ['dataPlans', 'monitoring', 'vessel'] };
const LEVEL_COLOUR = { 0: 'success', 80: 'warning', 100: 'error' } as const;
const LEVEL_NAME = { 0: 'normal', 80: 'over80', 100: 'over100' } as const;
const utcDate = (iso: string) => iso.slice(0, 10);

/**
 * The vessel's data usage (docs/api.md, "dataPlan"): this period's usage against its plan with a progress
 * bar, daily and cumulative charts, and the plan dialog for levels 1 and 2 (a sub-user reads).
 * Without a plan: an empty state and the month's usage.
 */
export function DataUsageSection({ deviceId }: { deviceId: number }) {
  const t = useTranslate();
  const format = useDateFormatter();
  const [locale] = useLocaleState();
  const canEdit = canEditDevices(useClientState((s) => s.permissionLevel));
  const state = useCallQuery('dataPlans', 'getUsage', [deviceId]);
  const [editing, setEditing] = useState(false);
  const u = state.data;
  const bytes = (v: number) => formatBytes(v, locale);

  return (
    <Paper sx={{ p: 2 }} data-testid="data-usage-section">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
          {t('dataPlans.title')}
        </Typography>
        {canEdit && u && (
          <Button
            size="small"
            variant={u.plan ? 'outlined' : 'contained'}
            startIcon={<EditIcon />}
            onClick={() => setEditing(true)}
            data-testid="data-plan-edit"
          >
            {t(u.plan ? 'dataPlans.editPlan' : 'dataPlans.setPlan')}
          </Button>
        )}
      </Stack>
      <LoadState state={state} />
      {u && (
        <Stack spacing={1.5}>
          {u.plan && u.quotaBytes ? (
            <Box data-testid="data-usage-summary" data-level={u.level}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                <Typography sx={{ fontWeight: 500 }} data-testid="data-usage-used">
                  {t('dataPlans.used', { used: bytes(u.usedBytes), quota: bytes(u.quotaBytes) })}
                </Typography>
                <Chip
                  size="small"
                  color={LEVEL_COLOUR[u.level as 0 | 80 | 100] ?? 'default'}
                  label={`${t('dataPlans.percent', { percent: u.percent ?? 0 })} · ${t(`dataPlans.level.${LEVEL_NAME[u.level as 0 | 80 | 100] ?? 'normal'}`)}`}
                />
              </Stack>
              <LinearProgress
                variant="determinate"
                value={Math.min(100, u.percent ?? 0)}
                color={LEVEL_COLOUR[u.level as 0 | 80 | 100] ?? 'primary'}
                aria-label={t('dataPlans.progress')}
                aria-valuetext={`${u.percent ?? 0} %`}
                sx={{ height: 10, borderRadius: 5, my: 1 }}
                data-testid="data-usage-progress"
              />
              <Typography variant="body2" color="text.secondary">
                {t('dataPlans.period', { from: utcDate(u.periodStart), to: utcDate(u.periodEnd) })} ·{' '}
                {t('dataPlans.resetDay', { day: u.plan.resetDay })}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('dataPlans.previous', { used: bytes(u.previous.usedBytes) })}
                {u.plan.updatedByName && <> · {t('dataPlans.updatedBy', { name: u.plan.updatedByName, at: format(u.plan.updatedAt) })}</>}
              </Typography>
            </Box>
          ) : (
            <Alert severity="info" data-testid="data-plan-empty">
              {t(canEdit ? 'dataPlans.noPlan' : 'dataPlans.noPlanReadOnly')}
              <Box sx={{ mt: 0.5 }}>{t('dataPlans.usedNoPlan', { used: bytes(u.usedBytes) })}</Box>
            </Alert>
          )}
          {u.daily.some((d) => d.bytes > 0) ? (
            <Suspense fallback={<LinearProgress aria-label={t('ra.page.loading')} />}>
              <DataUsageCharts usage={u} locale={locale} />
            </Suspense>
          ) : (
            <Typography color="text.secondary" data-testid="data-usage-no-data">
              {t('dataPlans.chart.empty')}
            </Typography>
          )}
        </Stack>
      )}
      {editing && u && <DataPlanDialog usage={u} onClose={() => setEditing(false)} />}
    </Paper>
  );
}

/** The form's text: GB as typed (decimals allowed) and the reset day. */
interface Draft {
  quotaGb: string;
  resetDay: string;
}

/** Field errors as the user types: the domain's plan rule over the typed values (GB turned into bytes). */
function draftErrors(deviceId: number, draft: Draft): Record<string, string> {
  const gb = draft.quotaGb.trim() === '' ? undefined : Number(draft.quotaGb);
  const day = draft.resetDay.trim() === '' ? undefined : Number(draft.resetDay);
  const result = validate(dataPlanSchema, {
    deviceId,
    quotaBytes: gb === undefined || Number.isNaN(gb) ? (gb === undefined ? undefined : 'x') : Math.round(gb * GB),
    resetDay: day === undefined || Number.isNaN(day) ? (day === undefined ? undefined : 'x') : day,
  });
  return result.ok ? {} : Object.fromEntries(result.errors.map((e) => [e.field, e.message]));
}

function DataPlanDialog({ usage, onClose }: { usage: DataUsage; onClose: () => void }) {
  const t = useTranslate();
  const notify = useNotify();
  const [draft, setDraft] = useState<Draft>({
    quotaGb: usage.plan ? String(Math.round((usage.plan.quotaBytes / GB) * 1000) / 1000) : '',
    resetDay: String(usage.plan?.resetDay ?? 1),
  });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [confirmRemove, setConfirmRemove] = useState(false);
  const save = useCallMutation('dataPlans', 'setPlan', PLAN_CHANGE);
  const remove = useCallMutation('dataPlans', 'removePlan', PLAN_CHANGE);
  const errors = draftErrors(usage.deviceId, draft);
  const invalid = Object.keys(errors).length > 0;
  const shown = (field: 'quotaBytes' | 'resetDay') => (touched[field] && errors[field] ? t(errors[field]) : undefined);
  const submit = () => {
    setTouched({ quotaBytes: true, resetDay: true });
    if (invalid) return;
    save.mutate([{ deviceId: usage.deviceId, quotaBytes: Math.round(Number(draft.quotaGb) * GB), resetDay: Number(draft.resetDay) }], {
      onSuccess: () => {
        notify('dataPlans.saved', { type: 'success' });
        onClose();
      },
    });
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="data-plan-dialog-title">
      <DialogTitle id="data-plan-dialog-title">{t('dataPlans.dialog.title')}</DialogTitle>
      <DialogContent>
        <Stack
          spacing={2}
          sx={{ pt: 1 }}
          component="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <TextField
            label={t('dataPlans.dialog.quota')}
            value={draft.quotaGb}
            onChange={(e) => {
              setDraft((d) => ({ ...d, quotaGb: e.target.value }));
              setTouched((x) => ({ ...x, quotaBytes: true }));
            }}
            inputMode="decimal"
            autoFocus
            required
            error={Boolean(shown('quotaBytes'))}
            helperText={shown('quotaBytes') ?? t('dataPlans.dialog.quotaHelp')}
            slotProps={{ htmlInput: { 'data-testid': 'data-plan-quota', inputMode: 'decimal' } }}
          />
          <TextField
            label={t('dataPlans.dialog.resetDay')}
            value={draft.resetDay}
            onChange={(e) => {
              setDraft((d) => ({ ...d, resetDay: e.target.value }));
              setTouched((x) => ({ ...x, resetDay: true }));
            }}
            required
            error={Boolean(shown('resetDay'))}
            helperText={shown('resetDay') ?? t('dataPlans.dialog.resetDayHelp')}
            slotProps={{ htmlInput: { 'data-testid': 'data-plan-reset-day', inputMode: 'numeric' } }}
          />
          <button type="submit" hidden />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap' }}>
        {usage.plan && (
          <Button
            color="error"
            onClick={() => setConfirmRemove(true)}
            disabled={remove.isPending}
            data-testid="data-plan-remove"
            sx={{ mr: 'auto' }}
          >
            {t('dataPlans.removePlan')}
          </Button>
        )}
        <Button onClick={onClose}>{t('dataPlans.dialog.cancel')}</Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={save.isPending || (invalid && Object.keys(touched).length > 0)}
          data-testid="data-plan-save"
        >
          {t('dataPlans.dialog.save')}
        </Button>
      </DialogActions>
      <Confirm
        isOpen={confirmRemove}
        title="dataPlans.removePlan"
        content="dataPlans.removeConfirm"
        onClose={() => setConfirmRemove(false)}
        onConfirm={() =>
          remove.mutate([usage.deviceId], {
            onSuccess: () => {
              notify('dataPlans.removed', { type: 'success' });
              setConfirmRemove(false);
              onClose();
            },
          })
        }
      />
    </Dialog>
  );
}
