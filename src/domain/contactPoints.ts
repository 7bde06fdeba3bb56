import * as yup from 'yup';
import { blankToUndefined, choiceRule, idRule, optionalPattern, requiredText } from './schemaRules';
import { Level } from './levels';
import type { TableResource } from './tableResource';

/**
 * Contact points: where alarm notifications go besides the console (docs/api.md, "Notifications").
 * One rule for the console's form and the API. The secret (a webhook's signing
 * key, a robot's signing secret, a Telegram bot's token) is written, never answered.
 */
export const CONTACT_CHANNELS = ['email', 'webhook', 'wecom', 'dingtalk', 'feishu', 'telegram'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];

/** The channels whose target is a robot's or receiver's URL; Telegram's is a chat id. */
export const URL_CHANNELS: readonly ContactChannel[] = ['webhook', 'wecom', 'dingtalk', 'feishu'];
/** The channels that cannot work without a secret. */
export const SECRET_CHANNELS: readonly ContactChannel[] = ['webhook', 'telegram'];

const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/;

const isTimeZone = (zone: string | undefined) => {
  if (!zone) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/**
 * Quiet hours in the recipient's zone (HH:MM, may span midnight): what is not critical waits for
 * their end, then goes as one digest. A contact point's, or a user's own (told by mail).
 */
const quietHoursFields = {
  quietFrom: optionalPattern(CLOCK, 'validation.clock'),
  quietTo: optionalPattern(CLOCK, 'validation.clock').test('quiet', 'validation.quietHours', function check(to) {
    const from = this.parent?.quietFrom as string | null | undefined;
    return !from === !to && (!from || from !== to);
  }),
};
export const quietHoursSchema = yup.object(quietHoursFields);

const fields = {
  ownerId: idRule().optional().nullable(),
  name: requiredText(64),
  channel: choiceRule(CONTACT_CHANNELS, 'validation.contactChannel').required('validation.required'),
  target: requiredText(1000).test('target', 'validation.contactTarget', function check(target) {
    const channel = this.parent?.channel as ContactChannel | undefined;
    if (!target || !channel) return true;
    return channel === 'telegram' ? CHAT_ID.test(target) : channel === 'email' ? EMAIL.test(target) : HTTP_URL.test(target);
  }),
  language: choiceRule(['zh', 'en']).required('validation.required'),
  timeZone: requiredText(64).test('zone', 'validation.timeZone', isTimeZone),
  enabled: yup.boolean().typeError('validation.invalid').default(true),
  ...quietHoursFields,
};

const secret = yup.string().transform(blankToUndefined).max(256, 'validation.tooLong').optional().nullable();

export const contactPointSchema = yup.object({
  ...fields,
  secret: secret.when('channel', {
    is: (channel: string) => (SECRET_CHANNELS as readonly string[]).includes(channel),
    then: (s) => s.required('validation.required'),
  }),
});

/** An update may leave the secret empty: the stored one is kept. */
export const updateContactPointSchema = yup.object({ id: idRule().required('validation.required'), ...fields, secret });

/**
 * A channel that signs or logs in with a secret needs one stored: an update that moves a contact
 * point to such a channel, or an add, without a secret and without one stored, is refused.
 */
export function missingSecret(
  input: Record<string, unknown>,
  stored: Record<string, unknown> | null,
): { field: string; message: string }[] {
  const needs = (SECRET_CHANNELS as readonly unknown[]).includes(input.channel);
  const given = typeof input.secret === 'string' && input.secret.trim() !== '';
  return needs && !given && !stored?.secretSet ? [{ field: 'secret', message: 'validation.required' }] : [];
}

/** The console resource's name: its words are under resources.<name>. */
export const CONTACT_POINTS_NAME = 'service/contactPoint';
const EDITORS = [Level.Admin, Level.Enterprise];

/**
 * The server half of Support > Contact points (src/resources/contactPoints/definition.ts): a table
 * scoped by enterprise, written by levels 1 and 2. Here, not in the definition, because the server's
 * test message reads it too.
 */
export const CONTACT_POINTS_TABLE: TableResource = {
  path: '/supportModule/contactPoint',
  table: 'contact_points',
  scope: 'enterprise',
  columns: {
    ownerId: { type: 'integer' },
    name: { type: 'text', notNull: true },
    channel: { type: 'text', notNull: true, choices: `resources.${CONTACT_POINTS_NAME}.channels.` },
    target: { type: 'text', notNull: true },
    secret: { type: 'text', writeOnly: true },
    secretSet: { type: 'boolean', sql: `(t.secret IS NOT NULL AND t.secret <> '')` },
    language: { type: 'text', notNull: true },
    timeZone: { type: 'text', notNull: true },
    enabled: { type: 'boolean', notNull: true },
    quietFrom: { type: 'text' },
    quietTo: { type: 'text' },
  },
  levels: { list: EDITORS, create: EDITORS, edit: EDITORS, delete: EDITORS },
  schema: { create: contactPointSchema, update: updateContactPointSchema },
  unique: [['ownerId', 'name']],
  search: ['name', 'target'],
  filters: ['channel', 'enabled'],
  sortable: ['name', 'channel'],
  audit: 'contactPoint',
  checkWrite: missingSecret,
};
