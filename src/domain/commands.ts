import * as yup from 'yup';
import { idRule } from './schemaRules';
import { SATELLITE_NAMES } from './satellites';

/**
 * Commands to antennas: what an operator can ask a terminal to do, the states a command
 * goes through, and the one rule (yup) the API and the console's Commands section validate with.
 */
export const COMMAND_KINDS = ['reboot', 'repoint', 'setInterval', 'diagnostics', 'firmwareCheck'] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

/** Kinds that interrupt the vessel's link (a reboot drops it, a re-point re-acquires): the console asks for confirmation first. */
export const DISRUPTIVE_COMMAND_KINDS: readonly CommandKind[] = ['reboot', 'repoint'];
export const isDisruptive = (kind: string): boolean => (DISRUPTIVE_COMMAND_KINDS as readonly string[]).includes(kind);

/**
 * queued: stored, the device not reached yet; sent: published to the device (QoS 1);
 * acknowledged / failed: the device answered; expired: its deadline passed first;
 * cancelled: withdrawn by an operator while still queued. A reboot is not over at its ack: it
 * stays acknowledged while the vessel is down (the vessel is "rebooting") and becomes done when
 * the vessel is back (it connects again), or failed when it is not back within REBOOT_BACK_WITHIN_MIN.
 */
export const COMMAND_STATES = ['queued', 'sent', 'acknowledged', 'done', 'failed', 'expired', 'cancelled'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];
/** States a command can still leave (the console keeps polling while one of these is listed). */
export const OPEN_COMMAND_STATES: readonly CommandState[] = ['queued', 'sent'];
/** How long a rebooted vessel has to come back (connect again) before its reboot is failed. */
export const REBOOT_BACK_WITHIN_MIN = 10;
/** A reboot the vessel acknowledged and is carrying out: the vessel is down until it connects again. */
export const isRebooting = (c: Pick<DeviceCommand, 'kind' | 'state'>): boolean => c.kind === 'reboot' && c.state === 'acknowledged';
/** Whether a command may still change state (queued, sent, or a reboot under way). */
export const isOpenCommand = (c: Pick<DeviceCommand, 'kind' | 'state'>): boolean => OPEN_COMMAND_STATES.includes(c.state) || isRebooting(c);

/**
 * The report interval a terminal may be set to: 5 s (the fastest a satellite link should be asked
 * to carry reports) to 1 h (slower and the offline threshold, 10 min by default, would fire).
 */
export const REPORT_INTERVAL_MIN_S = 5;
export const REPORT_INTERVAL_MAX_S = 3600;

/** How long a command waits for its device: 10 min unless given, 1 min to 24 h. */
export const COMMAND_DEADLINE_DEFAULT_MIN = 10;
export const COMMAND_DEADLINE_MIN_MIN = 1;
export const COMMAND_DEADLINE_MAX_MIN = 24 * 60;

const satelliteRule = yup
  .string()
  .trim()
  .required('validation.required')
  .oneOf([...SATELLITE_NAMES], 'validation.commandSatellite');
const secondsRule = yup
  .number()
  .typeError('validation.commandInterval')
  .required('validation.required')
  .integer('validation.commandInterval')
  .min(REPORT_INTERVAL_MIN_S, 'validation.commandInterval')
  .max(REPORT_INTERVAL_MAX_S, 'validation.commandInterval');

/** Each kind's parameters (unknown keys are dropped). */
export const COMMAND_PARAMS: Record<CommandKind, yup.AnyObjectSchema> = {
  reboot: yup.object({}),
  repoint: yup.object({ satellite: satelliteRule }),
  setInterval: yup.object({ seconds: secondsRule }),
  diagnostics: yup.object({}),
  firmwareCheck: yup.object({}),
};

/** A new command: deviceId, kind, its params, and optionally its deadline in minutes from now. */
export const commandSchema = yup.object({
  deviceId: idRule().required('validation.required'),
  kind: yup
    .string()
    .required('validation.required')
    .oneOf([...COMMAND_KINDS], 'validation.commandKind'),
  params: yup
    .object()
    .default({})
    .when(
      'kind',
      ([kind]: unknown[], schema) =>
        ((COMMAND_KINDS as readonly unknown[]).includes(kind) ? COMMAND_PARAMS[kind as CommandKind].default({}) : schema) as typeof schema,
    ),
  deadlineMinutes: yup
    .number()
    .transform((v: number, raw: unknown) => (raw === '' ? undefined : v))
    .typeError('validation.commandDeadline')
    .integer('validation.commandDeadline')
    .min(COMMAND_DEADLINE_MIN_MIN, 'validation.commandDeadline')
    .max(COMMAND_DEADLINE_MAX_MIN, 'validation.commandDeadline')
    .optional()
    .nullable(),
});
export type CommandInput = yup.InferType<typeof commandSchema>;

/** A command as the API returns it (command/getAll, getById, add, cancel). */
export interface DeviceCommand {
  id: number;
  deviceId: number;
  deviceName: string;
  deviceNum: string | null;
  kind: CommandKind;
  params: Record<string, unknown>;
  state: CommandState;
  createdBy: number | null;
  createdByName: string | null;
  createdAt: string;
  sentAt: string | null;
  ackedAt: string | null;
  /** When a reboot ended: the vessel was back (state done). */
  doneAt: string | null;
  deadline: string;
  message: string | null;
  result: Record<string, unknown> | null;
}

/** What travels to the device on fleet/{deviceNum}/cmd (docs/devices.md). */
export interface CommandPayload {
  id: number;
  kind: CommandKind;
  params: Record<string, unknown>;
  deadline: string;
}
