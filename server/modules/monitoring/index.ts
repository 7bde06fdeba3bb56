import { ingestRoutes } from './ingestRoutes';
import { uploadDataRoutes } from './uploadDataRoutes';
import { alarmRoutes } from './alarmRoutes';
import { dashboardRoutes } from './dashboardRoutes';
import { thresholdRoutes } from './thresholdRoutes';

/**
 * Live monitoring (issue 5), mounted inside the deviceModule entry of app.ts because SPEC's
 * deviceGroup/getAllDeviceUploadDataWithCondition lives under /cz/{segment}/deviceModule.
 */
export const monitoringRoutes = [ingestRoutes, uploadDataRoutes, alarmRoutes, dashboardRoutes, thresholdRoutes] as const;
export { markOfflineDevices, pruneHistory, pruneReportHistory, type PruneResult, type RetentionOptions } from './retention';
