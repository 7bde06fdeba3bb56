import { useEffect, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { DateInput, SaveButton, SelectInput, SimpleForm, TextInput, Toolbar, useRecordContext, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { deviceFieldKey, deviceSchema, latestToday, MMSI_PATTERN, updateDeviceSchema, type DeviceField } from '../../domain/deviceSchemas';
import { devicesApi } from '../../api/devicesApi';
import { requiredSources } from '../generic/requiredFields';
import { Level } from '../../domain/levels';
import { useClientState } from '../../state/useClientState';
import { useChoices } from '../generic/FieldInput';
import { DEVICE_FIELD_DEFS } from './fields';
import { subUsersOf, useOwnerTree } from './useOwnerTree';

/** The form's sections: every device field of docs/requirements.md §3, in the schema's (and the template's) order. */
const SECTIONS: { key: string; fields: DeviceField[] }[] = [
  { key: 'basic', fields: ['name', 'deviceNum', 'deviceSn', 'mac', 'deviceKind', 'deviceType', 'deviceModel'] },
  { key: 'ownership', fields: ['ownerId', 'ownerSubId'] },
  { key: 'hardware', fields: ['manufactureDate', 'manufactureInfo', 'aduVersion', 'bduVersion', 'hardware', 'chipId', 'modemSn'] },
  { key: 'vessel', fields: ['mmsi', 'imo', 'callsign'] },
];

/**
 * The ownerId / ownerSubId cascade: the owner tree (enterprises with their sub-users) through
 * dataProvider.call; choosing another enterprise resets the sub-user to none (0).
 */
function OwnerInputs({ readOnly }: { readOnly: boolean }) {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const { owners, loading } = useOwnerTree(level !== Level.SubUser);
  const selfId = useClientState((s) => s.id);
  const selfName = useClientState((s) => s.name);
  const { setValue } = useFormContext();
  // An enterprise's own name shows at once, before the list loads.
  const ownerChoices =
    owners.length || level !== Level.Enterprise || !selfId ? owners : [{ id: selfId, name: selfName ?? '', children: [] }];
  const ownerId = useWatch({ name: 'ownerId' });
  const subChoices = [{ id: 0, name: translate('devices.form.noSubUser') }, ...subUsersOf(owners, ownerId)];
  return (
    <>
      <SelectInput
        source="ownerId"
        id="ownerId"
        label={deviceFieldKey('ownerId')}
        choices={ownerChoices}
        isPending={loading}
        optionText="name"
        readOnly={readOnly || level !== Level.Admin}
        isRequired={!readOnly}
        fullWidth
        helperText={false}
        onChange={() => setValue('ownerSubId', 0, { shouldDirty: true, shouldValidate: true })}
      />
      <SelectInput
        source="ownerSubId"
        id="ownerSubId"
        label={deviceFieldKey('ownerSubId')}
        choices={subChoices}
        isPending={loading}
        optionText="name"
        readOnly={readOnly}
        isRequired={!readOnly}
        fullWidth
        helperText={false}
      />
    </>
  );
}

/** Every field the schema requires (react-admin's mark on its label): the user sees them before the first save. */
const REQUIRED = requiredSources(deviceSchema);

/**
 * Another vessel with the MMSI the form holds (a warning: two vessels may share one by mistake,
 * and the save is not refused): the names the user may see, else "another vessel".
 */
function useMmsiWarning(): string | null {
  const translate = useTranslate();
  const mmsi = useWatch({ name: 'mmsi' }) as string | null | undefined;
  const id = Number(useRecordContext()?.id ?? 0);
  const [warning, setWarning] = useState<{ mmsi: string; text: string | null } | null>(null);
  useEffect(() => {
    const value = (mmsi ?? '').trim();
    if (!MMSI_PATTERN.test(value)) return;
    let live = true;
    const timer = setTimeout(() => {
      devicesApi
        .mmsiInUse(value, id)
        .then(({ count, vessels }) => {
          if (!live) return;
          const names = vessels.map((v) => v.name).join(translate('devices.form.listSeparator'));
          const text = !count
            ? null
            : names
              ? translate('devices.form.mmsiInUseBy', { names, smart_count: count })
              : translate('devices.form.mmsiInUse', { smart_count: count });
          setWarning({ mmsi: value, text });
        })
        .catch(() => undefined);
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [mmsi, id, translate]);
  return warning && warning.mmsi === (mmsi ?? '').trim() ? warning.text : null;
}

/** One field as the definition declares it (DEVICE_FIELD_DEFS), with the test id device-<field>. */
function FieldInput({ field, readOnly }: { field: DeviceField; readOnly: boolean }) {
  const def = DEVICE_FIELD_DEFS.find((f) => f.source === field);
  const choices = useChoices(def?.choices);
  const common = {
    source: field,
    id: field,
    label: def?.label ?? deviceFieldKey(field),
    fullWidth: true,
    helperText: false as const,
    readOnly,
    isRequired: !readOnly && REQUIRED.has(field),
  };
  if (def?.kind === 'select') return <SelectInput {...common} choices={choices} />;
  // The picker offers no day after today (the schema refuses one).
  if (def?.kind === 'date') return <DateInput {...common} slotProps={{ htmlInput: { max: latestToday() } }} />;
  if (field === 'mmsi') return <MmsiInput common={common} />;
  return <TextInput {...common} slotProps={{ htmlInput: { 'data-testid': `device-${field}` } }} />;
}

/** The MMSI, with the warning of another vessel holding it below (an error there takes its place). */
function MmsiInput({ common }: { common: Parameters<typeof TextInput>[0] }) {
  const warning = useMmsiWarning();
  return (
    <TextInput
      {...common}
      helperText={
        warning ? (
          <Box component="span" sx={{ color: 'warning.main' }} data-testid="device-mmsi-warning">
            {warning}
          </Box>
        ) : (
          false
        )
      }
      slotProps={{ htmlInput: { 'data-testid': 'device-mmsi', inputMode: 'numeric' } }}
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, width: '100%', mb: 1 }}>
      <Typography component="legend" variant="subtitle2" color="primary" sx={{ mb: 1, fontWeight: 600 }}>
        {title}
      </Typography>
      <Box sx={{ display: 'grid', columnGap: 2, rowGap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' } }}>
        {children}
      </Box>
    </Box>
  );
}

/**
 * The device form (create and edit): required fields marked, validated as the user types with the
 * same yup schema the server uses (src/domain/deviceSchemas.ts); the server's field errors (every
 * duplicate deviceNum, SN, MAC at once) land under their fields; an MMSI another vessel has is
 * warned under its field. An admin picks the enterprise and sub-user, an enterprise
 * only the sub-user; a sub-user sees the form read-only.
 */
export function DeviceForm({ mode, defaults }: { mode: 'create' | 'edit'; defaults?: Record<string, unknown> }) {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const readOnly = level === Level.SubUser;
  return (
    <SimpleForm
      resolver={yupResolver(mode === 'create' ? deviceSchema : updateDeviceSchema)}
      mode="onChange"
      reValidateMode="onChange"
      defaultValues={defaults}
      toolbar={
        readOnly ? (
          false
        ) : (
          <Toolbar>
            <SaveButton alwaysEnable />
          </Toolbar>
        )
      }
      sx={{ maxWidth: 1100 }}
    >
      {readOnly && (
        <Alert severity="info" sx={{ mb: 2, width: '100%' }}>
          {translate('devices.form.readOnly')}
        </Alert>
      )}
      {SECTIONS.map((section) => (
        <Section key={section.key} title={translate(`devices.form.${section.key}`)}>
          {section.key === 'ownership' ? (
            <OwnerInputs readOnly={readOnly} />
          ) : (
            section.fields.map((field) => <FieldInput key={field} field={field} readOnly={readOnly} />)
          )}
        </Section>
      ))}
    </SimpleForm>
  );
}
