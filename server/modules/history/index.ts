import type { ApiModule } from '../../http/api';
import { trackRoutes } from './trackRoutes';
import { locationRoutes } from './locationRoutes';

/** History: location track and device location, mounted under deviceModule in app.ts. */
export const historyModule: ApiModule = async (app, context) => {
  await trackRoutes(app, context);
  await locationRoutes(app, context);
};
