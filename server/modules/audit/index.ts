import type { ApiModule } from '../../http/api';
import { auditRoutes } from './auditRoutes';

/** The audit log's reading and export routes, mounted under /cz/{segment}/supportModule; app.ts installs the recorder. */
export const auditModule: ApiModule = async (app, context) => {
  await auditRoutes(app, context);
};
export { installAuditLog } from './auditRecorder';
