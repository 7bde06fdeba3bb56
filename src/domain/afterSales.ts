import * as yup from 'yup';
import { isRealDate, idRule } from './schemaRules';
import { DATE_PATTERN } from './deviceSchemas';

/**
 * The after-sales report of docs/requirements.md §3. Field names are the API's, spelled as the
 * vendor's API spells them (FeedbackApartment, Reamrk); every field is required except CustomerSuggestion and Reamrk
 * (docs/requirements.md §5: "必填项" / "required"). The same schema checks the console form and the API.
 */
export const AFTER_SALES_FIELDS = [
  'DeviceModel',
  'DeviceSn',
  'FeedbackApartment',
  'FeedbackPeople',
  'Customer',
  'DeviceNum',
  'DispatchOfData',
  'CustomerSuggestion',
  'Classification',
  'Description',
  'Department',
  'Reamrk',
] as const;
export type AfterSalesField = (typeof AFTER_SALES_FIELDS)[number];
export const AFTER_SALES_OPTIONAL: readonly AfterSalesField[] = ['CustomerSuggestion', 'Reamrk'];

/** The classifications a report is filed under (message keys afterSales.classification.<id>). */
export const AFTER_SALES_CLASSIFICATIONS = ['hardware', 'software', 'installation', 'signal', 'consultation', 'other'] as const;
export type AfterSalesClassification = (typeof AFTER_SALES_CLASSIFICATIONS)[number];

const required = (max: number) => yup.string().trim().required('validation.required').max(max, 'validation.tooLong');
const optional = (max: number) => yup.string().trim().max(max, 'validation.tooLong').optional().nullable();

export const afterSalesSchema = yup.object({
  DeviceModel: required(64),
  DeviceSn: required(64).matches(/^\S+$/, 'validation.snNoSpace'),
  FeedbackApartment: required(64),
  FeedbackPeople: required(64),
  Customer: required(100),
  DeviceNum: required(32),
  DispatchOfData: required(10).matches(DATE_PATTERN, 'validation.date').test('date', 'validation.date', isRealDate),
  CustomerSuggestion: optional(2000),
  Classification: yup
    .string()
    .required('validation.required')
    .oneOf([...AFTER_SALES_CLASSIFICATIONS], 'validation.classification'),
  Description: required(2000),
  Department: required(64),
  Reamrk: optional(2000),
  /** Set when the report was started from a vessel's fault (fault clearing). */
  deviceId: idRule().optional().nullable(),
  faultCode: yup.string().trim().max(8, 'validation.tooLong').optional().nullable(),
});
export type AfterSalesInput = yup.InferType<typeof afterSalesSchema>;

export const updateAfterSalesSchema = afterSalesSchema.shape({
  id: idRule().required('validation.required'),
});

/** The list's filters: dates are YYYY-MM-DD (inclusive), device matches DeviceSn or DeviceNum. */
export const AFTER_SALES_SORTS = [
  'id',
  'DispatchOfData',
  'FeedbackPeople',
  'FeedbackApartment',
  'Classification',
  'Department',
  'createdAt',
] as const;
export const isReportDate = (value: string | undefined): boolean => !!value && DATE_PATTERN.test(value) && isRealDate(value);
