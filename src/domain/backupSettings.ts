import * as yup from 'yup';

/**
 * The nightly backup (System > preference, level 1; docs/architecture.md, "Backup and restore"):
 * on or off, the hour it starts (UTC), and how many backups the folder keeps.
 */
export const BACKUP_KEEP_MIN = 1;
export const BACKUP_KEEP_MAX = 365;

export interface BackupSettings {
  nightly: boolean;
  hourUtc: number;
  keepCount: number;
}

export interface BackupRunItem {
  kind: 'nightly' | 'manual';
  startedAt: string;
  finishedAt: string;
  ok: boolean;
  file: string | null;
  sizeBytes: number | null;
  tables: number | null;
  message: string | null;
}

export interface BackupStatus {
  settings: BackupSettings;
  /** The newest runs first. */
  runs: BackupRunItem[];
  /** A backup in progress: its kind and start. */
  running: { kind: 'nightly' | 'manual'; startedAt: string } | null;
  engine: 'pglite' | 'postgres';
  folder: string;
}

export const backupSettingsSchema = yup.object({
  nightly: yup.boolean().typeError('validation.backupNightly').required('validation.backupNightly'),
  hourUtc: yup
    .number()
    .typeError('validation.backupHour')
    .integer('validation.backupHour')
    .min(0, 'validation.backupHour')
    .max(23, 'validation.backupHour')
    .required('validation.backupHour'),
  keepCount: yup
    .number()
    .typeError('validation.backupKeep')
    .integer('validation.backupKeep')
    .min(BACKUP_KEEP_MIN, 'validation.backupKeep')
    .max(BACKUP_KEEP_MAX, 'validation.backupKeep')
    .required('validation.backupKeep'),
});
