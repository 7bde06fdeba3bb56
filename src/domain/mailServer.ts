import * as yup from 'yup';
import { Level } from './levels';
import { blankToUndefined, idRule, optionalText, requiredText } from './schemaRules';
import type { TableResource } from './tableResource';

/**
 * The mail server alarm mails go through (docs/api.md, "Notifications"): SMTP host, port, TLS,
 * login and sender, kept by level 1 for the whole product. The first enabled row is used; its
 * password is written, never answered.
 */
export const MAIL_SERVER_NAME = 'service/mailServer';

const fields = {
  name: requiredText(64),
  host: requiredText(255).matches(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, 'validation.host'),
  port: idRule().min(1, 'validation.outOfRange').max(65535, 'validation.outOfRange').required('validation.required'),
  secure: yup.boolean().typeError('validation.invalid').default(false),
  userName: optionalText(255),
  fromAddress: requiredText(255).email('validation.email'),
  enabled: yup.boolean().typeError('validation.invalid').default(true),
};
const password = yup.string().transform(blankToUndefined).max(256, 'validation.tooLong').optional().nullable();

export const mailServerSchema = yup.object({ ...fields, password });
export const updateMailServerSchema = yup.object({ id: idRule().required('validation.required'), ...fields, password });

const ADMIN = [Level.Admin];

export const MAIL_SERVER_TABLE: TableResource = {
  path: '/supportModule/mailServer',
  table: 'mail_servers',
  scope: 'global',
  columns: {
    name: { type: 'text', notNull: true },
    host: { type: 'text', notNull: true },
    port: { type: 'integer', notNull: true },
    secure: { type: 'boolean', notNull: true },
    userName: { type: 'text' },
    password: { type: 'text', writeOnly: true },
    passwordSet: { type: 'boolean', sql: `(t.password IS NOT NULL AND t.password <> '')` },
    fromAddress: { type: 'text', notNull: true },
    enabled: { type: 'boolean', notNull: true },
  },
  levels: { list: ADMIN, create: ADMIN, edit: ADMIN, delete: ADMIN },
  schema: { create: mailServerSchema, update: updateMailServerSchema },
  unique: [['name']],
  search: ['name', 'host'],
  sortable: ['name'],
  audit: 'mailServer',
};
