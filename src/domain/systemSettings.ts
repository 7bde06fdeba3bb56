import * as yup from 'yup';
import { DEFAULT_SIZE } from './constants';

/**
 * Console settings kept by the server for everyone (System > preference): the alarm bell's poll
 * interval (the configured warn-message refresh time, in seconds; docs/requirements.md §7) and the default size.
 */
export const SIZES = ['mini', 'small', 'medium'] as const;
export type Size = (typeof SIZES)[number];
export const WARN_REFRESH_MIN = 5;
export const WARN_REFRESH_MAX = 3600;
export const DEFAULT_WARN_REFRESH_SECONDS = 30;

export interface ConsoleSettings {
  warnRefreshSeconds: number;
  defaultSize: Size;
}
export const DEFAULT_CONSOLE_SETTINGS: ConsoleSettings = {
  warnRefreshSeconds: DEFAULT_WARN_REFRESH_SECONDS,
  defaultSize: DEFAULT_SIZE as Size,
};

export const consoleSettingsSchema = yup.object({
  warnRefreshSeconds: yup
    .number()
    .typeError('validation.warnRefresh')
    .integer('validation.warnRefresh')
    .min(WARN_REFRESH_MIN, 'validation.warnRefresh')
    .max(WARN_REFRESH_MAX, 'validation.warnRefresh')
    .optional(),
  defaultSize: yup
    .string()
    .typeError('validation.size')
    .oneOf([...SIZES], 'validation.size')
    .optional(),
});

/** A device's, an enterprise's or the server's offline threshold in minutes (monitor/setOfflineThreshold, updateSettings). */
export const OFFLINE_MINUTES_MIN = 1;
export const OFFLINE_MINUTES_MAX = 10080;
export const offlineMinutesRule = () =>
  yup
    .number()
    .typeError('validation.offlineMinutes')
    .integer('validation.offlineMinutes')
    .min(OFFLINE_MINUTES_MIN, 'validation.offlineMinutes')
    .max(OFFLINE_MINUTES_MAX, 'validation.offlineMinutes');

/** Days something is kept (history retention, report files): a whole number from 1 to 3650. */
export const KEEP_DAYS_MAX = 3650;
export const keepDaysRule = () =>
  yup
    .number()
    .typeError('validation.keepDays')
    .integer('validation.keepDays')
    .min(1, 'validation.keepDays')
    .max(KEEP_DAYS_MAX, 'validation.keepDays');

export const isSize = (v: unknown): v is Size => (SIZES as readonly unknown[]).includes(v);
