import { detailRoutes } from './detailRoutes';
import { statisticsRoutes } from './statisticsRoutes';
import { voyageRoutes } from './voyageRoutes';
import { cameraRoutes } from './cameraRoutes';

/**
 * Vessel history pages (issue 6): device detail data, time statistics, voyages and cameras,
 * mounted inside the deviceModule entry of app.ts (/cz/{segment}/deviceModule/...).
 */
export const vesselRoutes = [detailRoutes, statisticsRoutes, voyageRoutes, cameraRoutes] as const;
export { currentVoyage } from './voyageQueries';
