import type { ApiModule } from '../../http/api';
import { dataPlanRoutes } from './dataPlanRoutes';

/** Data plans and usage (docs/api.md, "dataPlan"), mounted inside the deviceModule entry of app.ts. */
export const dataPlansModule: ApiModule = async (app, context) => {
  await dataPlanRoutes(app, context);
};
export { sweepDataPeriods, settleDataUsage } from './dataUsageQueries';
