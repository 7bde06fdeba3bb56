import type { ApiModule } from '../../http/api';
import { sessionRoutes } from './sessionRoutes';
import { userRoutes } from './userRoutes';
import { pictureRoutes } from './pictureRoutes';
import { extraLinkRoutes } from './extraLinkRoutes';

/** Users: login, sessions, accounts, pictures and extra links, mounted under /cz/{segment}/users. */
export const usersModule: ApiModule = async (app, context) => {
  await sessionRoutes(app, context);
  await userRoutes(app, context);
  await pictureRoutes(app, context);
  await extraLinkRoutes(app, context);
};
