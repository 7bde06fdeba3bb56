import { useEffect, useMemo, useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AssignmentIcon from '@mui/icons-material/Assignment';
import { useGetList, useGetOne, useNotify } from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ActiveAlarm, FaultGuide, FaultRecord, VesselItem } from '../../api/supportApi';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import { faultClearingRecordSchema } from '../../domain/faultClearing';
import { canAccessPage } from '../../navigation/access';
import { validate } from '../../domain/validate';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useTranslate } from 'ra-core';
import { useClientState } from '../../state/useClientState';

const SEVERITY_COLOR = { critical: 'error', major: 'warning', minor: 'info' } as const;
const AFTER_SALES = '/service/afterService';

const DEVICES = 'system/deviceManagement';

/** The text typed last, once typing has paused for `ms`. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The vessels matching what is typed (the device list's search), online ones first. */
function VesselPicker({ value, onChange }: { value: VesselItem | null; onChange: (v: VesselItem | null) => void }) {
  const t = useTranslate();
  const [text, setText] = useState('');
  const search = useSettled(text, 250);
  const { data, isFetching } = useGetList<VesselItem>(DEVICES, { filter: { search }, pagination: { page: 1, perPage: 50 }, sort: { field: 'status', order: 'DESC' } }, { placeholderData: keepPreviousData });
  const options = data ?? [];
  const loading = isFetching || search !== text;
  return (
    <Autocomplete
      value={value}
      options={value && !options.some((o) => o.id === value.id) ? [value, ...options] : options}
      loading={loading}
      getOptionLabel={(o) => `${o.name}${o.deviceNum ? ` (${o.deviceNum})` : ''}`}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(x) => x}
      onChange={(_, v) => onChange(v)}
      onInputChange={(_, typed, reason) => reason === 'input' && setText(typed)}
      renderInput={(params) => <TextField {...params} label={t('support.fault.pickVessel')} placeholder={t('support.fault.pickVesselHint')} slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'fc-vessel' } }} />}
      sx={{ minWidth: 260, flex: 1 }}
    />
  );
}

function CodeChips({ guide, active, selected, onPick }: { guide: FaultGuide[]; active: ActiveAlarm[]; selected: string | null; onPick: (code: string) => void }) {
  const t = useTranslate();
  const language = useClientState((s) => s.language);
  const activeCodes = new Set(active.map((a) => a.code));
  const ordered = [...guide.filter((g) => activeCodes.has(g.code)), ...guide.filter((g) => !activeCodes.has(g.code))];
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75 }}>
      {ordered.map((g) => (
        <Chip
          key={g.code}
          data-testid={`fc-code-${g.code}`}
          label={activeCodes.has(g.code) ? `${g.code} ●` : g.code}
          title={g.meaning[language]}
          color={activeCodes.has(g.code) ? SEVERITY_COLOR[g.severity] : selected === g.code ? 'primary' : 'default'}
          variant={selected === g.code ? 'filled' : 'outlined'}
          onClick={() => onPick(g.code)}
          aria-label={`${t('support.fault.code')} ${g.code}`}
        />
      ))}
    </Stack>
  );
}

function History({ records }: { records: FaultRecord[] | null }) {
  const t = useTranslate();
  const format = useDateFormatter();
  if (!records) return null;
  if (!records.length) return <Typography variant="body2" color="text.secondary">{t('support.fault.noHistory')}</Typography>;
  return (
    <Box sx={{ overflowX: 'auto', contain: 'inline-size' }}>
      <Table size="small" data-testid="fc-history">
        <TableHead>
          <TableRow>
            <TableCell>{t('support.fault.time')}</TableCell>
            <TableCell>{t('support.fault.code')}</TableCell>
            <TableCell>{t('support.fault.action')}</TableCell>
            <TableCell>{t('support.fault.stepsDone')}</TableCell>
            <TableCell>{t('support.fault.result')}</TableCell>
            <TableCell>{t('support.fault.recordedBy')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {records.map((r) => (
            <TableRow key={r.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{format(r.createdAt)}</TableCell>
              <TableCell>{r.code}</TableCell>
              <TableCell sx={{ minWidth: 200 }}>{r.action}</TableCell>
              <TableCell>{r.stepsDone.map((i) => i + 1).join(', ')}</TableCell>
              <TableCell><Chip size="small" color={r.cleared ? 'success' : 'default'} label={t(r.cleared ? 'support.fault.cleared' : 'support.fault.notCleared')} /></TableCell>
              <TableCell>{r.recordedByName ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** What was done for one fault of one vessel (the page remounts it for another fault or vessel). */
function RecordForm({ vessel, fault }: { vessel: VesselItem | null; fault: FaultGuide }) {
  const t = useTranslate();
  const language = useClientState((s) => s.language);
  const notify = useNotify();
  const [done, setDone] = useState<number[]>([]);
  const [action, setAction] = useState('');
  const [cleared, setCleared] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Refetches the vessel's history; a refusal is shown by the catalogue.
  const add = useCallMutation('support', 'addFaultRecord', { calls: ['support'] }, {
    onSuccess: () => {
      notify(t('support.fault.saved'), { type: 'success' });
      setAction('');
      setDone([]);
    },
  });
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
      <Typography variant="subtitle2" sx={{ mt: 2, fontWeight: 600 }}>{t('support.fault.steps')}</Typography>
      <List dense disablePadding data-testid="fc-steps">
        {fault.steps.map((step, i) => (
          <ListItem key={i} disableGutters>
            <ListItemIcon sx={{ minWidth: 36 }}>
              <Checkbox edge="start" size="small" checked={done.includes(i)} onChange={() => toggle(i)} disabled={!vessel} slotProps={{ input: { 'aria-label': `${i + 1}` } }} />
            </ListItemIcon>
            <ListItemText primary={`${i + 1}. ${step[language]}`} />
          </ListItem>
        ))}
      </List>
      <Typography variant="subtitle2" sx={{ mt: 1, fontWeight: 600 }}>{t('support.fault.record')}</Typography>
      {!vessel ? (
        <Alert severity="info" sx={{ mt: 1 }}>{t('support.fault.needVessel')}</Alert>
      ) : (
        <Stack spacing={1} sx={{ mt: 1 }}>
          <Typography variant="body2" color="text.secondary">{t('support.fault.recordHint')}</Typography>
          <TextField label={t('support.fault.action')} value={action} onChange={(e) => setAction(e.target.value)} multiline minRows={2} required
            error={Boolean(errors.action)} helperText={errors.action ? t(errors.action) : ' '} slotProps={{ htmlInput: { 'data-testid': 'fc-action', maxLength: 2000 } }} />
          <FormControlLabel control={<Switch checked={cleared} onChange={(e) => setCleared(e.target.checked)} data-testid="fc-cleared" />} label={t('support.fault.cleared')} />
          <Box><Button variant="contained" onClick={save} disabled={add.isPending} data-testid="fc-save">{t('support.fault.save')}</Button></Box>
        </Stack>
      )}
    </>
  );
}

/**
 * Support > Troubleshooting (/service/faultClearing, levels 1-3): the fault codes of
 * docs/requirements.md §8 as a guide. Pick a vessel (its active faults first, from the alarm API) or a code;
 * see its meaning, unit, severity and steps; record what was done in the vessel's history; an
 * admin can start an after-sales report from the fault. ?deviceId= and ?code= open one directly.
 */
export default function FaultClearingPage() {
  const t = useTranslate();
  const language = useClientState((s) => s.language);
  const navigate = useNavigate();
  const format = useDateFormatter();
  const level = useClientState((s) => s.permissionLevel);
  const [params, setParams] = useSearchParams();
  const code = params.get('code');
  const deviceId = Number(params.get('deviceId')) || null;
  const guideQuery = useCallQuery('support', 'faultGuide', []);
  const guide = guideQuery.data ?? null;
  // The vessel of ?deviceId= is read; one picked here shows until it is.
  const [picked, setPicked] = useState<VesselItem | null>(null);
  const { data: read } = useGetOne<VesselItem>(DEVICES, { id: deviceId! }, { enabled: deviceId !== null });
  const vessel = deviceId === null ? null : read?.id === deviceId ? read : picked?.id === deviceId ? picked : null;
  const alarms = useCallQuery('support', 'activeAlarms', deviceId ? [deviceId] : null);
  const active: ActiveAlarm[] = (deviceId && alarms.data?.list) || [];
  const history = useCallQuery('support', 'faultRecords', deviceId ? [{ deviceId, pageSize: 50 }] : null);
  // A failed read shows an empty history.
  const records: FaultRecord[] | null = deviceId ? (history.data?.list ?? (history.isError ? [] : null)) : null;
  // A vessel alone opens its first active fault.
  const firstActive = alarms.data?.list[0]?.code;
  useEffect(() => {
    if (deviceId && firstActive && !params.get('code')) setParams((p) => { p.set('code', firstActive); return p; }, { replace: true });
  }, [deviceId, firstActive]); // eslint-disable-line react-hooks/exhaustive-deps

  const fault = useMemo(() => guide?.find((g) => g.code === code) ?? null, [guide, code]);
  const alarm = active.find((a) => a.code === code);
  const set = (key: string, value: string | null) => setParams((p) => { if (value) p.set(key, value); else p.delete(key); return p; });
  const pickVessel = (v: VesselItem | null) => {
    setPicked(v);
    setParams((p) => { if (v) p.set('deviceId', String(v.id)); else p.delete('deviceId'); p.delete('code'); return p; });
  };
  const startReport = () => {
    if (!fault) return;
    const source = {
      DeviceModel: vessel?.deviceModel ?? '', DeviceSn: vessel?.deviceSn ?? '', DeviceNum: vessel?.deviceNum ?? '', Customer: vessel?.ownerName ?? '',
      Classification: 'hardware', Description: t('support.fault.reportDescription', { code: fault.code, meaning: fault.meaning[language] }),
      deviceId: vessel?.id ?? null, faultCode: fault.code,
    };
    navigate(`${AFTER_SALES}/create?source=${encodeURIComponent(JSON.stringify(source))}`);
  };

  // The page's one h1, also above a load error.
  const heading = <Typography variant="h6" component="h1" sx={{ mb: 2 }}>{t('support.fault.title')}</Typography>;
  if (guideQuery.isError) return <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="fault-clearing">{heading}<Alert severity="error">{t('support.fault.loadError')}</Alert></Box>;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="fault-clearing">
      {heading}
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Paper variant="outlined" sx={{ p: 2, width: { xs: '100%', lg: 380 }, flexShrink: 0, boxSizing: 'border-box' }}>
          <VesselPicker value={vessel} onChange={pickVessel} />
          {vessel && (
            <Box sx={{ mt: 2 }}>
              <Typography variant="subtitle2" sx={{ fontWeight: 600 }}>{t('support.fault.activeFaults')}</Typography>
              {active.length === 0
                ? <Typography variant="body2" color="text.secondary">{t('support.fault.noActiveFaults')}</Typography>
                : active.map((a) => (
                  <Typography key={a.id} variant="body2" sx={{ cursor: 'pointer' }} onClick={() => set('code', a.code)}>
                    <b>{a.code}</b> · {guide?.find((g) => g.code === a.code)?.meaning[language]} · {format(a.raisedAt)}
                  </Typography>
                ))}
            </Box>
          )}
          <Typography variant="subtitle2" sx={{ mt: 2, mb: 1, fontWeight: 600 }}>{vessel ? t('support.fault.allCodes') : t('support.fault.orCode')}</Typography>
          {guide && <CodeChips guide={guide} active={active} selected={code} onPick={(c) => set('code', c)} />}
        </Paper>
        <Paper variant="outlined" sx={{ p: 2, flex: 1, width: '100%', boxSizing: 'border-box', minWidth: 0 }}>
          {!fault ? (
            <Typography color="text.secondary" data-testid="fc-empty">{t('support.fault.detailHint')}</Typography>
          ) : (
            <Box data-testid="fc-detail">
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
                <Typography variant="h5" component="span" sx={{ fontWeight: 700 }}>{fault.code}</Typography>
                <Chip size="small" color={SEVERITY_COLOR[fault.severity]} label={`${t('support.fault.severity')}: ${t(`support.severity.${fault.severity}`)}`} />
                <Chip size="small" variant="outlined" label={`${t('support.fault.unit')}: ${t(`support.unit.${fault.unit}`)}`} />
                {alarm && <Chip size="small" variant="outlined" label={`${t('support.fault.raisedAt')}: ${format(alarm.raisedAt)}`} />}
              </Stack>
              <Typography variant="subtitle1" sx={{ mt: 1 }} data-testid="fc-meaning">{fault.meaning[language]}</Typography>
              {fault.contactManufacturer && <Alert severity="error" sx={{ mt: 1 }} data-testid="fc-contact">{t('support.fault.contactManufacturer')}</Alert>}
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>{t('support.fault.remedy')}: {fault.remedy[language]}</Typography>
              <RecordForm key={`${fault.code}:${vessel?.id ?? ''}`} vessel={vessel} fault={fault} />
              {canAccessPage(level, AFTER_SALES) && (
                <Button sx={{ mt: 2 }} variant="outlined" startIcon={<AssignmentIcon />} onClick={startReport} data-testid="fc-start-report">{t('support.fault.startReport')}</Button>
              )}
            </Box>
          )}
          {vessel && (
            <Box sx={{ mt: 3 }}>
              <Typography variant="subtitle2" sx={{ mb: 1, fontWeight: 600 }}>{t('support.fault.history')}</Typography>
              <History records={records} />
            </Box>
          )}
        </Paper>
      </Stack>
    </Box>
  );
}
