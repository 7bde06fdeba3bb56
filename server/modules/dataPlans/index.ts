import { dataPlanRoutes } from './dataPlanRoutes';

/** Data plans and usage (issue 17 part 4), mounted inside the deviceModule entry of app.ts. */
export const dataPlanModuleRoutes = [dataPlanRoutes] as const;
export { sweepDataPeriods, settleDataUsage } from './dataUsage';
