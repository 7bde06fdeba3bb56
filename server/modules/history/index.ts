import { trackRoutes } from './trackRoutes';
import { locationRoutes } from './locationRoutes';

/** History (issue 6): location track and device location, mounted under deviceModule in app.ts. */
export const historyRoutes = [trackRoutes, locationRoutes] as const;
