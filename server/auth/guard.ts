import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/connection';
import { resolveSession } from './sessions';
import type { SessionUser } from './sessionUser';
import { ErrorCode } from '../../src/domain/errorCodes';
import { hasAnyLevel, type Level } from '../../src/domain/levels';
import { BACKGROUND_HEADER } from '../../src/domain/constants';
import { BizError } from '../http/envelope';
import type { SessionCache } from './sessionCache';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser;
    token: string;
  }
  interface FastifyContextConfig {
    /** No token needed (login, health). */
    public?: boolean;
    /** Levels allowed to call the route (docs/requirements.md §6); absent means every logged-in level. */
    levels?: readonly Level[];
    /** Never counts as the user's activity (the live stream: a console opens it by itself). */
    background?: boolean;
  }
}

const BACKGROUND = BACKGROUND_HEADER.toLowerCase();

/**
 * Every /cz route needs a live session unless its config says public. A call marked
 * `X-Background: 1` (a poll the console makes by itself) does not keep the session alive.
 * With a cache (server/auth/sessionCache.ts), a recently checked session costs no query.
 */
export function installSessionGuard(app: FastifyInstance, db: Db, idleMinutes: number, cache?: SessionCache) {
  app.decorateRequest('user', null as unknown as SessionUser);
  app.decorateRequest('token', '');
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const config = request.routeOptions.config;
    if (config.public) return;
    const token = (request.query as Record<string, string | undefined>).token;
    request.user = await resolveSession(db, token, idleMinutes, {
      background: config.background === true || request.headers[BACKGROUND] === '1',
      cache,
    });
    request.token = token!;
    if (config.levels && !hasAnyLevel(request.user, config.levels)) throw new BizError(ErrorCode.Forbidden);
  });
}
