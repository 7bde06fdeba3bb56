import { SimpleForm, Toolbar, SaveButton } from 'react-admin';
import { yupResolver } from '@hookform/resolvers/yup';
import type { ResourceDefinition } from '../types';
import { FieldInput } from './FieldInput';

/** The form of a resource: its fields for this mode, validated as the user types by its yup schema from domain/ (the server's rule). */
export function ResourceForm({
  definition,
  mode,
  defaults,
}: {
  definition: ResourceDefinition;
  mode: 'create' | 'edit';
  defaults?: Record<string, unknown>;
}) {
  const schema = mode === 'create' ? definition.createSchema : definition.editSchema;
  const fields = definition.fields.filter((f) => (mode === 'create' ? f.on.create : f.on.edit));
  return (
    <SimpleForm
      resolver={schema ? yupResolver(schema) : undefined}
      // Checked when a field is left, then again as the user types in it.
      mode="onTouched"
      reValidateMode="onChange"
      defaultValues={defaults}
      toolbar={
        <Toolbar>
          <SaveButton alwaysEnable />
        </Toolbar>
      }
      sx={{ maxWidth: 560 }}
    >
      {fields.map((field) => (
        <FieldInput key={field.source} field={field} mode={mode} />
      ))}
    </SimpleForm>
  );
}
