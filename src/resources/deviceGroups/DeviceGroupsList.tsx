import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import FolderIcon from '@mui/icons-material/Folder';
import FolderOffIcon from '@mui/icons-material/FolderOff';
import StarIcon from '@mui/icons-material/Star';
import { useQueryClient } from '@tanstack/react-query';
import { DataTable, List as RaList, Loading, Pagination, useCanAccess, useDelete, useGetList, useNotify } from 'react-admin';
import { useTranslate } from 'ra-core';
import type { Device, DeviceGroup } from '../../domain/device';
import { VirtualGroup } from '../../domain/deviceKinds';
import { Level } from '../../domain/levels';
import { useClientState } from '../../state/useClientState';
import { DeviceBulkActions } from '../devices/DeviceBulkActions';
import { DeviceKindName, DeviceStatusIcon } from '../devices/DeviceStatusIcon';
import { ActivationChip, PinToggle } from '../devices/DeviceList';
import { DATATABLE_SX, LIST_SX, PAGE_SIZES } from '../generic/listStyles';
import { GROUPS, GroupDialog } from './GroupDialog';
import { PageHeading } from '../generic/PageHeading';

const DEVICES = 'system/deviceManagement';

type GroupRecord = DeviceGroup & { id: number };

function GroupIcon({ group }: { group: DeviceGroup }) {
  if (group.id === VirtualGroup.SpecialFocus) return <StarIcon color="warning" />;
  if (group.id === VirtualGroup.Ungrouped) return <FolderOffIcon color="action" />;
  return <FolderIcon color="primary" />;
}

/** The devices of one group (or of a virtual one), with pin, unpin and move for the ticked rows. */
function GroupDevices({ group, onChanged }: { group: DeviceGroup; onChanged: () => void }) {
  const translate = useTranslate();
  return (
    <RaList
      resource={DEVICES}
      filter={{ groupId: group.id }}
      disableSyncWithLocation
      storeKey={`deviceGroup.${group.id}`}
      perPage={20}
      pagination={<Pagination rowsPerPageOptions={PAGE_SIZES} />}
      sort={{ field: 'id', order: 'ASC' }}
      actions={false}
      title={translate('devices.groups.title')}
      queryOptions={{ onError: () => undefined }}
      sx={LIST_SX}
      empty={
        <Typography sx={{ p: 2 }} color="text.secondary">
          {translate('devices.groups.empty')}
        </Typography>
      }
    >
      <DataTable rowClick={false} bulkActionButtons={<DeviceBulkActions onChanged={onChanged} />} sx={DATATABLE_SX}>
        <DataTable.Col
          source="status"
          label="deviceField.status"
          render={(r: Device) => <DeviceStatusIcon kind={r.deviceKind} status={r.status} size={24} />}
        />
        <DataTable.Col source="name" label="deviceField.name" />
        <DataTable.Col source="deviceNum" label="deviceField.deviceNum" disableSort />
        <DataTable.Col source="deviceKind" label="deviceField.deviceKind" render={(r: Device) => <DeviceKindName kind={r.deviceKind} />} />
        <DataTable.Col
          source="groupName"
          label="deviceField.groupName"
          disableSort
          render={(r: Device) => r.groupName ?? translate('deviceGroup.ungrouped')}
        />
        <DataTable.Col source="activated" label="deviceField.activated" render={(r: Device) => <ActivationChip record={r} />} />
        <DataTable.Col label="devices.list.pinned" disableSort render={() => <PinToggle />} />
      </DataTable>
    </RaList>
  );
}

/**
 * Live Monitor > Device Group (levels 1, 2, 3), the list view of the device/deviceData resource:
 * "Special Focus" (the caller's pins) and "Ungrouped Device" first, then the enterprise's groups
 * with their device counts (useGetList over deviceGroup/getGroupList); create and rename in a
 * dialog (useCreate/useUpdate), delete (useDelete; a group holding devices is refused by the
 * server with the catalogue's deletion error); the selected group's devices can be pinned,
 * unpinned and moved.
 */
export function DeviceGroupsList() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const level = useClientState((s) => s.permissionLevel);
  // The server's order (Special Focus, Ungrouped Device, then the groups by name): no sort field, so none is applied.
  const { data: groups, isPending } = useGetList<GroupRecord>(GROUPS, {
    pagination: { page: 1, perPage: 10_000 },
    sort: { field: '', order: 'ASC' },
  });
  const { canAccess: canCreate } = useCanAccess({ resource: GROUPS, action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource: GROUPS, action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: GROUPS, action: 'delete' });
  const [deleteOne] = useDelete<GroupRecord>();
  const [selectedId, setSelectedId] = useState<number>(VirtualGroup.Ungrouped);
  const [editing, setEditing] = useState<{ group: DeviceGroup | null } | null>(null);
  const [deleting, setDeleting] = useState<GroupRecord | null>(null);

  // The group list (this page's and the bulk "move to" menu's: the same resource) and the devices shown.
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: [GROUPS] });
    void queryClient.invalidateQueries({ queryKey: [DEVICES] });
  };
  const remove = async (group: GroupRecord) => {
    setDeleting(null);
    try {
      await deleteOne(GROUPS, { id: group.id, previousData: group }, { mutationMode: 'pessimistic', returnPromise: true });
      notify('devices.groups.deleted', { type: 'success' });
      if (selectedId === group.id) setSelectedId(VirtualGroup.Ungrouped);
      changed();
    } catch {
      /* refused (code 11: the group still holds devices) or not found: the catalogue shows the message */
    }
  };

  if (isPending) return <Loading />;
  const list = groups ?? [];
  const selected = list.find((g) => g.id === selectedId) ?? list.find((g) => g.id === VirtualGroup.Ungrouped) ?? list[0];
  const writable = (group: DeviceGroup) => !group.virtual && (canEdit || canDelete);

  return (
    <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', md: 'row' }, alignItems: 'flex-start' }} data-testid="device-groups">
      <PageHeading titleKey="menu.deviceData" />
      <Paper sx={{ width: { xs: '100%', md: 300 }, flexShrink: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', px: 2, pt: 1.5, pb: 0.5 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
            {translate('devices.groups.list')}
          </Typography>
          {canCreate && (
            <Button size="small" startIcon={<AddIcon />} onClick={() => setEditing({ group: null })} data-testid="group-add">
              {translate('devices.groups.add')}
            </Button>
          )}
        </Box>
        <List dense>
          {list.map((group) => (
            <ListItem
              key={group.id}
              disablePadding
              data-testid={`group-${group.id}`}
              secondaryAction={
                writable(group) ? (
                  <>
                    {canEdit && (
                      <Tooltip title={translate('devices.groups.rename')}>
                        <IconButton edge="end" size="small" onClick={() => setEditing({ group })} data-testid={`group-rename-${group.id}`}>
                          <EditIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    {canDelete && (
                      <Tooltip title={translate('devices.groups.delete')}>
                        <IconButton edge="end" size="small" onClick={() => setDeleting(group)} data-testid={`group-delete-${group.id}`}>
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                  </>
                ) : undefined
              }
            >
              <ListItemButton
                selected={selected?.id === group.id}
                onClick={() => setSelectedId(group.id)}
                sx={{ pr: writable(group) ? 10 : 2 }}
              >
                <ListItemIcon sx={{ minWidth: 36 }}>
                  <GroupIcon group={group} />
                </ListItemIcon>
                <ListItemText
                  primary={group.name}
                  secondary={[
                    translate('devices.groups.count', { smart_count: group.deviceCount }),
                    level === Level.Admin && group.ownerName ? group.ownerName : group.virtual ? translate('devices.groups.virtual') : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                  slotProps={{ primary: { noWrap: true } }}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Paper>
      <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>
        {selected && (
          <>
            <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }} data-testid="group-selected">
              {translate('devices.groups.devicesOf', { name: selected.name })}
            </Typography>
            <GroupDevices key={selected.id} group={selected} onChanged={changed} />
          </>
        )}
      </Box>
      <GroupDialog
        open={editing !== null}
        group={editing?.group ?? null}
        onClose={() => setEditing(null)}
        onSaved={(message) => {
          setEditing(null);
          notify(message, { type: 'success' });
          changed();
        }}
      />
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)} data-testid="group-delete-dialog">
        <DialogContent>{deleting && translate('devices.groups.confirmDelete', { name: deleting.name })}</DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>{translate('console.dialog.cancel')}</Button>
          <Button variant="contained" color="error" onClick={() => deleting && remove(deleting)} data-testid="group-delete-confirm">
            {translate('console.dialog.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
