import type { ApiModule } from '../../http/api';
import { detailRoutes } from './detailRoutes';
import { statisticsRoutes } from './statisticsRoutes';
import { voyageRoutes } from './voyageRoutes';
import { cameraRoutes } from './cameraRoutes';

/**
 * Vessel history pages: device detail data, time statistics, voyages and cameras,
 * mounted inside the deviceModule entry of app.ts (/cz/{segment}/deviceModule/...).
 */
export const vesselModule: ApiModule = async (app, context) => {
  for (const routes of [detailRoutes, statisticsRoutes, voyageRoutes, cameraRoutes]) await routes(app, context);
};
export { currentVoyage } from './voyageQueries';
