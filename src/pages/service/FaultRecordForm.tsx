import { useState } from 'react';
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
import type { FaultGuide, VesselItem } from '../../api/supportApi';
import { useCallMutation } from '../../data/dataHooks';
import { faultClearingRecordSchema } from '../../domain/faultClearing';
import { validate } from '../../domain/validate';
import { useClientState } from '../../state/useClientState';

/** What was done for one fault of one vessel (the page remounts it for another fault or vessel). */
export function FaultRecordForm({ vessel, fault }: { vessel: VesselItem | null; fault: FaultGuide }) {
  const t = useTranslate();
  const language = useClientState((s) => s.language);
  const notify = useNotify();
  const [done, setDone] = useState<number[]>([]);
  const [action, setAction] = useState('');
  const [cleared, setCleared] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Refetches the vessel's history; a refusal is shown by the catalogue.
  const add = useCallMutation(
    'support',
    'addFaultRecord',
    { calls: ['support'] },
    {
      onSuccess: () => {
        notify(t('support.fault.saved'), { type: 'success' });
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
        {fault.steps.map((step, i) => (
          <ListItem key={i} disableGutters>
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
            <ListItemText primary={`${i + 1}. ${step[language]}`} />
          </ListItem>
        ))}
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
