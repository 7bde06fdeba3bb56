import Chip from '@mui/material/Chip';
import { useQuery } from '@tanstack/react-query';
import {
  Create, CreateButton, DataTable, DateInput, DeleteWithConfirmButton, Edit, EditButton, List, Pagination, NumberInput, SaveButton, SelectInput, SimpleForm,
  Toolbar, TopToolbar, useTranslate,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { enterpriseVessels } from '../devices/vesselGrants';
import type { DeviceAuthGrant } from '../../domain/device';
import { deviceAuthGrantSchema, updateDeviceAuthGrantSchema } from '../../domain/deviceSchemas';
import { FEATURES, FEATURE_KEYS } from '../../domain/features';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useOwnerTree } from '../devices/useOwnerTree';
import { DATATABLE_SX, LIST_SX, PAGE_SIZES } from '../generic/listStyles';

/** The layout is at least as wide as its content (react-admin: min-width fit-content); a zero base width makes the table scroll inside the page instead, so the toolbar stays in view. */

const label = (key: string) => `devices.auth.${key}`;

function useFeatureChoices() {
  const translate = useTranslate();
  return FEATURES.map((id) => ({ id, name: translate(FEATURE_KEYS[id]) }));
}

/** Today in UTC as YYYY-MM-DD: a grant whose deadline is before it has lapsed. */
const today = () => new Date().toISOString().slice(0, 10);

export function DeviceAuthList() {
  const translate = useTranslate();
  const format = useDateFormatter();
  const { owners } = useOwnerTree();
  const features = useFeatureChoices();
  const filters = [
    <SelectInput key="enterpriseId" source="enterpriseId" label={label('enterprise')} choices={owners} optionText="name" alwaysOn />,
    <SelectInput key="feature" source="feature" label={label('feature')} choices={features} alwaysOn />,
  ];
  return (
    <List title={translate('devices.auth.title')} filters={filters} perPage={20} pagination={<Pagination rowsPerPageOptions={PAGE_SIZES} />} actions={<TopToolbar><CreateButton /></TopToolbar>}
      queryOptions={{ onError: () => undefined }} sx={LIST_SX} empty={false}>
      <DataTable rowClick={false} bulkActionButtons={false}
        sx={DATATABLE_SX}>
        <DataTable.Col source="enterpriseName" label={label('enterprise')} disableSort />
        <DataTable.Col source="deviceName" label={label('device')} disableSort render={(r: DeviceAuthGrant) => r.deviceName ?? translate('devices.auth.allDevices')} />
        <DataTable.Col source="feature" label={label('feature')} disableSort render={(r: DeviceAuthGrant) => translate(FEATURE_KEYS[r.feature] ?? r.feature)} />
        <DataTable.Col source="deviceCount" label={label('deviceCount')} disableSort />
        <DataTable.Col source="subscriptionQuantity" label={label('subscriptionQuantity')} disableSort />
        <DataTable.Col source="deadline" label={label('deadline')} disableSort render={(r: DeviceAuthGrant) => (
          r.deadline ? <>{r.deadline}{r.deadline < today() && <Chip size="small" color="error" variant="outlined" sx={{ ml: 1 }} label={translate('devices.auth.expired')} />}</> : translate('devices.auth.noDeadline')
        )} />
        <DataTable.Col source="createdAt" label={label('createdAt')} disableSort render={(r: DeviceAuthGrant) => format(r.createdAt)} />
        <DataTable.Col label="console.table.actions" disableSort render={() => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <EditButton />
            <DeleteWithConfirmButton mutationMode="pessimistic" mutationOptions={{ onError: () => undefined }}
              titleTranslateOptions={{ name: translate('devices.auth.title') }} contentTranslateOptions={{ name: translate('devices.auth.title') }} />
          </span>
        )} />
      </DataTable>
    </List>
  );
}

/** The devices of the chosen enterprise (a grant for one device), or none: every device of it. */
function DeviceSelect() {
  const translate = useTranslate();
  const enterpriseId = useWatch({ name: 'enterpriseId' });
  const { data, isPending } = useQuery({
    queryKey: ['deviceAuthDevices', enterpriseId],
    queryFn: () => enterpriseVessels(Number(enterpriseId)),
    enabled: Boolean(enterpriseId),
  });
  return (
    <SelectInput source="deviceId" id="deviceId" label={label('device')} choices={data ?? []} optionText="name" isPending={Boolean(enterpriseId) && isPending}
      emptyText={translate('devices.auth.allDevices')} parse={(v: unknown) => (v === '' ? null : v)} fullWidth helperText={false} />
  );
}

function EnterpriseSelect() {
  const { owners, loading } = useOwnerTree();
  const { setValue } = useFormContext();
  return (
    <SelectInput source="enterpriseId" id="enterpriseId" label={label('enterprise')} choices={owners} optionText="name" isPending={loading} fullWidth helperText={false}
      onChange={() => setValue('deviceId', null)} />
  );
}

function GrantForm({ mode }: { mode: 'create' | 'edit' }) {
  const features = useFeatureChoices();
  return (
    <SimpleForm resolver={yupResolver(mode === 'create' ? deviceAuthGrantSchema : updateDeviceAuthGrantSchema)} mode="onChange" reValidateMode="onChange"
      toolbar={<Toolbar><SaveButton alwaysEnable /></Toolbar>} sx={{ maxWidth: 560 }}>
      <EnterpriseSelect />
      <DeviceSelect />
      <SelectInput source="feature" id="feature" label={label('feature')} choices={features} fullWidth helperText={false} />
      <NumberInput source="deviceCount" id="deviceCount" label={label('deviceCount')} min={0} step={1} fullWidth helperText={false} />
      <NumberInput source="subscriptionQuantity" id="subscriptionQuantity" label={label('subscriptionQuantity')} min={0} step={1} fullWidth helperText={false} />
      <DateInput source="deadline" id="deadline" label={label('deadline')} fullWidth helperText={false} />
    </SimpleForm>
  );
}

export function DeviceAuthCreate() {
  const translate = useTranslate();
  return (
    <Create title={translate('devices.auth.createTitle')} redirect="list" mutationOptions={{ onError: () => undefined }}>
      <GrantForm mode="create" />
    </Create>
  );
}

export function DeviceAuthEdit() {
  const translate = useTranslate();
  return (
    <Edit title={translate('devices.auth.editTitle')} mutationMode="pessimistic" redirect="list" mutationOptions={{ onError: () => undefined }} queryOptions={{ onError: () => undefined }}>
      <GrantForm mode="edit" />
    </Edit>
  );
}
