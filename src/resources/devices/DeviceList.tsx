import { useState } from 'react';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Button from '@mui/material/Button';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import DownloadIcon from '@mui/icons-material/Download';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  CreateButton, DataTable, DeleteWithConfirmButton, EditButton, FilterButton, List, Pagination, SearchInput, SelectInput, TextInput, TopToolbar,
  useListContext, useNotify, useRecordContext, useRefresh, useTranslate, type RaRecord,
} from 'react-admin';
import { devicesApi } from '../../api/devicesApi';
import type { QueryValue } from '../../api';
import { DEVICE_KIND_LABELS, DEVICE_KINDS, DEVICE_STATES, DEVICE_STATE_KEYS } from '../../domain/deviceKinds';
import type { Device } from '../../domain/device';
import { Level } from '../../domain/levels';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useClientState } from '../../state/useClientState';
import { DeviceStatusIcon } from './DeviceStatusIcon';
import { DeviceBulkActions } from './DeviceBulkActions';
import { ImportDialog } from './ImportDialog';
import { canEditDevices } from './access';
import { useOwnerTree } from './useOwnerTree';
import { DATATABLE_SX, LIST_SX, PAGE_SIZES } from '../generic/listStyles';

/** The layout is at least as wide as its content (react-admin: min-width fit-content); a zero base width makes the table scroll inside the page instead, so the toolbar stays in view. */

function useDeviceFilters() {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const { owners } = useOwnerTree(level !== Level.SubUser);
  const subUsers = owners.flatMap((o) => o.children.map((c) => ({ id: c.id, name: owners.length > 1 ? `${c.name} (${o.name})` : c.name })));
  return [
    <SearchInput key="search" source="search" alwaysOn placeholder={translate('devices.list.search')} sx={{ minWidth: 240 }} />,
    <SelectInput key="deviceKind" source="deviceKind" label="deviceField.deviceKind" alwaysOn choices={DEVICE_KINDS.map((id) => ({ id, name: DEVICE_KIND_LABELS[id] }))} />,
    <SelectInput key="status" source="status" label="deviceField.status" alwaysOn choices={DEVICE_STATES.map((s) => ({ id: String(s), name: translate(DEVICE_STATE_KEYS[s]) }))} />,
    <SelectInput key="activated" source="activated" label="deviceField.activated" alwaysOn
      choices={[{ id: 'true', name: translate('activation.activated') }, { id: 'false', name: translate('activation.notActivated') }]} />,
    <TextInput key="deviceType" source="deviceType" label="deviceField.deviceType" />,
    ...(level === Level.Admin ? [<SelectInput key="ownerId" source="ownerId" label="deviceField.ownerId" choices={owners} optionText="name" />] : []),
    ...(level !== Level.SubUser ? [<SelectInput key="ownerSubId" source="ownerSubId" label="deviceField.ownerSubId" choices={subUsers} optionText="name" />] : []),
  ];
}

function ExportButtons() {
  const translate = useTranslate();
  const notify = useNotify();
  const { filterValues, sort } = useListContext();
  const [busy, setBusy] = useState(false);
  const run = async (format: 'csv' | 'xlsx') => {
    setBusy(true);
    try {
      const query: Record<string, QueryValue> = { ...(filterValues as Record<string, QueryValue>), sort: sort.field, order: sort.order === 'DESC' ? 'desc' : 'asc' };
      const name = await devicesApi.exportDevices(format, query);
      notify('devices.list.exported', { type: 'success', messageArgs: { name } });
    } catch {
      /* the catalogue shows it (-101: "Do not export data frequently...") */
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="small" startIcon={<DownloadIcon />} disabled={busy} onClick={() => run('csv')} data-testid="export-csv">{translate('devices.list.exportCsv')}</Button>
      <Button size="small" startIcon={<DownloadIcon />} disabled={busy} onClick={() => run('xlsx')} data-testid="export-xlsx">{translate('devices.list.exportXlsx')}</Button>
    </>
  );
}

function ListActions() {
  const level = useClientState((s) => s.permissionLevel);
  const editor = canEditDevices(level);
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      <FilterButton />
      {editor && <CreateButton />}
      {editor && <ImportDialog />}
      <ExportButtons />
    </TopToolbar>
  );
}

/** Star: in the caller's "Special Focus" or not; a click pins or unpins. */
export function PinToggle() {
  const record = useRecordContext<Device & RaRecord>();
  const translate = useTranslate();
  const refresh = useRefresh();
  if (!record) return null;
  const toggle = async () => {
    try {
      await (record.pinned ? devicesApi.unpin([record.id]) : devicesApi.pin([record.id]));
      refresh();
    } catch {
      /* shown by the catalogue */
    }
  };
  const label = translate(record.pinned ? 'devices.groups.unpin' : 'devices.groups.pin');
  return (
    <Tooltip title={label}>
      <IconButton size="small" onClick={toggle} aria-label={label} data-testid={`pin-${record.id}`} color={record.pinned ? 'warning' : 'default'}>
        {record.pinned ? <StarIcon fontSize="small" /> : <StarBorderIcon fontSize="small" />}
      </IconButton>
    </Tooltip>
  );
}

export function ActivationChip({ record }: { record: Device }) {
  const translate = useTranslate();
  const format = useDateFormatter();
  const chip = <Chip size="small" variant="outlined" color={record.activated ? 'success' : 'default'} label={translate(record.activated ? 'activation.activated' : 'activation.notActivated')} />;
  return record.activated && record.activatedAt ? <Tooltip title={format(record.activatedAt)}>{chip}</Tooltip> : chip;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/**
 * The list's pagination; past the server's exact-count threshold the total is an estimate
 * (meta.totalEstimated) and reads "1-20 of about 47,000".
 */
function DevicePagination() {
  const translate = useTranslate();
  const { meta } = useListContext();
  const estimated = Boolean((meta as { totalEstimated?: boolean } | undefined)?.totalEstimated);
  const label = ({ from, to, count }: { from: number; to: number; count: number }) =>
    translate('devices.list.rangeAbout', { from, to, count: count.toLocaleString() });
  return <Pagination rowsPerPageOptions={PAGE_SIZES} {...(estimated ? { labelDisplayedRows: label } : {})} />;
}

/** System > Device: status icons, filters, sort, paging, export, import, pins; edit/delete for levels 1 and 2. */
export function DeviceList() {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const editor = canEditDevices(level);
  const filters = useDeviceFilters();
  return (
    <List
      title={translate('devices.list.title')}
      filters={filters}
      perPage={20} pagination={<DevicePagination />}
      sort={{ field: 'id', order: 'ASC' }}
      actions={<ListActions />}
      queryOptions={{ onError: () => undefined }} sx={LIST_SX}
      empty={false}
    >
      <DataTable rowClick={false} bulkActionButtons={<DeviceBulkActions />}
        sx={DATATABLE_SX}>
        <DataTable.Col source="status" label="deviceField.status" render={(r: Device) => <DeviceStatusIcon kind={r.deviceKind} status={r.status} />} />
        <DataTable.Col source="name" label="deviceField.name" />
        <DataTable.Col source="deviceNum" label="deviceField.deviceNum" disableSort />
        <DataTable.Col source="deviceSn" label="deviceField.deviceSn" disableSort />
        <DataTable.Col source="deviceKind" label="deviceField.deviceKind" render={(r: Device) => DEVICE_KIND_LABELS[r.deviceKind] ?? r.deviceKind} />
        <DataTable.Col source="deviceType" label="deviceField.deviceType" />
        {level !== Level.Enterprise && level !== Level.SubUser && <DataTable.Col source="ownerId" label="deviceField.ownerId" render={(r: Device) => text(r.ownerName)} />}
        <DataTable.Col source="ownerSubName" label="deviceField.ownerSubId" disableSort render={(r: Device) => text(r.ownerSubName)} />
        <DataTable.Col source="activated" label="deviceField.activated" render={(r: Device) => <ActivationChip record={r} />} />
        <DataTable.Col source="groupName" label="deviceField.groupName" disableSort render={(r: Device) => text(r.groupName)} />
        <DataTable.Col source="mac" label="deviceField.mac" disableSort />
        <DataTable.Col source="mmsi" label="deviceField.mmsi" disableSort />
        <DataTable.Col label="console.table.actions" disableSort render={() => (
          <span style={{ display: 'inline-flex', gap: 4, alignItems: 'center' }}>
            <PinToggle />
            {editor ? <EditButton /> : <EditButton label="devices.list.show" icon={<VisibilityIcon />} />}
            {editor && <DeleteWithConfirmButton mutationMode="pessimistic" mutationOptions={{ onError: () => undefined }} titleTranslateOptions={{ name: translate('devices.list.title') }} contentTranslateOptions={{ name: translate('devices.list.title') }} />}
          </span>
        )} />
      </DataTable>
    </List>
  );
}
