import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useNotify } from 'react-admin';
import { useTranslate } from 'ra-core';
import type { FaultGuide, FaultRecordAlarms, VesselItem } from '../../api/supportApi';
import { useCallMutation } from '../../data/dataHooks';
import { faultClearingRecordSchema } from '../../domain/faultClearing';
import { validate } from '../../domain/validate';
import { useClientState } from '../../state/useClientState';

/** What a saved record says about the vessel's alarms of its code: acknowledged, or why not. */
function savedMessage(t: (key: string, args?: Record<string, unknown>) => string, code: string, alarms: FaultRecordAlarms | undefined) {
  if (alarms?.acknowledged.length) return t('support.fault.savedAcknowledged', { code });
  if (alarms?.reason === 'noActiveAlarm') return t('support.fault.savedNoAlarm', { code });
  if (alarms?.reason === 'alreadyAcknowledged')
    return t('support.fault.savedAlreadyAcknowledged', { code, name: alarms.ackedByName ?? '' });
  return t('support.fault.saved');
}

/**
 * What was done for one fault of one vessel (the page remounts it for another fault or vessel).
 * The guide's "start an after-sales report" step carries `report.node` (the button for those who
 * may raise one, the locked-feature notice for the others), whose text then says to contact the
 * service provider.
 */
export function FaultRecordForm({
  vessel,
  fault,
  report,
}: {
  vessel: VesselItem | null;
  fault: FaultGuide;
  report: { allowed: boolean; node: ReactNode };
}) {
  const t = useTranslate();
  const language = useClientState((s) => s.language);
  const notify = useNotify();
  const [done, setDone] = useState<number[]>([]);
  const [action, setAction] = useState('');
  const [cleared, setCleared] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Refetches the vessel's history and active faults, and (an alarm acknowledged) the monitoring
  // calls: the bell, the monitor, the alarm list; a refusal is shown by the catalogue.
  const add = useCallMutation(
    'support',
    'addFaultRecord',
    { calls: ['support', 'monitoring', 'vessel'] },
    {
      onSuccess: (saved) => {
        notify(savedMessage(t, fault.code, saved.alarms), { type: saved.alarms?.acknowledged.length ? 'success' : 'info' });
        setAction('');
        setDone([]);
      },
    },
  );
  const toggle = (i: number) => setDone((d) => (d.includes(i) ? d.filter((x) => x !== i) : [...d, i].sort((a, b) => a - b)));
  const save = () => {
    if (!vessel) return;
    const checked = validate(faultClearingRecordSchema, { deviceId: vessel.id, code: fault.code, stepsDone: done, action, cleared });
    if (!checked.ok) return setErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    setErrors({});
    add.mutate([checked.value]);
  };
  return (
    <>
      <Typography variant="subtitle2" sx={{ mt: 2, fontWeight: 600 }}>
        {t('support.fault.steps')}
      </Typography>
      <List dense disablePadding data-testid="fc-steps">
        {fault.steps.map((step, i) => {
          const isReport = i === fault.reportStep;
          // Those who may not raise a report are sent to their service provider instead.
          const text = isReport && !report.allowed ? t('support.fault.reportLocked') : step[language];
          return (
            <ListItem key={i} disableGutters sx={{ flexWrap: 'wrap' }} data-testid={isReport ? 'fc-report-step' : undefined}>
              <ListItemIcon sx={{ minWidth: 36 }}>
                <Checkbox
                  edge="start"
                  size="small"
                  checked={done.includes(i)}
                  onChange={() => toggle(i)}
                  disabled={!vessel}
                  slotProps={{ input: { 'aria-label': `${i + 1}` } }}
                />
              </ListItemIcon>
              <ListItemText primary={`${i + 1}. ${text}`} sx={{ flex: '1 1 0', minWidth: 0 }} />
              {isReport && report.node && <Box sx={{ flexBasis: '100%', pl: '36px', pb: 1 }}>{report.node}</Box>}
            </ListItem>
          );
        })}
      </List>
      <Typography variant="subtitle2" sx={{ mt: 1, fontWeight: 600 }}>
        {t('support.fault.record')}
      </Typography>
      {!vessel ? (
        <Alert severity="info" sx={{ mt: 1 }}>
          {t('support.fault.needVessel')}
        </Alert>
      ) : (
        <Stack spacing={1} sx={{ mt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t('support.fault.recordHint')}
          </Typography>
          <TextField
            label={t('support.fault.action')}
            value={action}
            onChange={(e) => setAction(e.target.value)}
            multiline
            minRows={2}
            required
            error={Boolean(errors.action)}
            helperText={errors.action ? t(errors.action) : ' '}
            slotProps={{ htmlInput: { 'data-testid': 'fc-action', maxLength: 2000 } }}
          />
          <FormControlLabel
            control={<Switch checked={cleared} onChange={(e) => setCleared(e.target.checked)} data-testid="fc-cleared" />}
            label={t('support.fault.cleared')}
          />
          <Box>
            <Button variant="contained" onClick={save} disabled={add.isPending} data-testid="fc-save">
              {t('support.fault.save')}
            </Button>
          </Box>
        </Stack>
      )}
    </>
  );
}
