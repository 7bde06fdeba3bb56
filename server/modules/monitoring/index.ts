import type { ApiModule } from '../../http/api';
import { ingestRoutes } from './ingestRoutes';
import { uploadDataRoutes } from './uploadDataRoutes';
import { alarmRoutes } from './alarmRoutes';
import { dashboardRoutes } from './dashboardRoutes';
import { thresholdRoutes } from './thresholdRoutes';

/**
 * Live monitoring, mounted inside the deviceModule entry of app.ts because the alarm query
 * deviceGroup/getAllDeviceUploadDataWithCondition lives under /cz/{segment}/deviceModule.
 */
export const monitoringModule: ApiModule = async (app, context) => {
  for (const routes of [ingestRoutes, uploadDataRoutes, alarmRoutes, dashboardRoutes, thresholdRoutes]) await routes(app, context);
};
export { markOfflineDevices, pruneHistory, pruneReportHistory, type PruneResult, type RetentionOptions } from './retentionQueries';
export { alignOf, sealDailyRollups, sealedUntilMs } from './dailyRollupQueries';
export { buildReportSpans } from './spanRollupQueries';
