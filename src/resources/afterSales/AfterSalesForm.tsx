import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { DateInput, SaveButton, SelectInput, SimpleForm, TextInput, Toolbar, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { AFTER_SALES_CLASSIFICATIONS, AFTER_SALES_FIELDS, AFTER_SALES_OPTIONAL, afterSalesSchema, updateAfterSalesSchema, type AfterSalesField } from '../../domain/afterSales';

const LONG: readonly AfterSalesField[] = ['CustomerSuggestion', 'Description', 'Reamrk'];
export const afterSalesLabel = (field: string) => `afterSalesField.${field}`;

function FieldInput({ field }: { field: AfterSalesField }) {
  const translate = useTranslate();
  const required = !AFTER_SALES_OPTIONAL.includes(field);
  const common = {
    source: field, label: afterSalesLabel(field), fullWidth: true, isRequired: required,
    slotProps: { htmlInput: { 'data-testid': `as-${field}` } },
  };
  if (field === 'Classification') {
    return <SelectInput {...common} choices={AFTER_SALES_CLASSIFICATIONS.map((id) => ({ id, name: translate(`afterSales.classification.${id}`) }))} />;
  }
  if (field === 'DispatchOfData') return <DateInput {...common} />;
  if (LONG.includes(field)) return <TextInput {...common} multiline minRows={2} sx={{ gridColumn: '1 / -1' }} />;
  return <TextInput {...common} />;
}

function FromFault() {
  const translate = useTranslate();
  const code = useWatch({ name: 'faultCode' }) as string | null | undefined;
  return code ? <Alert severity="info" sx={{ mb: 2, width: '100%' }}>{translate('support.afterSales.fromFault', { code })}</Alert> : null;
}

/**
 * The after-sales form: every field of SPEC section 3, required ones marked, validated as the user
 * types with the same yup schema the server uses (src/domain/afterSales.ts).
 */
export function AfterSalesForm({ mode, defaults }: { mode: 'create' | 'edit'; defaults?: Record<string, unknown> }) {
  return (
    <SimpleForm
      resolver={yupResolver(mode === 'create' ? afterSalesSchema : updateAfterSalesSchema)}
      mode="onChange"
      reValidateMode="onChange"
      defaultValues={defaults}
      toolbar={<Toolbar><SaveButton alwaysEnable data-testid="as-save" /></Toolbar>}
      sx={{ maxWidth: 1000 }}
    >
      <FromFault />
      <Box sx={{ display: 'grid', columnGap: 2, rowGap: 1, width: '100%', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' } }}>
        {AFTER_SALES_FIELDS.map((field) => <FieldInput key={field} field={field} />)}
      </Box>
    </SimpleForm>
  );
}
