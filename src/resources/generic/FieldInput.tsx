import { useEffect, useState } from 'react';
import { PasswordInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { NameItem } from '../../domain/user';
import { useClientState } from '../../state/useClientState';
import type { FieldDef } from '../types';

/** One input of a resource form, chosen by the field's definition. */
export function FieldInput({ field, mode }: { field: FieldDef; mode: 'create' | 'edit' }) {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const values = useWatch() as Record<string, unknown>;
  const [options, setOptions] = useState<NameItem[] | null>(null);
  const loader = field.options;
  useEffect(() => {
    if (!loader) return;
    let live = true;
    loader().then((list) => live && setOptions(list), () => live && setOptions([]));
    return () => {
      live = false;
    };
  }, [loader]);

  if (field.when && !field.when(values ?? {}, level)) return null;
  const common = { source: field.source, disabled: mode === 'edit' && field.disabledOnEdit, fullWidth: true, helperText: false as const };
  switch (field.input) {
    case 'password':
      return <PasswordInput {...common} autoComplete="new-password" />;
    case 'textarea':
      return <TextInput {...common} multiline minRows={3} />;
    case 'select': {
      const choices = typeof field.choices === 'function' ? field.choices(level) : field.choices ?? [];
      return <SelectInput {...common} choices={choices.map((c) => ({ id: c.id, name: translate(c.nameKey) }))} />;
    }
    case 'options':
      return <SelectInput {...common} choices={options ?? []} isPending={options === null} optionText="name" />;
    default:
      return <TextInput {...common} type={field.input === 'email' ? 'email' : 'text'} />;
  }
}
