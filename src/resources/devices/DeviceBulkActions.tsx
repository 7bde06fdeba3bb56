import { useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import DriveFileMoveIcon from '@mui/icons-material/DriveFileMove';
import { useGetList, useListContext, useNotify, useTranslate } from 'react-admin';
import type { DeviceGroup } from '../../domain/device';
import { VirtualGroup } from '../../domain/deviceKinds';
import { Level } from '../../domain/levels';
import { useCallMutation, type Invalidates } from '../../data/dataHooks';
import { useClientState } from '../../state/useClientState';
import type { RowAction } from '../types';
import { canEditDevices } from './access';
import { SendCommandSelected } from './SendCommandSelected';

/** A pin, unpin or move changes the device lists and the groups (their counts). */
const INVALIDATES: Invalidates = { resources: ['system/deviceManagement', 'device/deviceData'], calls: [] };

/** The groups a device can be moved into: "Ungrouped Device" (0) and every real group (the device group resource's list). */
export function useGroupList(enabled = true) {
  return useGetList<DeviceGroup & { id: number }>(
    'device/deviceData',
    { pagination: { page: 1, perPage: 10_000 }, sort: { field: 'id', order: 'ASC' } },
    { staleTime: 5_000, enabled },
  );
}

/** What every bulk action does once its call succeeded: say so, untick the rows, tell the caller. */
function useDone(onChanged?: () => void) {
  const notify = useNotify();
  const { selectedIds, onUnselectItems } = useListContext();
  const ids = selectedIds.map(Number);
  const done = (message: string) => {
    notify(message, { type: 'success', messageArgs: { smart_count: ids.length } });
    onUnselectItems();
    onChanged?.();
  };
  return { ids, done };
}

type BulkProps = { onChanged?: () => void };

/** Pins the ticked devices into the caller's "Special Focus", or takes them out (every level). */
function PinSelected({ pin, onChanged }: BulkProps & { pin: boolean }) {
  const translate = useTranslate();
  const { ids, done } = useDone(onChanged);
  const { mutate, isPending } = useCallMutation('devices', pin ? 'pin' : 'unpin', INVALIDATES, {
    onSuccess: () => done(pin ? 'devices.groups.pinnedOk' : 'devices.groups.unpinnedOk'),
    onError: () => undefined,
  });
  return (
    <Button
      size="small"
      startIcon={pin ? <StarIcon /> : <StarBorderIcon />}
      disabled={isPending}
      onClick={() => mutate([ids])}
      data-testid={pin ? 'bulk-pin' : 'bulk-unpin'}
    >
      {translate(pin ? 'devices.groups.pin' : 'devices.groups.unpin')}
    </Button>
  );
}
export const PinSelectedButton = (props: BulkProps) => <PinSelected pin {...props} />;
export const UnpinSelectedButton = (props: BulkProps) => <PinSelected pin={false} {...props} />;

/** Moves the ticked devices into a group or out of every group (levels 1 and 2). */
export function MoveSelected({ onChanged }: BulkProps) {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const editor = canEditDevices(level);
  const { data: groups = [] } = useGroupList(editor);
  const { ids, done } = useDone(onChanged);
  const [target, setTarget] = useState<string>('');
  const { mutate, isPending } = useCallMutation('devices', 'moveDevices', INVALIDATES, {
    onSuccess: () => done('devices.groups.moved'),
    onError: () => undefined,
  });
  if (!editor) return null;
  const movable = groups.filter((g) => g.id !== VirtualGroup.SpecialFocus);
  return (
    <>
      <TextField
        select
        size="small"
        label={translate('devices.groups.moveTo')}
        value={target}
        onChange={(e) => setTarget(e.target.value)}
        sx={{ minWidth: 180, ml: 1 }}
        slotProps={{ htmlInput: { 'data-testid': 'bulk-move-target' } }}
      >
        {movable.map((g) => (
          <MenuItem key={g.id} value={String(g.id)}>
            {g.ownerName && level === Level.Admin ? `${g.name} (${g.ownerName})` : g.name}
          </MenuItem>
        ))}
      </TextField>
      <Button
        size="small"
        startIcon={<DriveFileMoveIcon />}
        disabled={target === '' || isPending}
        data-testid="bulk-move"
        onClick={() => mutate([Number(target), ids])}
      >
        {translate('devices.groups.move')}
      </Button>
    </>
  );
}

/** The device list's bulk actions (definition.bulkActions). */
export const DEVICE_BULK_ACTIONS: readonly RowAction[] = [
  { key: 'pin', component: PinSelectedButton },
  { key: 'unpin', component: UnpinSelectedButton },
  { key: 'move', component: MoveSelected },
  { key: 'command', component: SendCommandSelected },
];

/** The same actions with a callback (the device group page refreshes its own panel). */
export function DeviceBulkActions({ onChanged }: BulkProps) {
  return (
    <>
      <PinSelectedButton onChanged={onChanged} />
      <UnpinSelectedButton onChanged={onChanged} />
      <MoveSelected onChanged={onChanged} />
    </>
  );
}
