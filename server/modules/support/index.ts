import { faultClearingRoutes } from './faultClearingRoutes';
import { afterSalesRoutes } from './afterSalesRoutes';
import { permissionGroupRoutes } from './permissionGroupRoutes';
import { settingsRoutes } from './settingsRoutes';
import { auditRoutes } from '../audit/auditRoutes';

/** Every route file of supportModule (mounted under /cz/{segment}/supportModule). */
export const supportRoutes = [faultClearingRoutes, afterSalesRoutes, permissionGroupRoutes, settingsRoutes, auditRoutes] as const;
