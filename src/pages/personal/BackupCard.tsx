import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import BackupIcon from '@mui/icons-material/Backup';
import { useNotify } from 'react-admin';
import { useTranslate } from 'ra-core';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import {
  BACKUP_KEEP_MAX,
  BACKUP_KEEP_MIN,
  backupSettingsSchema,
  type BackupSettings,
  type BackupStatus,
} from '../../domain/backupSettings';
import { validate } from '../../domain/validate';
import { timeZoneLabel } from '../../format/date';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useClientState } from '../../state/useClientState';
import { K, RecentRuns, RunDetails, Term } from './BackupRuns';

/** How often the status is read while a backup runs. */
export const BACKUP_POLL_MS = 2000;
const RECENT = 5;
const RESTORE_COMMAND = 'npm run restore FILE';

/**
 * The database's backups on the Theme page (level 1; docs/api.md "backup"): the nightly backup's
 * settings, "Back up now" (the status is polled every 2 s while a backup runs), the last result and
 * the last few runs, where the backups are kept and how to restore one.
 */
export function BackupCard() {
  const t = useTranslate();
  const status = useCallQuery('support', 'backupStatus', [], {
    background: 'polled',
    refetchInterval: (query) => (query.state.data?.running ? BACKUP_POLL_MS : false),
  });
  if (!status.data) return status.isPending ? <LinearProgress aria-label={t(`${K}.title`)} /> : null;
  const { settings, runs, folder, engine } = status.data;
  const [restoreBefore, restoreAfter] = t(`${K}.restoreHint`, { command: '\u0000' }).split('\u0000');
  return (
    <Stack spacing={2} data-testid="backup-card">
      <Box
        sx={{ display: 'grid', gap: { xs: 2, md: 4 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' } }}
      >
        <BackupSettingsForm key={`${settings.nightly}-${settings.hourUtc}-${settings.keepCount}`} initial={settings} />
        <LastBackup status={status.data} />
      </Box>
      {runs.length > 1 && <RecentRuns runs={runs.slice(0, RECENT)} />}
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.5 }}>
        <Term>{t(`${K}.folder`)}</Term>
        <Box component="dd" sx={{ m: 0, fontSize: 13, overflowWrap: 'anywhere' }} data-testid="backup-folder">
          {/* A path reads the same in every language: code, as the restore command below. */}
          <Box component="code" sx={{ fontFamily: 'monospace' }}>
            {folder}
          </Box>
        </Box>
        <Term>{t(`${K}.engine`)}</Term>
        <Box component="dd" sx={{ m: 0, fontSize: 14 }}>
          {t(`${K}.engines.${engine}`)}
        </Box>
      </Box>
      <Typography variant="body2" color="text.secondary" data-testid="backup-restore-hint">
        {restoreBefore}
        <Box component="code" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap', bgcolor: 'action.hover', px: 0.5, borderRadius: 0.5 }}>
          {RESTORE_COMMAND}
        </Box>
        {restoreAfter}
      </Typography>
    </Stack>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

function BackupSettingsForm({ initial }: { initial: BackupSettings }) {
  const t = useTranslate();
  const notify = useNotify();
  const timeZone = useClientState((s) => s.timeZone);
  const [nightly, setNightly] = useState(initial.nightly);
  const [hour, setHour] = useState(String(initial.hourUtc));
  const [keep, setKeep] = useState(String(initial.keepCount));
  const save = useCallMutation(
    'support',
    'updateBackupSettings',
    { calls: ['support'] },
    {
      onSuccess: () => notify(t('support.preference.saved'), { type: 'success' }),
    },
  );
  // Checked as the user types: each field shows its own message in the user's language.
  const checked = validate(backupSettingsSchema, {
    nightly,
    hourUtc: hour.trim() === '' ? undefined : Number(hour),
    keepCount: keep.trim() === '' ? undefined : Number(keep),
  });
  const errors: Record<string, string> = checked.ok ? {} : Object.fromEntries(checked.errors.map((e) => [e.field, e.message]));
  const changed = nightly !== initial.nightly || hour !== String(initial.hourUtc) || keep !== String(initial.keepCount);
  // The hour in the console's time zone, unless that is UTC.
  const hourHint = errors.hourUtc
    ? t(errors.hourUtc)
    : timeZone !== 0 &&
      t(`${K}.hourHint`, { local: `${pad((((Number(hour) + timeZone) % 24) + 24) % 24)}:00`, zone: timeZoneLabel(timeZone) });
  return (
    <Stack
      spacing={2}
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (checked.ok) save.mutate([checked.value]);
      }}
    >
      <FormControlLabel
        control={<Switch checked={nightly} onChange={(e) => setNightly(e.target.checked)} />}
        label={t(`${K}.nightly`)}
        data-testid="backup-nightly"
      />
      <TextField
        type="number"
        label={t(`${K}.hour`)}
        value={hour}
        onChange={(e) => setHour(e.target.value)}
        error={Boolean(errors.hourUtc)}
        helperText={hourHint}
        slotProps={{ htmlInput: { min: 0, max: 23, step: 1, 'data-testid': 'backup-hour' } }}
      />
      <TextField
        type="number"
        label={t(`${K}.keep`)}
        value={keep}
        onChange={(e) => setKeep(e.target.value)}
        error={Boolean(errors.keepCount)}
        helperText={errors.keepCount ? t(errors.keepCount) : t(`${K}.keepHint`)}
        slotProps={{ htmlInput: { min: BACKUP_KEEP_MIN, max: BACKUP_KEEP_MAX, step: 1, 'data-testid': 'backup-keep' } }}
      />
      <Box>
        <Button type="submit" variant="contained" disabled={!checked.ok || !changed || save.isPending} data-testid="backup-save">
          {t('support.preference.save')}
        </Button>
      </Box>
    </Stack>
  );
}

function LastBackup({ status }: { status: BackupStatus }) {
  const t = useTranslate();
  const format = useDateFormatter();
  const run = useCallMutation('support', 'runBackup', { calls: ['support'] });
  const last = status.runs[0];
  return (
    <Stack spacing={1.5} sx={{ minWidth: 0, borderTop: { xs: 1, md: 0 }, borderColor: { xs: 'divider' }, pt: { xs: 2, md: 0 } }}>
      <Box>
        <Button
          variant="outlined"
          startIcon={<BackupIcon />}
          onClick={() => run.mutate([])}
          disabled={Boolean(status.running) || run.isPending}
          data-testid="backup-run"
        >
          {t(`${K}.runNow`)}
        </Button>
      </Box>
      {status.running && (
        <Box data-testid="backup-progress">
          <LinearProgress aria-label={t(`${K}.running`, { time: format(status.running.startedAt) })} />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {t(`${K}.running`, { time: format(status.running.startedAt) })}
          </Typography>
        </Box>
      )}
      <Typography variant="subtitle2">{t(`${K}.last`)}</Typography>
      {last ? (
        <RunDetails run={last} />
      ) : (
        <Typography variant="body2" color="text.secondary" data-testid="backup-none">
          {t(`${K}.none`)}
        </Typography>
      )}
    </Stack>
  );
}
