import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  FileField,
  FileInput,
  ImageField,
  ImageInput,
  NumberInput,
  PasswordInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  TextInput,
} from 'react-admin';
import { useTranslate } from 'ra-core';
import { Suspense, useEffect } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { DayInput } from './DayInput';
import { useNarrowedFilter } from './referenceOptions';
import { isoToLocalInput, localInputToIso } from '../../format/zonedInput';
import { useClientState } from '../../state/useClientState';
import type { Choice, FieldDef, ReferenceDef } from '../types';
import { lazyView } from '../lazyView';

/** The map of a geometry field, loaded with the first form that has one (Leaflet stays out of the other forms). */
const GeometryInput = lazyView(
  () => import('../../map/GeometryInput'),
  (m) => m.GeometryInput,
);

/** Fixed choices with translated names. */
export function useChoices(choices: FieldDef['choices']): { id: string | number; name: string }[] {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const list: readonly Choice[] = typeof choices === 'function' ? choices(level) : (choices ?? []);
  return list.map((c) => ({ id: c.id, name: translate(c.nameKey) }));
}

/** A reference's picker: the referenced resource's list through the dataProvider, searched as the user types. */
export function ReferencePicker({
  source,
  reference,
  label,
  disabled,
  alwaysOn,
  required,
}: {
  source: string;
  reference: ReferenceDef;
  label?: string;
  disabled?: boolean;
  alwaysOn?: boolean;
  /** Marks the label (an asterisk); the form's yup schema does the checking. */
  required?: boolean;
}) {
  const searchField = reference.searchField ?? 'name';
  const filter = useNarrowedFilter(source, reference, null);
  return (
    <ReferenceInput source={source} reference={reference.resource} filter={filter} alwaysOn={alwaysOn}>
      <AutocompleteInput
        id={source}
        label={label}
        optionText={reference.optionText}
        filterToQuery={(text: string) => (text ? { [searchField]: text } : {})}
        disabled={disabled}
        isRequired={required}
        fullWidth
        // Focused as the first bad field after a save, it stays closed so the other errors stay in view.
        openOnFocus={false}
        sx={{ minWidth: 220 }}
        helperText={false}
      />
    </ReferenceInput>
  );
}

/** Several records of a reference (a `references` field), picked by name as the user types. */
function ReferencesPicker({
  field,
  disabled,
  required,
}: {
  field: FieldDef & { reference: ReferenceDef };
  disabled?: boolean;
  required: boolean;
}) {
  const { reference } = field;
  const filter = useNarrowedFilter(field.source, reference, []);
  return (
    <ReferenceArrayInput source={field.source} reference={reference.resource} filter={filter}>
      <AutocompleteArrayInput
        id={field.source}
        label={field.label}
        optionText={reference.optionText}
        filterToQuery={(text: string) => (text ? { [reference.searchField ?? 'name']: text } : {})}
        disabled={disabled}
        isRequired={required}
        fullWidth
        openOnFocus={false}
        helperText={false}
      />
    </ReferenceArrayInput>
  );
}

/**
 * A list field a record holds as null (a rule saved before the field existed) is an empty list:
 * the picker shows it empty, and the form's rule, which wants a list, must not reject a value the
 * user cannot see.
 */
function NullAsEmptyList({ source }: { source: string }) {
  const { getValues, setValue } = useFormContext();
  // Subscribed to the value, and checked after every render: react-admin resets the form to the
  // loaded record after this component's effects have run, which brings the null back.
  useWatch({ name: source });
  useEffect(() => {
    if (getValues(source) === null) setValue(source, [], { shouldDirty: false });
  });
  return null;
}

/**
 * One input of a resource form, chosen by the field's kind. `required` puts react-admin's mark (an
 * asterisk) on its label; the rule itself is the form's yup schema (requiredSources). No helper
 * line is kept under an input: its error line, when there is one, pushes the next field down.
 */
export function FieldInput({ field, mode, required = false }: { field: FieldDef; mode: 'create' | 'edit'; required?: boolean }) {
  const level = useClientState((s) => s.permissionLevel);
  const timeZone = useClientState((s) => s.timeZone);
  const values = useWatch() as Record<string, unknown>;
  const choices = useChoices(field.choices);
  if (field.when && !field.when(values ?? {}, level)) return null;
  const common = {
    id: field.source,
    source: field.source,
    label: field.label,
    disabled: mode === 'edit' && field.disabledOnEdit,
    fullWidth: true,
    helperText: false as const,
    isRequired: required,
  };
  switch (field.kind) {
    case 'password':
      return <PasswordInput {...common} autoComplete="new-password" />;
    case 'textarea':
      return <TextInput {...common} multiline minRows={3} />;
    case 'number':
      return <NumberInput {...common} min={field.min} max={field.max} step={field.step} />;
    case 'boolean':
      return <BooleanInput source={field.source} label={field.label} disabled={common.disabled} isRequired={required} helperText={false} />;
    case 'date':
      return <DayInput {...common} />;
    case 'datetime':
      // A wall-clock time in the user's time zone; the API takes the instant in UTC.
      return (
        <TextInput
          {...common}
          type="datetime-local"
          format={(v: string) => isoToLocalInput(v, timeZone)}
          parse={(v: string) => (v ? localInputToIso(v, timeZone) : null)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      );
    case 'select':
      return <SelectInput {...common} choices={choices} />;
    case 'reference':
      return field.reference ? (
        <ReferencePicker
          source={field.source}
          reference={field.reference}
          label={field.label}
          disabled={common.disabled}
          required={required}
        />
      ) : null;
    case 'multiselect':
      return (
        <>
          <NullAsEmptyList source={field.source} />
          <AutocompleteArrayInput {...common} choices={choices} openOnFocus={false} />
        </>
      );
    case 'references':
      // Several records of the reference, picked by name as the user types.
      return field.reference ? (
        <>
          <NullAsEmptyList source={field.source} />
          <ReferencesPicker field={{ ...field, reference: field.reference }} disabled={common.disabled} required={required} />
        </>
      ) : null;
    case 'file':
      return (
        <FileInput
          source={field.source}
          label={field.label}
          isRequired={required}
          accept={field.accept ? { [field.accept]: [] } : undefined}
        >
          <FileField source="src" title="title" />
        </FileInput>
      );
    case 'image':
      return (
        <ImageInput
          source={field.source}
          label={field.label}
          isRequired={required}
          accept={
            field.accept ? Object.fromEntries(field.accept.split(',').map((t) => [t.trim(), []])) : { 'image/png': [], 'image/jpeg': [] }
          }
        >
          <ImageField source="src" title="title" />
        </ImageInput>
      );
    case 'geometry':
      return (
        <Suspense fallback={null}>
          <GeometryInput source={field.source} label={field.label} disabled={Boolean(common.disabled)} />
        </Suspense>
      );
    default:
      return <TextInput {...common} type={field.kind === 'email' ? 'email' : 'text'} />;
  }
}
