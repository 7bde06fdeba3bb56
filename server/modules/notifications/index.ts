import type { ApiModule } from '../../http/api';
import { testSendRoutes } from './testSendRoutes';
import { acknowledgeRoutes } from './acknowledgeRoutes';
import { subscribeRoutes } from './subscribeRoutes';
import { quietHoursRoutes } from './quietHoursRoutes';

/**
 * Notifications (docs/api.md, "Notifications"), mounted under supportModule. Contact points
 * themselves are a declared resource (src/resources/contactPoints/definition.ts); this module adds
 * what is not CRUD: the test message, the acknowledge link's page, a sub-user's subscription to a rule
 * and a user's own quiet hours.
 */
export const notificationsModule: ApiModule = async (app, context) => {
  await testSendRoutes(app, context);
  await acknowledgeRoutes(app, context);
  await subscribeRoutes(app, context);
  await quietHoursRoutes(app, context);
};
