import * as yup from 'yup';
import { idRule } from './schemaRules';
import { LEVELS, Level } from './levels';

/** The user rules of docs/requirements.md §5, written once for the console's forms and the server. */
export const NAME_PATTERN = /^[a-z]{2,16}$/;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 18;

export const nameRule = yup.string().trim().required('validation.nameRequired').matches(NAME_PATTERN, 'validation.namePattern');

export const passwordRule = yup
  .string()
  .required('validation.passwordLength')
  .min(PASSWORD_MIN, 'validation.passwordLength')
  .max(PASSWORD_MAX, 'validation.passwordLength');

export const emailRule = yup
  .string()
  .trim()
  .transform((v: string) => (v === '' ? undefined : v))
  .email('validation.email')
  .max(100, 'validation.tooLong')
  .optional();

const optionalText = (max: number) => yup.string().trim().max(max, 'validation.tooLong').optional().nullable();

const profileFields = {
  nickname: optionalText(32),
  department: optionalText(64),
  sex: yup.string().oneOf(['male', 'female', 'unknown', ''], 'validation.required').optional().nullable(),
  email: emailRule.nullable(),
  signature: optionalText(200),
  company: optionalText(100),
  userType: optionalText(32),
};

const levelRule = yup
  .string()
  .oneOf([...LEVELS], 'validation.level')
  .required('validation.required');

const parentRule = yup
  .number()
  .integer('validation.integer')
  .nullable()
  .when('permissionLevel', {
    is: Level.SubUser,
    then: (s) => s.required('validation.parentRequired'),
    otherwise: (s) => s.optional(),
  });

const confirmRule = yup
  .string()
  .required('validation.passwordLength')
  .oneOf([yup.ref('password')], 'validation.passwordMismatch');

export const addUserSchema = yup.object({
  name: nameRule,
  password: passwordRule,
  repassword: confirmRule,
  permissionLevel: levelRule,
  parentId: parentRule,
  ...profileFields,
});

export const updateUserSchema = yup.object({
  id: idRule().required('validation.required'),
  name: nameRule.optional(),
  permissionLevel: yup
    .string()
    .oneOf([...LEVELS], 'validation.level')
    .optional(),
  parentId: idRule().nullable().optional(),
  ...profileFields,
});

export const passwordChangeSchema = yup.object({
  password: passwordRule,
  repassword: confirmRule,
});

export const loginSchema = yup.object({
  name: yup.string().trim().required('validation.nameRequired'),
  password: yup.string().required('validation.required'),
});

export const extraLinkSchema = yup.object({
  content: yup.string().max(2000, 'validation.tooLong').defined('validation.required'),
});

export type AddUserInput = yup.InferType<typeof addUserSchema>;
export type UpdateUserInput = yup.InferType<typeof updateUserSchema>;
