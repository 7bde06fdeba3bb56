import { useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import DriveFileMoveIcon from '@mui/icons-material/DriveFileMove';
import { useQuery } from '@tanstack/react-query';
import { useListContext, useNotify, useRefresh, useTranslate } from 'react-admin';
import { devicesApi } from '../../api/devicesApi';
import { VirtualGroup } from '../../domain/deviceKinds';
import { Level } from '../../domain/levels';
import { useClientState } from '../../state/useClientState';
import { canEditDevices } from './access';

/** The groups a device can be moved into: "Ungrouped Device" (0) and every real group. */
export function useGroupList() {
  return useQuery({ queryKey: ['deviceGroupList'], queryFn: () => devicesApi.groupList(), staleTime: 5_000 });
}

/**
 * Actions on the ticked devices: pin into / unpin from the caller's "Special Focus" (every level),
 * move into a group or out of every group (levels 1 and 2).
 */
export function DeviceBulkActions({ onChanged }: { onChanged?: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const level = useClientState((s) => s.permissionLevel);
  const { selectedIds, onUnselectItems } = useListContext();
  const { data: groups = [], refetch } = useGroupList();
  const [target, setTarget] = useState<string>('');
  const ids = selectedIds.map(Number);

  const done = (message: string, count?: number) => {
    notify(message, { type: 'success', messageArgs: { smart_count: count ?? ids.length } });
    onUnselectItems();
    refresh();
    void refetch();
    onChanged?.();
  };
  const run = async (action: () => Promise<unknown>, message: string) => {
    try {
      await action();
      done(message);
    } catch {
      /* shown by the catalogue */
    }
  };
  const movable = groups.filter((g) => g.id !== VirtualGroup.SpecialFocus);
  return (
    <>
      <Button size="small" startIcon={<StarIcon />} onClick={() => run(() => devicesApi.pin(ids), 'devices.groups.pinnedOk')} data-testid="bulk-pin">
        {translate('devices.groups.pin')}
      </Button>
      <Button size="small" startIcon={<StarBorderIcon />} onClick={() => run(() => devicesApi.unpin(ids), 'devices.groups.unpinnedOk')} data-testid="bulk-unpin">
        {translate('devices.groups.unpin')}
      </Button>
      {canEditDevices(level) && (
        <>
          <TextField select size="small" label={translate('devices.groups.moveTo')} value={target} onChange={(e) => setTarget(e.target.value)}
            sx={{ minWidth: 180, ml: 1 }} slotProps={{ htmlInput: { 'data-testid': 'bulk-move-target' } }}>
            {movable.map((g) => <MenuItem key={g.id} value={String(g.id)}>{g.ownerName && level === Level.Admin ? `${g.name} (${g.ownerName})` : g.name}</MenuItem>)}
          </TextField>
          <Button size="small" startIcon={<DriveFileMoveIcon />} disabled={target === ''} data-testid="bulk-move"
            onClick={() => run(() => devicesApi.moveDevices(Number(target), ids), 'devices.groups.moved')}>
            {translate('devices.groups.move')}
          </Button>
        </>
      )}
    </>
  );
}
