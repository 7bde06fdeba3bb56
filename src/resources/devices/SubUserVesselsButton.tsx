import { useMemo, useState } from 'react';
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
import { useInfiniteGetList, useNotify, useRecordContext, useTranslate } from 'react-admin';
import type { Device } from '../../domain/device';
import { Level } from '../../domain/levels';
import type { User } from '../../domain/user';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import { DeviceStatusIcon } from './DeviceStatusIcon';
import { VESSEL_PAGE, matchVessel, toggleAll } from './vesselGrants';

type Vessel = Pick<Device, 'id' | 'name' | 'deviceNum' | 'deviceKind' | 'status'>;

/**
 * Row action of the user list, on sub-users (level 3) only: which of its enterprise's vessels the
 * sub-user may see (docs/requirements.md §6), read from and saved to subUserGrant (the whole set at once).
 * The vessels are the device resource's list filtered by the enterprise (a page of 500 at a time);
 * the grant is read and saved through dataProvider.call.
 */
export function SubUserVesselsButton() {
  const record = useRecordContext<User & { parentName?: string | null }>();
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  /** null: nothing changed yet, the granted set is shown. */
  const [edited, setEdited] = useState<Set<number> | null>(null);
  const [filter, setFilter] = useState('');
  const subUserId = record?.id;
  const parentId = record?.parentId;
  const active = open && Boolean(subUserId && parentId) && record?.permissionLevel === Level.SubUser;
  const pages = useInfiniteGetList<Vessel>(
    'system/deviceManagement',
    { filter: { ownerId: parentId }, sort: { field: 'name', order: 'ASC' }, pagination: { page: 1, perPage: VESSEL_PAGE } },
    { enabled: active, onError: () => undefined },
  );
  const granted = useCallQuery('devices', 'subUserDeviceIds', active && subUserId ? [Number(subUserId)] : null);
  // Of the granted vessels, those it may also send commands to.
  const commanding = useCallQuery('devices', 'subUserCommandDeviceIds', active && subUserId ? [Number(subUserId)] : null);
  const [editedCommands, setEditedCommands] = useState<Set<number> | null>(null);
  const save = useCallMutation(
    'devices',
    'setSubUserDevices',
    { resources: ['system/deviceManagement'], calls: ['devices'] },
    {
      onSuccess: ({ granted: count }) => {
        notify('devices.grants.saved', { type: 'success', messageArgs: { smart_count: count } });
        setOpen(false);
      },
      onError: () => undefined,
    },
  );

  const vessels = useMemo(
    () => (pages.data && granted.data && commanding.data ? pages.data.pages.flatMap((p) => p.data) : null),
    [pages.data, granted.data, commanding.data],
  );
  const commands = useMemo(() => editedCommands ?? new Set(commanding.data ?? []), [editedCommands, commanding.data]);
  const total = pages.data?.pages[0]?.total ?? vessels?.length ?? 0;
  const chosen = useMemo(() => edited ?? new Set(granted.data ?? []), [edited, granted.data]);
  const setChosen = (next: Set<number>) => setEdited(next);
  const shown = useMemo(() => (vessels ?? []).filter((v) => matchVessel(v, filter)), [vessels, filter]);
  const failed = pages.isError || granted.isError || commanding.isError;
  if (!record || record.permissionLevel !== Level.SubUser) return null;

  const openDialog = () => {
    setEdited(null);
    setEditedCommands(null);
    setFilter('');
    setOpen(true);
  };
  const store = () => save.mutate([Number(record.id), [...chosen], [...commands].filter((id) => chosen.has(id))]);

  return (
    <>
      <Button size="small" startIcon={<DirectionsBoatIcon />} onClick={openDialog} data-testid={`vessels-${record.id}`}>
        {translate('devices.grants.button')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" data-testid="vessels-dialog">
        <DialogTitle>{translate('devices.grants.title', { name: record.name })}</DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {translate('devices.grants.hint', { parent: record.parentName ?? '' })}
          </Typography>
          {failed ? (
            <Typography color="error">{translate('ra.notification.http_error')}</Typography>
          ) : vessels === null ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
              <CircularProgress size={28} />
            </Box>
          ) : vessels.length === 0 ? (
            <Typography color="text.secondary">{translate('devices.grants.none')}</Typography>
          ) : (
            <>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
                <TextField
                  size="small"
                  label={translate('devices.grants.filter')}
                  value={filter}
                  onChange={(e) => setFilter(e.target.value)}
                  sx={{ flex: 1, minWidth: 180 }}
                  slotProps={{ htmlInput: { 'data-testid': 'vessels-filter' } }}
                />
                <Button
                  size="small"
                  onClick={() =>
                    setChosen(
                      toggleAll(
                        chosen,
                        shown.map((v) => v.id),
                        true,
                      ),
                    )
                  }
                  data-testid="vessels-all"
                >
                  {translate('devices.grants.selectAll')}
                </Button>
                <Button
                  size="small"
                  onClick={() =>
                    setChosen(
                      toggleAll(
                        chosen,
                        shown.map((v) => v.id),
                        false,
                      ),
                    )
                  }
                  data-testid="vessels-clear"
                >
                  {translate('devices.grants.clear')}
                </Button>
              </Box>
              <Typography variant="caption" color="text.secondary" data-testid="vessels-count">
                {translate('devices.grants.count', { selected: chosen.size, total })}
              </Typography>
              <Box sx={{ maxHeight: 360, overflow: 'auto', display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                {shown.map((v) => (
                  <Box key={v.id} sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap' }}>
                    <FormControlLabel
                      sx={{ mr: 0.5 }}
                      control={
                        <Checkbox
                          size="small"
                          checked={chosen.has(v.id)}
                          onChange={(e) => setChosen(toggleAll(chosen, [v.id], e.target.checked))}
                          slotProps={{ input: { 'aria-label': v.name } }}
                        />
                      }
                      label={
                        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
                          <DeviceStatusIcon kind={v.deviceKind} status={v.status} size={18} />
                          <span>{v.name}</span>
                        </Box>
                      }
                    />
                    {chosen.has(v.id) && (
                      <FormControlLabel
                        sx={{ mr: 0, '& .MuiFormControlLabel-label': { fontSize: 12, color: 'text.secondary' } }}
                        control={
                          <Checkbox
                            size="small"
                            checked={commands.has(v.id)}
                            onChange={(e) => setEditedCommands(toggleAll(commands, [v.id], e.target.checked))}
                            data-testid={`vessel-commands-${v.id}`}
                          />
                        }
                        label={translate('commands.grantLabel')}
                      />
                    )}
                  </Box>
                ))}
              </Box>
              {pages.hasNextPage && (
                <Button
                  size="small"
                  disabled={pages.isFetchingNextPage}
                  onClick={() => void pages.fetchNextPage()}
                  data-testid="vessels-more"
                >
                  {translate('ra.navigation.next')}
                </Button>
              )}
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('console.dialog.cancel')}</Button>
          <Button variant="contained" onClick={store} disabled={save.isPending || vessels === null} data-testid="vessels-save">
            {translate('console.action.save')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
