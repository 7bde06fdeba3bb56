/**
 * The names of the resources whose queries something outside the views refreshes (src/live/
 * invalidations.ts). react-admin keys a resource's lists and records by its name, so the name is
 * also the query key prefix; the resource definitions take their names from here.
 */
export const DEVICES_RESOURCE = 'system/deviceManagement';
export const COMMANDS_RESOURCE = 'device/command';
