import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import SystemUpdateIcon from '@mui/icons-material/SystemUpdateAlt';
import UploadIcon from '@mui/icons-material/Upload';
import {
  DataTable,
  DeleteWithConfirmButton,
  FilterButton,
  List,
  Pagination,
  SearchInput,
  SelectInput,
  TextInput,
  TopToolbar,
  useCreatePath,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import type { FirmwarePackage } from '../../domain/firmware';
import { useCallMutation } from '../../data/dataHooks';
import { FIRMWARE_FILTER_DEFS, FIRMWARE_SORT } from './fields';
import { formatBytes } from '../../format/bytes';
import { useDateFormatter } from '../../format/useDateFormatter';
import { DATATABLE_SX, PAGE_SIZES } from '../generic/listStyles';
import { PageHeading } from '../generic/PageHeading';

const RESOURCE = 'system/firmware';
const label = (field: string) => `firmware.fields.${field}`;

/** The definition's filters (fields.ts) as inputs; the search box says what it searches. */
function useFilters() {
  const translate = useTranslate();
  return FIRMWARE_FILTER_DEFS.map((f) => {
    const common = { source: f.source, label: label(f.source), alwaysOn: f.alwaysOn };
    if (f.kind === 'search')
      return <SearchInput key={f.source} source={f.source} alwaysOn placeholder={translate('firmware.search')} sx={{ minWidth: 240 }} />;
    if (f.kind === 'select')
      return <SelectInput key={f.source} {...common} choices={(f.choices ?? []).map((c) => ({ id: c.id, name: translate(c.nameKey) }))} />;
    return <TextInput key={f.source} {...common} />;
  });
}

function UploadButton() {
  const translate = useTranslate();
  const createPath = useCreatePath();
  return (
    <Button
      component={Link}
      to={createPath({ resource: RESOURCE, type: 'create' })}
      size="small"
      startIcon={<UploadIcon />}
      data-testid="fw-upload"
    >
      {translate('firmware.upload')}
    </Button>
  );
}

/** Enable or disable from the list (firmware/setEnabled); the list and the package are read again. */
function EnabledToggle({ record }: { record: FirmwarePackage }) {
  const translate = useTranslate();
  // A refusal is shown by the error catalogue.
  const setEnabled = useCallMutation('firmware', 'setEnabled', { resources: [RESOURCE] });
  return (
    <Tooltip title={translate(record.enabled ? 'firmware.enabledOn' : 'firmware.enabledOff')}>
      <Switch
        size="small"
        checked={record.enabled}
        disabled={setEnabled.isPending}
        onChange={() => setEnabled.mutate([record.id, !record.enabled])}
        data-testid={`fw-enabled-${record.id}`}
        slotProps={{ input: { 'aria-label': translate(label('enabled')) } }}
      />
    </Tooltip>
  );
}

function StatusCell({ record }: { record: FirmwarePackage }) {
  const translate = useTranslate();
  const color =
    record.status === 'rollingOut' ? 'warning' : record.status === 'finished' ? (record.failedCount ? 'error' : 'success') : 'default';
  return (
    <span style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}>
      <Chip
        size="small"
        color={color}
        variant={record.status === 'none' ? 'outlined' : 'filled'}
        label={translate(`firmware.status.${record.status}`)}
      />
      {record.targets > 0 && (
        <span style={{ fontSize: 12 }}>{translate('firmware.statusCount', { updated: record.updatedCount, total: record.targets })}</span>
      )}
    </span>
  );
}

const clip = (value: string | null) => (
  <span
    title={value ?? ''}
    style={{ display: 'inline-block', maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', verticalAlign: 'bottom' }}
  >
    {value ?? ''}
  </span>
);

/** The firmware catalogue: name, version, device type, customer, version type, enabled, file size, status, update info. */
export function FirmwareList() {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const format = useDateFormatter();
  return (
    <List
      title={translate('firmware.title')}
      filters={useFilters()}
      perPage={20}
      pagination={<Pagination rowsPerPageOptions={PAGE_SIZES} />}
      sort={FIRMWARE_SORT}
      actions={
        <TopToolbar sx={{ flexWrap: 'wrap' }}>
          <FilterButton />
          <UploadButton />
        </TopToolbar>
      }
      queryOptions={{ onError: () => undefined }}
      empty={false}
      sx={{ contain: 'inline-size', '& .RaList-main': { minWidth: 0 } }}
    >
      <PageHeading titleKey="menu.firmware" />
      <DataTable rowClick={false} bulkActionButtons={false} data-testid="fw-list" sx={DATATABLE_SX}>
        <DataTable.Col source="name" label={label('name')} render={(r: FirmwarePackage) => clip(r.name)} />
        <DataTable.Col source="version" label={label('version')} />
        <DataTable.Col source="deviceType" label={label('deviceType')} />
        <DataTable.Col source="model" label={label('model')} />
        <DataTable.Col source="customer" label={label('customer')} />
        <DataTable.Col
          source="versionType"
          label={label('versionType')}
          render={(r: FirmwarePackage) => (
            <Chip
              size="small"
              variant="outlined"
              color={r.versionType === 'beta' ? 'warning' : 'primary'}
              label={translate(`firmware.versionType.${r.versionType}`)}
            />
          )}
        />
        <DataTable.Col source="enabled" label={label('enabled')} render={(r: FirmwarePackage) => <EnabledToggle record={r} />} />
        <DataTable.Col source="fileSize" label={label('fileSize')} render={(r: FirmwarePackage) => formatBytes(r.fileSize)} />
        <DataTable.Col source="status" label={label('status')} render={(r: FirmwarePackage) => <StatusCell record={r} />} />
        <DataTable.Col source="updateInfo" label={label('updateInfo')} disableSort render={(r: FirmwarePackage) => clip(r.updateInfo)} />
        <DataTable.Col source="createdAt" label={label('createdAt')} render={(r: FirmwarePackage) => format(r.createdAt)} />
        <DataTable.Col
          label="console.table.actions"
          disableSort
          render={(r: FirmwarePackage) => (
            <span style={{ display: 'inline-flex', gap: 4, alignItems: 'center' }}>
              <Button
                component={Link}
                to={createPath({ resource: RESOURCE, type: 'edit', id: r.id })}
                size="small"
                startIcon={<SystemUpdateIcon />}
                data-testid={`fw-open-${r.id}`}
              >
                {translate('firmware.rollOut')}
              </Button>
              <DeleteWithConfirmButton
                mutationMode="pessimistic"
                mutationOptions={{ onError: () => undefined }}
                confirmContent={translate('firmware.deleteConfirm', { name: `${r.model} ${r.version}` })}
              />
            </span>
          )}
        />
      </DataTable>
    </List>
  );
}
