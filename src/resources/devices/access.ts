import { Level } from '../../domain/levels';

/** Levels that may create, edit, delete, import and group devices (a sub-user only looks: deviceRoutes.ts DEVICE_EDITORS). */
export const canEditDevices = (level: string | null) => level === Level.Admin || level === Level.Enterprise;
