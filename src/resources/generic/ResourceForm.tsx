import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { SimpleForm, Toolbar, SaveButton } from 'react-admin';
import { useTranslate } from 'ra-core';
import { useWatch } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import type { AnyObjectSchema } from 'yup';
import { useClientState } from '../../state/useClientState';
import type { FieldDef, ResourceDefinition } from '../types';
import { FieldInput } from './FieldInput';
import { requiredSources } from './requiredFields';
import { groupBySection } from './sections';

/**
 * The inputs of one group, one under the other with 16 px between them: an outlined input's label
 * sits half above its box, so without the gap it would cover the line above it, where the error
 * of the previous input is written. An error line (one or two lines) takes its own room.
 */
const GROUP_SX = {
  border: 0,
  m: 0,
  p: 0,
  pt: 1,
  minWidth: 0,
  width: '100%',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'stretch',
  rowGap: 2,
  // The gap is the only space between inputs (react-admin's select brings a margin of its own).
  '& > .ra-input': { my: 0 },
  '& .MuiFormHelperText-root': { whiteSpace: 'normal', overflowWrap: 'anywhere' },
  // react-admin's boolean input keeps its own width; the others fill the group.
  '& > .MuiFormGroup-root': { alignSelf: 'flex-start' },
} as const;

/** The form's fields in their sections; a section shows only when one of its fields does (`when`). */
function FormSections({ fields, mode, schema }: { fields: readonly FieldDef[]; mode: 'create' | 'edit'; schema?: AnyObjectSchema }) {
  const translate = useTranslate();
  const level = useClientState((s) => s.permissionLevel);
  const values = (useWatch() ?? {}) as Record<string, unknown>;
  const required = requiredSources(schema, values);
  const shown = fields.filter((f) => !f.when || f.when(values, level));
  return (
    <Box sx={{ width: '100%', display: 'flex', flexDirection: 'column', rowGap: 3 }}>
      {groupBySection(shown).map((group) => (
        <Box component="fieldset" key={group.key ?? ''} sx={GROUP_SX} data-testid={`form-section-${group.key ?? 'main'}`}>
          {group.key && (
            <Typography component="legend" variant="subtitle2" sx={{ p: 0, mb: 1, fontWeight: 600 }}>
              {translate(group.key)}
            </Typography>
          )}
          {group.items.map((field) => (
            <FieldInput key={field.source} field={field} mode={mode} required={required.has(field.source)} />
          ))}
        </Box>
      ))}
    </Box>
  );
}

/**
 * The form of a resource: its fields for this mode, grouped by section, validated as the user types
 * by its yup schema from domain/ (the server's rule), which also says which fields carry the
 * required mark.
 */
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
      <FormSections fields={fields} mode={mode} schema={schema} />
    </SimpleForm>
  );
}
