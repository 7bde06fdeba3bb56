import {
  AutocompleteInput,
  BooleanInput,
  FileField,
  FileInput,
  ImageField,
  ImageInput,
  NumberInput,
  PasswordInput,
  ReferenceInput,
  SelectInput,
  TextInput,
} from 'react-admin';
import { useTranslate } from 'ra-core';
import { useWatch } from 'react-hook-form';
import { DayInput } from './DayInput';
import { isoToLocalInput, localInputToIso } from '../../format/zonedInput';
import { useClientState } from '../../state/useClientState';
import type { Choice, FieldDef, ReferenceDef } from '../types';

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
}: {
  source: string;
  reference: ReferenceDef;
  label?: string;
  disabled?: boolean;
  alwaysOn?: boolean;
}) {
  const searchField = reference.searchField ?? 'name';
  return (
    <ReferenceInput source={source} reference={reference.resource} filter={reference.filter} alwaysOn={alwaysOn}>
      <AutocompleteInput
        id={source}
        label={label}
        optionText={reference.optionText}
        filterToQuery={(text: string) => (text ? { [searchField]: text } : {})}
        disabled={disabled}
        fullWidth
        helperText={false}
      />
    </ReferenceInput>
  );
}

/** One input of a resource form, chosen by the field's kind. */
export function FieldInput({ field, mode }: { field: FieldDef; mode: 'create' | 'edit' }) {
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
  };
  switch (field.kind) {
    case 'password':
      return <PasswordInput {...common} autoComplete="new-password" />;
    case 'textarea':
      return <TextInput {...common} multiline minRows={3} />;
    case 'number':
      return <NumberInput {...common} min={field.min} max={field.max} step={field.step} />;
    case 'boolean':
      return <BooleanInput source={field.source} label={field.label} disabled={common.disabled} helperText={false} />;
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
        <ReferencePicker source={field.source} reference={field.reference} label={field.label} disabled={common.disabled} />
      ) : null;
    case 'file':
      return (
        <FileInput source={field.source} label={field.label} accept={field.accept ? { [field.accept]: [] } : undefined}>
          <FileField source="src" title="title" />
        </FileInput>
      );
    case 'image':
      return (
        <ImageInput
          source={field.source}
          label={field.label}
          accept={
            field.accept ? Object.fromEntries(field.accept.split(',').map((t) => [t.trim(), []])) : { 'image/png': [], 'image/jpeg': [] }
          }
        >
          <ImageField source="src" title="title" />
        </ImageInput>
      );
    default:
      return <TextInput {...common} type={field.kind === 'email' ? 'email' : 'text'} />;
  }
}
