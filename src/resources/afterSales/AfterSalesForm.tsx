import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { SaveButton, SelectInput, SimpleForm, TextInput, Toolbar, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { AFTER_SALES_OPTIONAL, afterSalesSchema, type AfterSalesField } from '../../domain/afterSales';
import type { FieldDef } from '../types';
import { useChoices } from '../generic/FieldInput';
import { AFTER_SALES_FIELD_DEFS } from './fields';
import { DayInput } from '../generic/DayInput';

export { afterSalesLabel } from './fields';

/** One field as the definition declares it, required ones marked, with the test id as-<field>. */
function FieldInput({ field }: { field: FieldDef }) {
  const choices = useChoices(field.choices);
  const required = !AFTER_SALES_OPTIONAL.includes(field.source as AfterSalesField);
  const common = {
    source: field.source,
    label: field.label,
    fullWidth: true,
    isRequired: required,
    slotProps: { htmlInput: { 'data-testid': `as-${field.source}` } },
  };
  switch (field.kind) {
    case 'select':
      return <SelectInput {...common} choices={choices} />;
    // Typed as YYYY-MM-DD in both languages, not the browser's own date format.
    case 'date':
      return <DayInput {...common} />;
    case 'textarea':
      return <TextInput {...common} multiline minRows={2} sx={{ gridColumn: '1 / -1' }} />;
    default:
      return <TextInput {...common} />;
  }
}

function FromFault() {
  const translate = useTranslate();
  const code = useWatch({ name: 'faultCode' }) as string | null | undefined;
  return code ? (
    <Alert severity="info" sx={{ mb: 2, width: '100%' }}>
      {translate('support.afterSales.fromFault', { code })}
    </Alert>
  ) : null;
}

/**
 * The new-report form: the definition's fields, required ones marked, validated as the user types
 * with the same yup schema the server uses (src/domain/afterSales.ts), and the fault it was
 * started from (fault clearing prefills it through ?source=).
 */
export function AfterSalesForm({ defaults }: { defaults?: Record<string, unknown> }) {
  return (
    <SimpleForm
      resolver={yupResolver(afterSalesSchema)}
      mode="onChange"
      reValidateMode="onChange"
      defaultValues={defaults}
      toolbar={
        <Toolbar>
          <SaveButton alwaysEnable data-testid="as-save" />
        </Toolbar>
      }
      sx={{ maxWidth: 1000 }}
    >
      <FromFault />
      <Box
        sx={{
          display: 'grid',
          columnGap: 2,
          rowGap: 1,
          width: '100%',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' },
        }}
      >
        {AFTER_SALES_FIELD_DEFS.map((field) => (
          <FieldInput key={field.source} field={field} />
        ))}
      </Box>
    </SimpleForm>
  );
}
