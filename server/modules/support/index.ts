import type { ApiModule } from '../../http/api';
import { faultClearingRoutes } from './faultClearingRoutes';
import { afterSalesRoutes } from './afterSalesRoutes';
import { permissionGroupRoutes } from './permissionGroupRoutes';
import { settingsRoutes } from './settingsRoutes';
import { backupRoutes } from './backupRoutes';

/** Every route file of supportModule (mounted under /cz/{segment}/supportModule; the audit module is mounted there too). */
export const supportModule: ApiModule = async (app, context) => {
  for (const routes of [faultClearingRoutes, afterSalesRoutes, permissionGroupRoutes, settingsRoutes, backupRoutes])
    await routes(app, context);
};
