import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useNotify } from 'react-admin';
import type { ReactNode } from 'react';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import {
  KEEP_DAYS_MAX,
  OFFLINE_MINUTES_MAX,
  OFFLINE_MINUTES_MIN,
  SIZES,
  WARN_REFRESH_MAX,
  WARN_REFRESH_MIN,
  consoleSettingsSchema,
  keepDaysRule,
  offlineMinutesRule,
  type Size,
} from '../../domain/systemSettings';
import { validate } from '../../domain/validate';
import { useTranslate } from 'ra-core';
import { PalettePicker } from '../../layout/PalettePicker';
import { HOME_BACKGROUNDS, LOGIN_BACKGROUNDS } from '../../pictures/backgrounds';
import { applyConsoleSettings, setBackground, setSize, useBackground, type BackgroundKind } from '../../state/preferences';
import { useClientState } from '../../state/useClientState';
import { BackupCard } from './BackupCard';

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {hint}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

function Backgrounds({ kind }: { kind: BackgroundKind }) {
  const t = useTranslate();
  const chosen = useBackground(kind);
  const pictures = kind === 'login' ? LOGIN_BACKGROUNDS : HOME_BACKGROUNDS;
  return (
    <Box role="radiogroup" sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(110px, 1fr))' }}>
      {pictures.map((picture, i) => (
        <ButtonBase
          key={i}
          role="radio"
          aria-checked={chosen === i + 1}
          aria-label={t('support.preference.background', { n: i + 1 })}
          data-testid={`bg-${kind}-${i + 1}`}
          onClick={() => setBackground(kind, i + 1)}
          sx={{
            display: 'block',
            borderRadius: 1,
            overflow: 'hidden',
            border: 2,
            borderColor: chosen === i + 1 ? 'primary.main' : 'divider',
          }}
        >
          <Box sx={{ height: 62, backgroundImage: picture, backgroundSize: 'cover', backgroundPosition: 'center' }} />
          <Box sx={{ fontSize: 12, py: 0.25 }}>{t('support.preference.background', { n: i + 1 })}</Box>
        </ButtonBase>
      ))}
    </Box>
  );
}

/**
 * The bell interval and default size (every user's, kept by the server) and the default offline
 * threshold: the form starts from the server's values once both are read (a failed read leaves
 * the field empty); a save refetches both.
 */
function SystemSettings() {
  const t = useTranslate();
  const settings = useCallQuery('support', 'settings', []);
  const monitor = useCallQuery('support', 'monitorSettings', []);
  if (settings.isPending || monitor.isPending) return <Section title={t('support.preference.serverSettings')}>{null}</Section>;
  const initial = {
    seconds: settings.data ? String(settings.data.warnRefreshSeconds) : '',
    defaultSize: settings.data?.defaultSize ?? 'mini',
    offline: monitor.data ? String(monitor.data.defaultOfflineMinutes) : '',
    keepDays: monitor.data ? String(monitor.data.reportKeepDays) : '',
  };
  return <SystemSettingsForm initial={initial} />;
}

function SystemSettingsForm({ initial }: { initial: { seconds: string; defaultSize: Size; offline: string; keepDays: string } }) {
  const t = useTranslate();
  const notify = useNotify();
  const [seconds, setSeconds] = useState(initial.seconds);
  const [offline, setOffline] = useState(initial.offline);
  const [keepDays, setKeepDays] = useState(initial.keepDays);
  const [defaultSize, setDefaultSize] = useState<Size>(initial.defaultSize);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The console settings are read by every page (the bell, the monitor); the offline threshold by the monitor.
  const updateSettings = useCallMutation('support', 'updateSettings', { calls: ['support'] }, { onSuccess: applyConsoleSettings });
  const updateMonitor = useCallMutation('support', 'updateMonitorSettings', { calls: ['support', 'monitoring'] });
  const save = async () => {
    const minutes = Number(offline);
    const checked = validate(consoleSettingsSchema, { warnRefreshSeconds: seconds === '' ? undefined : Number(seconds), defaultSize });
    const next: Record<string, string> = checked.ok ? {} : Object.fromEntries(checked.errors.map((e) => [e.field, e.message]));
    if (
      !offlineMinutesRule()
        .required()
        .isValidSync(offline === '' ? undefined : minutes)
    )
      next.offline = 'validation.offlineMinutes';
    if (
      !keepDaysRule()
        .required()
        .isValidSync(keepDays === '' ? undefined : Number(keepDays))
    )
      next.keepDays = 'validation.keepDays';
    setErrors(next);
    if (!checked.ok || next.offline || next.keepDays) return;
    try {
      await updateSettings.mutateAsync([checked.value]);
      await updateMonitor.mutateAsync([{ defaultOfflineMinutes: minutes, reportKeepDays: Number(keepDays) }]);
      notify(t('support.preference.saved'), { type: 'success' });
    } catch {
      /* shown by the catalogue */
    }
  };
  return (
    <Section title={t('support.preference.serverSettings')}>
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        <TextField
          type="number"
          label={t('support.preference.warnRefresh')}
          value={seconds}
          onChange={(e) => setSeconds(e.target.value)}
          error={Boolean(errors.warnRefreshSeconds)}
          helperText={errors.warnRefreshSeconds ? t(errors.warnRefreshSeconds) : t('support.preference.warnRefreshHint')}
          slotProps={{ htmlInput: { min: WARN_REFRESH_MIN, max: WARN_REFRESH_MAX, 'data-testid': 'pref-warn-refresh' } }}
        />
        <TextField
          type="number"
          label={t('support.preference.offline')}
          value={offline}
          onChange={(e) => setOffline(e.target.value)}
          error={Boolean(errors.offline)}
          helperText={errors.offline ? t(errors.offline) : t('support.preference.offlineHint')}
          slotProps={{ htmlInput: { min: OFFLINE_MINUTES_MIN, max: OFFLINE_MINUTES_MAX, 'data-testid': 'pref-offline' } }}
        />
        <TextField
          type="number"
          label={t('support.preference.reportKeepDays')}
          value={keepDays}
          onChange={(e) => setKeepDays(e.target.value)}
          error={Boolean(errors.keepDays)}
          helperText={errors.keepDays ? t(errors.keepDays) : t('support.preference.reportKeepDaysHint')}
          slotProps={{ htmlInput: { min: 1, max: KEEP_DAYS_MAX, 'data-testid': 'pref-report-keep-days' } }}
        />
        <Box>
          <Typography variant="body2" sx={{ mb: 0.5 }}>
            {t('support.preference.size')}
          </Typography>
          <RadioGroup row value={defaultSize} onChange={(e) => setDefaultSize(e.target.value as Size)}>
            {SIZES.map((s) => (
              <FormControlLabel key={s} value={s} control={<Radio />} label={t(`support.preference.sizes.${s}`)} />
            ))}
          </RadioGroup>
        </Box>
        <Box>
          <Button
            variant="contained"
            onClick={() => void save()}
            disabled={updateSettings.isPending || updateMonitor.isPending}
            data-testid="pref-save"
          >
            {t('support.preference.save')}
          </Button>
        </Box>
      </Stack>
    </Section>
  );
}

/**
 * My Setting > Theme (/personal/preference, level 1): the eight palettes, the six login and six
 * home backgrounds, this browser's size, the system settings every user gets, and the database's backups.
 */
export default function PreferencePage() {
  const t = useTranslate();
  const size = useClientState((s) => s.size);
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1100 }} data-testid="preference-page">
      <Typography variant="h6" component="h1">
        {t('support.preference.title')}
      </Typography>
      <Section title={t('support.preference.theme')} hint={t('support.preference.themeHint')}>
        <PalettePicker />
      </Section>
      <Section title={t('support.preference.size')} hint={t('support.preference.sizeHint')}>
        <RadioGroup row value={size} onChange={(e) => setSize(e.target.value as Size)} data-testid="pref-size">
          {SIZES.map((s) => (
            <FormControlLabel key={s} value={s} control={<Radio />} label={t(`support.preference.sizes.${s}`)} />
          ))}
        </RadioGroup>
      </Section>
      <Section title={t('support.preference.loginBackground')}>
        <Backgrounds kind="login" />
      </Section>
      <Section title={t('support.preference.homeBackground')}>
        <Backgrounds kind="home" />
      </Section>
      <SystemSettings />
      <Section title={t('support.preference.backup.title')} hint={t('support.preference.backup.hint')}>
        <BackupCard />
      </Section>
    </Stack>
  );
}
