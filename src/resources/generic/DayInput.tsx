import { TextInput, type TextInputProps } from 'react-admin';
import { useTranslate } from 'ra-core';
import { isRealDate } from '../../domain/schemaRules';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day as the API keeps it (YYYY-MM-DD): empty, or a real day in that form. */
export const validateDay = (value: unknown): string | undefined =>
  value === undefined || value === null || value === '' || (DAY.test(String(value)) && isRealDate(String(value)))
    ? undefined
    : 'validation.date';

/**
 * A day typed as text, YYYY-MM-DD, with the page's own placeholder. The browser's
 * <input type="date"> shows its own locale's format (mm/dd/yyyy in an English Chromium, whatever
 * the console's language); this one looks the same in every browser and both languages. An
 * invalid day is refused as the user types; in a filter react-admin does not apply it until it is valid.
 */
export function DayInput({ validate, slotProps, ...props }: TextInputProps) {
  const translate = useTranslate();
  const extra = Array.isArray(validate) ? validate : validate ? [validate] : [];
  return (
    <TextInput
      {...props}
      validate={[validateDay, ...extra]}
      placeholder={translate('console.date.placeholder')}
      slotProps={{
        ...slotProps,
        inputLabel: { shrink: true, ...(slotProps?.inputLabel as object) },
        htmlInput: { inputMode: 'numeric', maxLength: 10, autoComplete: 'off', ...(slotProps?.htmlInput as object) },
      }}
    />
  );
}
