import type { ApiModule } from '../../http/api';
import { deviceRoutes } from './deviceRoutes';
import { groupRoutes } from './groupRoutes';
import { importRoutes } from './importRoutes';
import { exportRoutes } from './exportRoutes';
import { activationRoutes } from './activationRoutes';
import { authorizationRoutes } from './authorizationRoutes';
import { subUserGrantRoutes } from './subUserGrantRoutes';

/** Every route file of deviceModule (mounted under /cz/{segment}/deviceModule). */
export const devicesModule: ApiModule = async (app, context) => {
  for (const routes of [deviceRoutes, groupRoutes, importRoutes, exportRoutes, activationRoutes, authorizationRoutes, subUserGrantRoutes])
    await routes(app, context);
};
export { assertFeatureUnlocked } from './featureLock';
