import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Button from '@mui/material/Button';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import DownloadIcon from '@mui/icons-material/Download';
import VisibilityIcon from '@mui/icons-material/Visibility';
import type { ReactNode } from 'react';
import {
  CreateButton,
  DataTable,
  DeleteWithConfirmButton,
  EditButton,
  FilterButton,
  List,
  Pagination,
  SearchInput,
  SelectInput,
  TextInput,
  TopToolbar,
  useListContext,
  useNotify,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import type { QueryValue } from '../../api';
import type { Device } from '../../domain/device';
import { Level } from '../../domain/levels';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useCallMutation, type Invalidates } from '../../data/dataHooks';
import { useClientState } from '../../state/useClientState';
import type { Choice } from '../types';
import { ColumnValue } from '../generic/ColumnValue';
import { ReferencePicker } from '../generic/FieldInput';
import { DeviceKindName, DeviceStatusIcon } from './DeviceStatusIcon';
import { DEVICE_BULK_ACTIONS } from './DeviceBulkActions';
import { ImportDialog } from './ImportDialog';
import { canEditDevices } from './access';
import { DEVICE_COLUMNS, DEVICE_FILTER_DEFS, DEVICE_SORT } from './fields';
import { DATATABLE_SX, ICON_ONLY_BUTTON_SX, LIST_SX, PAGE_SIZES, STICKY_ACTIONS_COLUMN_SX } from '../generic/listStyles';
import { PageHeading } from '../generic/PageHeading';

/** A pin or unpin changes the device lists and the groups' counts. */
export const PIN_INVALIDATES: Invalidates = { resources: ['system/deviceManagement', 'device/deviceData'], calls: [] };

const filterChoices = (choices: readonly Choice[] | undefined, translate: (key: string) => string) =>
  (choices ?? []).map((c) => ({ id: c.id, name: translate(c.nameKey) }));

/** The definition's filters as inputs, each for the levels that may use it. */
function useDeviceFilters() {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  return DEVICE_FILTER_DEFS.filter((f) => !f.levels || (level !== null && f.levels.includes(level))).map((f) => {
    const common = { key: f.source, source: f.source, label: f.label, alwaysOn: f.alwaysOn };
    switch (f.kind) {
      // SearchInput takes no label: its words are the placeholder.
      case 'search':
        return (
          <SearchInput
            key={f.source}
            source={f.source}
            alwaysOn
            placeholder={translate(f.label ?? 'console.action.search')}
            sx={{ minWidth: 240 }}
          />
        );
      case 'select':
        return <SelectInput {...common} choices={filterChoices(f.choices, translate)} />;
      case 'reference':
        return <ReferencePicker key={f.source} source={f.source} reference={f.reference!} label={f.label} alwaysOn={f.alwaysOn} />;
      default:
        return <TextInput {...common} />;
    }
  });
}

/** CSV / Excel export of what the list shows (a file download: dataProvider.call devices.exportDevices). */
function ExportButtons() {
  const translate = useTranslate();
  const notify = useNotify();
  const { filterValues, sort } = useListContext();
  const { mutate, isPending } = useCallMutation(
    'devices',
    'exportDevices',
    { calls: [] },
    {
      onSuccess: (name) => notify('devices.list.exported', { type: 'success', messageArgs: { name } }),
      // the catalogue shows it (-101: "Do not export data frequently...")
      onError: () => undefined,
    },
  );
  const run = (format: 'csv' | 'xlsx') =>
    mutate([format, { ...(filterValues as Record<string, QueryValue>), sort: sort.field, order: sort.order === 'DESC' ? 'desc' : 'asc' }]);
  return (
    <>
      <Button size="small" startIcon={<DownloadIcon />} disabled={isPending} onClick={() => run('csv')} data-testid="export-csv">
        {translate('devices.list.exportCsv')}
      </Button>
      <Button size="small" startIcon={<DownloadIcon />} disabled={isPending} onClick={() => run('xlsx')} data-testid="export-xlsx">
        {translate('devices.list.exportXlsx')}
      </Button>
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
  const pin = useCallMutation('devices', 'pin', PIN_INVALIDATES, { onError: () => undefined });
  const unpin = useCallMutation('devices', 'unpin', PIN_INVALIDATES, { onError: () => undefined });
  if (!record) return null;
  const toggle = () => (record.pinned ? unpin : pin).mutate([[record.id]]);
  const label = translate(record.pinned ? 'devices.groups.unpin' : 'devices.groups.pin');
  return (
    <Tooltip title={label}>
      <IconButton
        size="small"
        onClick={toggle}
        disabled={pin.isPending || unpin.isPending}
        aria-label={label}
        data-testid={`pin-${record.id}`}
        color={record.pinned ? 'warning' : 'default'}
      >
        {record.pinned ? <StarIcon fontSize="small" /> : <StarBorderIcon fontSize="small" />}
      </IconButton>
    </Tooltip>
  );
}

export function ActivationChip({ record }: { record: Device }) {
  const translate = useTranslate();
  const format = useDateFormatter();
  const chip = (
    <Chip
      size="small"
      variant="outlined"
      color={record.activated ? 'success' : 'default'}
      label={translate(record.activated ? 'activation.activated' : 'activation.notActivated')}
    />
  );
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

/** How a column of the definition shows in this list where it is more than its value. */
const CELLS: Record<string, (r: Device) => ReactNode> = {
  status: (r) => <DeviceStatusIcon kind={r.deviceKind} status={r.status} />,
  deviceKind: (r) => <DeviceKindName kind={r.deviceKind} />,
  // The row carries its owner's name: no reference lookup needed.
  ownerId: (r) => text(r.ownerName),
  activated: (r) => <ActivationChip record={r} />,
};

/**
 * The ticked rows' actions (pin, unpin, move, send a command): on a narrow screen they wrap onto more
 * lines above the table, pushing it down, instead of widening the page (react-admin lays them over
 * the filter bar in one line of fixed height, which is kept where it fits).
 */
const BULK_TOOLBAR_WRAPS_SX = {
  '& .RaBulkActionsToolbar-toolbar:not(.RaBulkActionsToolbar-collapsed)': {
    height: { xs: 'auto', md: 48 },
    position: { xs: 'relative', md: 'absolute' },
    transform: { xs: 'none', md: 'translateY(-48px)' },
    flexWrap: { xs: 'wrap', md: 'nowrap' },
    rowGap: 0.5,
    py: { xs: 0.5, md: 0 },
  },
  '& .RaBulkActionsToolbar-topToolbar': { flexWrap: 'wrap', rowGap: 0.5 },
} as const;

/** System > Device: status icons, filters, sort, paging, export, import, pins; edit/delete for levels 1 and 2. */
export function DeviceList() {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const editor = canEditDevices(level);
  const filters = useDeviceFilters();
  // An enterprise or a sub-user sees its own devices only: no owner column.
  const columns = DEVICE_COLUMNS.filter((c) => c.source !== 'ownerId' || (level !== Level.Enterprise && level !== Level.SubUser));
  return (
    <List
      title={translate('devices.list.title')}
      filters={filters}
      perPage={20}
      pagination={<DevicePagination />}
      sort={DEVICE_SORT}
      actions={<ListActions />}
      queryOptions={{ onError: () => undefined }}
      sx={LIST_SX}
      empty={false}
    >
      <PageHeading titleKey="menu.deviceManagement" />
      {/* The row actions are icons: they stay in view at every width, phones included. */}
      <DataTable
        rowClick={false}
        bulkActionButtons={
          <>
            {DEVICE_BULK_ACTIONS.map(({ key, component: Action }) => (
              <Action key={key} />
            ))}
          </>
        }
        sx={{ ...DATATABLE_SX, ...STICKY_ACTIONS_COLUMN_SX, ...BULK_TOOLBAR_WRAPS_SX }}
      >
        {columns.map((column) => (
          <DataTable.Col
            key={column.source}
            source={column.source}
            label={column.label}
            disableSort={!column.sortable}
            render={(r: Device & RaRecord) => CELLS[column.source]?.(r) ?? <ColumnValue column={column} record={r} />}
          />
        ))}
        {/* Icons only (their names stay as aria-label and tooltip): with twelve columns the row
            actions then fit beside them at 1440 px, in the sticky last column. */}
        <DataTable.Col
          label="console.table.actions"
          disableSort
          render={() => (
            <span style={{ display: 'inline-flex', gap: 0, alignItems: 'center' }}>
              <PinToggle />
              {editor ? (
                <EditButton sx={ICON_ONLY_BUTTON_SX} title={translate('ra.action.edit')} />
              ) : (
                <EditButton
                  label="devices.list.show"
                  icon={<VisibilityIcon />}
                  sx={ICON_ONLY_BUTTON_SX}
                  title={translate('devices.list.show')}
                />
              )}
              {editor && (
                <DeleteWithConfirmButton
                  sx={ICON_ONLY_BUTTON_SX}
                  title={translate('ra.action.delete')}
                  mutationMode="pessimistic"
                  mutationOptions={{ onError: () => undefined }}
                  titleTranslateOptions={{ name: translate('devices.list.title') }}
                  contentTranslateOptions={{ name: translate('devices.list.title') }}
                />
              )}
            </span>
          )}
        />
      </DataTable>
    </List>
  );
}
