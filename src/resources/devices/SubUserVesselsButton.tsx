import { useEffect, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DirectionsBoatIcon from '@mui/icons-material/DirectionsBoat';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { devicesApi } from '../../api/devicesApi';
import { Level } from '../../domain/levels';
import type { User } from '../../domain/user';
import { DeviceStatusIcon } from './DeviceStatusIcon';
import { enterpriseVessels, matchVessel, toggleAll } from './vesselGrants';

type Vessel = Awaited<ReturnType<typeof enterpriseVessels>>[number];

/**
 * Row action of the user list, on sub-users (level 3) only: which of its enterprise's vessels the
 * sub-user may see (SPEC section 6), read from and saved to subUserGrant (the whole set at once).
 */
export function SubUserVesselsButton() {
  const record = useRecordContext<User & { parentName?: string | null }>();
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [vessels, setVessels] = useState<Vessel[] | null>(null);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [filter, setFilter] = useState('');
  const [saving, setSaving] = useState(false);
  const subUserId = record?.id;
  const parentId = record?.parentId;

  useEffect(() => {
    if (!open || !subUserId || !parentId) return;
    let live = true;
    setVessels(null);
    Promise.all([enterpriseVessels(parentId), devicesApi.subUserDeviceIds(subUserId)]).then(
      ([all, granted]) => {
        if (!live) return;
        setVessels(all);
        setChosen(new Set(granted));
      },
      () => live && setOpen(false),
    );
    return () => {
      live = false;
    };
  }, [open, subUserId, parentId]);

  const shown = useMemo(() => (vessels ?? []).filter((v) => matchVessel(v, filter)), [vessels, filter]);
  if (!record || record.permissionLevel !== Level.SubUser) return null;

  const save = async () => {
    setSaving(true);
    try {
      const { granted } = await devicesApi.setSubUserDevices(record.id, [...chosen]);
      notify('devices.grants.saved', { type: 'success', messageArgs: { smart_count: granted } });
      setOpen(false);
    } catch {
      /* shown by the catalogue */
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Button size="small" startIcon={<DirectionsBoatIcon />} onClick={() => setOpen(true)} data-testid={`vessels-${record.id}`}>{translate('devices.grants.button')}</Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" data-testid="vessels-dialog">
        <DialogTitle>{translate('devices.grants.title', { name: record.name })}</DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" sx={{ mb: 1 }}>{translate('devices.grants.hint', { parent: record.parentName ?? '' })}</Typography>
          {vessels === null ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}><CircularProgress size={28} /></Box>
          ) : vessels.length === 0 ? (
            <Typography color="text.secondary">{translate('devices.grants.none')}</Typography>
          ) : (
            <>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
                <TextField size="small" label={translate('devices.grants.filter')} value={filter} onChange={(e) => setFilter(e.target.value)} sx={{ flex: 1, minWidth: 180 }}
                  slotProps={{ htmlInput: { 'data-testid': 'vessels-filter' } }} />
                <Button size="small" onClick={() => setChosen(toggleAll(chosen, shown.map((v) => v.id), true))} data-testid="vessels-all">{translate('devices.grants.selectAll')}</Button>
                <Button size="small" onClick={() => setChosen(toggleAll(chosen, shown.map((v) => v.id), false))} data-testid="vessels-clear">{translate('devices.grants.clear')}</Button>
              </Box>
              <Typography variant="caption" color="text.secondary" data-testid="vessels-count">
                {translate('devices.grants.count', { selected: chosen.size, total: vessels.length })}
              </Typography>
              <Box sx={{ maxHeight: 360, overflow: 'auto', display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                {shown.map((v) => (
                  <FormControlLabel key={v.id} sx={{ mr: 0 }}
                    control={<Checkbox size="small" checked={chosen.has(v.id)} onChange={(e) => setChosen(toggleAll(chosen, [v.id], e.target.checked))} slotProps={{ input: { 'aria-label': v.name } }} />}
                    label={<Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}><DeviceStatusIcon kind={v.deviceKind} status={v.status} size={18} /><span>{v.name}</span></Box>} />
                ))}
              </Box>
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('console.dialog.cancel')}</Button>
          <Button variant="contained" onClick={save} disabled={saving || vessels === null} data-testid="vessels-save">{translate('console.action.save')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
