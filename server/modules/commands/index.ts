import { commandRoutes } from './commandRoutes';

/** Every route file of the commands (mounted under /cz/{segment}/deviceModule). */
export const commandModuleRoutes = [commandRoutes] as const;
export { expireCommands, acknowledgeCommand } from './delivery';
