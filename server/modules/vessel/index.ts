import type { ApiModule } from '../../http/api';
import { coverageRoutes } from './coverageRoutes';
import { detailRoutes } from './detailRoutes';
import { linkRoutes } from './linkRoutes';
import { statisticsRoutes } from './statisticsRoutes';
import { voyageRoutes } from './voyageRoutes';

/**
 * Vessel history pages: device detail data, time statistics and the current voyage (voyages and
 * cameras are declared resources: src/resources/voyages, src/resources/cameras),
 * mounted inside the deviceModule entry of app.ts (/cz/{segment}/deviceModule/...).
 */
export const vesselModule: ApiModule = async (app, context) => {
  for (const routes of [coverageRoutes, detailRoutes, linkRoutes, statisticsRoutes, voyageRoutes]) await routes(app, context);
};
export { currentVoyage } from './voyageQueries';
export { buildCoverage } from './coverageBuildQueries';
export { checkDegradeAhead } from './degradeJob';
