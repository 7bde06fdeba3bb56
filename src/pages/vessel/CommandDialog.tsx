import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useForm } from 'react-hook-form';
import { useTranslate } from 'ra-core';
import {
  commandSchema,
  isDisruptive,
  REPORT_INTERVAL_MAX_S,
  REPORT_INTERVAL_MIN_S,
  COMMAND_DEADLINE_MAX_MIN,
  COMMAND_DEADLINE_MIN_MIN,
  type CommandInput,
  type CommandKind,
} from '../../domain/commands';
import { SATELLITES } from '../../domain/satellites';
import { errorData } from '../../data/dataProvider';
import { domainResolver, serverFieldErrors } from './domainResolver';

interface CommandForm {
  satellite: string;
  seconds: string;
  deadlineMinutes: string;
}
/** Form fields and the API body's field names (the server answers errors by the body's names). */
const BODY_FIELD: Record<keyof CommandForm, string> = {
  satellite: 'params.satellite',
  seconds: 'params.seconds',
  deadlineMinutes: 'deadlineMinutes',
};

/** The body of command/add from the form: only the kind's own parameters; '' is "not given". */
export function commandBody(deviceId: number, kind: CommandKind, v: Partial<CommandForm>): CommandInput {
  const params =
    kind === 'repoint'
      ? { satellite: v.satellite ?? '' }
      : kind === 'setInterval'
        ? { seconds: v.seconds === '' || v.seconds === undefined ? undefined : Number(v.seconds) }
        : {};
  return { deviceId, kind, params, deadlineMinutes: v.deadlineMinutes ? Number(v.deadlineMinutes) : undefined } as CommandInput;
}

/**
 * The dialog of a command that needs a word from the operator: a confirmation for the disruptive
 * ones (reboot, re-point: the vessel's link drops), the satellite to re-point to, the interval to
 * set. Checked as typed with the domain's command schema (the server's); sent by `onSend`.
 */
export function CommandDialog({
  kind,
  deviceId,
  deviceName,
  currentSatellite,
  onClose,
  onSend,
}: {
  kind: CommandKind | null;
  deviceId: number;
  deviceName: string;
  currentSatellite?: string | null;
  onClose: () => void;
  onSend: (body: CommandInput) => Promise<void>;
}) {
  const fullScreen = useMediaQuery('(max-width:600px)');
  return (
    <Dialog open={kind !== null} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="command-dialog-title">
      {kind && (
        <Form
          kind={kind}
          deviceId={deviceId}
          deviceName={deviceName}
          currentSatellite={currentSatellite}
          onClose={onClose}
          onSend={onSend}
        />
      )}
    </Dialog>
  );
}

function Form({
  kind,
  deviceId,
  deviceName,
  currentSatellite,
  onClose,
  onSend,
}: {
  kind: CommandKind;
  deviceId: number;
  deviceName: string;
  currentSatellite?: string | null;
  onClose: () => void;
  onSend: (body: CommandInput) => Promise<void>;
}) {
  const t = useTranslate();
  const toBody = (v: CommandForm) => commandBody(deviceId, kind, v);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<CommandForm>({
    mode: 'onChange',
    resolver: async (values, context, options) => {
      const result = await domainResolver<CommandForm>(commandSchema, toBody)(values, context, options);
      // The schema names params.satellite / params.seconds; the inputs are satellite / seconds.
      const errs = Object.fromEntries(
        Object.entries(result.errors).map(([field, e]) => [Object.entries(BODY_FIELD).find(([, b]) => b === field)?.[0] ?? field, e]),
      );
      return { values: result.values, errors: errs } as typeof result;
    },
    defaultValues: {
      satellite: SATELLITES.some((s) => s.name === currentSatellite) ? currentSatellite! : '',
      seconds: '',
      deadlineMinutes: '',
    },
  });
  const submit = handleSubmit(async (values) => {
    try {
      await onSend(toBody(values));
    } catch (error) {
      for (const e of serverFieldErrors(errorData(error))) {
        const field = (Object.entries(BODY_FIELD).find(([, b]) => b === e.field)?.[0] ?? 'deadlineMinutes') as keyof CommandForm;
        setError(field, { type: 'server', message: e.message });
      }
    }
  });
  const message = (f: keyof CommandForm) => (errors[f]?.message ? t(String(errors[f]!.message)) : undefined);
  const disruptive = isDisruptive(kind);

  return (
    <form
      noValidate
      onSubmit={(e) => {
        void submit(e);
      }}
      data-testid="command-form"
    >
      <DialogTitle id="command-dialog-title">
        {t('commands.dialogTitle', { kind: t(`commands.kind.${kind}`), name: deviceName })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {disruptive && (
            <Alert severity="warning" data-testid="command-confirm-text">
              {t(kind === 'reboot' ? 'commands.confirmReboot' : 'commands.confirmRepoint', { name: deviceName })}
            </Alert>
          )}
          {kind === 'repoint' && (
            <TextField
              select
              id="command-satellite"
              label={t('commands.satellite')}
              required
              size="small"
              value={watch('satellite')}
              onChange={(e) => setValue('satellite', e.target.value, { shouldValidate: true })}
              error={!!message('satellite')}
              helperText={message('satellite')}
              slotProps={{ htmlInput: { 'data-testid': 'command-satellite' } }}
            >
              {SATELLITES.map((s) => (
                <MenuItem key={s.name} value={s.name} data-testid={`satellite-${s.name}`}>
                  {s.name} ({t('commands.longitude', { longitude: s.longitude })})
                </MenuItem>
              ))}
            </TextField>
          )}
          {kind === 'setInterval' && (
            <TextField
              {...register('seconds')}
              id="command-seconds"
              type="number"
              label={t('commands.seconds')}
              required
              size="small"
              error={!!message('seconds')}
              helperText={message('seconds') ?? t('commands.secondsHint')}
              slotProps={{
                htmlInput: {
                  min: REPORT_INTERVAL_MIN_S,
                  max: REPORT_INTERVAL_MAX_S,
                  step: 1,
                  inputMode: 'numeric',
                  'data-testid': 'command-seconds',
                },
              }}
            />
          )}
          <TextField
            {...register('deadlineMinutes')}
            id="command-deadline"
            type="number"
            label={t('commands.deadlineMinutes')}
            size="small"
            error={!!message('deadlineMinutes')}
            helperText={message('deadlineMinutes') ?? t('commands.deadlineHint')}
            slotProps={{
              htmlInput: {
                min: COMMAND_DEADLINE_MIN_MIN,
                max: COMMAND_DEADLINE_MAX_MIN,
                step: 1,
                inputMode: 'numeric',
                'data-testid': 'command-deadline',
              },
            }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('vessel.form.cancel')}</Button>
        <Button
          type="submit"
          variant="contained"
          color={disruptive ? 'warning' : 'primary'}
          disabled={isSubmitting}
          data-testid="command-send"
        >
          {t(isSubmitting ? 'commands.sending' : 'commands.send')}
        </Button>
      </DialogActions>
    </form>
  );
}
