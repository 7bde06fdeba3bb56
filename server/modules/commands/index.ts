import type { ApiModule } from '../../http/api';
import { commandRoutes } from './commandRoutes';

/** Every route file of the commands (mounted under /cz/{segment}/deviceModule). */
export const commandsModule: ApiModule = async (app, context) => {
  await commandRoutes(app, context);
};
export { expireCommands, acknowledgeCommand } from './delivery';
