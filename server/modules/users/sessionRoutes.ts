import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { loginSchema } from '../../../src/domain/userSchemas';
import { BizError, languageOf, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery, userObject } from '../../http/schemas';
import { dummyPasswordHash, verifyPassword } from '../../auth/password';
import { endSession, startSession } from '../../auth/sessions';
import { addressKey, attemptFailed, attemptSucceeded, takeAttempt } from '../../auth/loginThrottle';
import * as q from './userQueries';

const tags = ['users'];

/**
 * Login, logout and the caller's own account: the session half of the users module of
 * docs/requirements.md §7 (docs/api.md, "users"); login throttling in docs/architecture.md.
 */
export async function sessionRoutes(app: Api, { db, config }: ServerContext) {
  const unknownUserHash = dummyPasswordHash();
  app.post(
    '/login',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Log in (form-encoded name, password); ends any other live session of the account',
        consumes: ['application/x-www-form-urlencoded'],
        body: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            password: { type: 'string' },
            ip: { type: 'string' },
            timeZone: {
              type: 'integer',
              minimum: -12,
              maximum: 14,
              description: "the console's UTC offset in hours: the user's notifications use it",
            },
          },
        },
        response: envelope({ type: 'object', properties: { token: { type: 'string' } } }),
      },
    },
    async (request) => {
      const { name, password } = parseWith(loginSchema, request.body);
      // The socket's address (no trustProxy): the form's `ip` field is the client's word, not used.
      const address = addressKey(request.ip);
      const limits = {
        maxFailures: config.loginMaxFailures,
        nameMaxFailures: config.loginNameMaxFailures,
        lockMinutes: config.loginLockMinutes,
      };
      // The attempt is counted before the password is checked, so concurrent guesses cannot outrun the lock.
      const attempt = await takeAttempt(db, name, address, limits);
      const user = await q.findCredentials(db, name);
      // An unknown name is checked against a dummy hash of the same cost: the time does not tell it apart.
      const valid = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash));
      if (!user || !valid)
        throw new BizError(ErrorCode.LoginFailed, 'error.loginFailed', { remainingAttempts: attemptFailed(attempt, limits) });
      await attemptSucceeded(db, attempt, limits);
      // Mails to this user (alarm rules) speak its console's language and time.
      await q.recordReaderSettings(db, user.id, languageOf(request), request.body.timeZone ?? null);
      return ok({ token: await startSession(db, user.id) });
    },
  );

  app.post(
    '/logout',
    { schema: { tags, summary: 'End this session', querystring: { type: 'object', properties: tokenQuery }, response: envelope() } },
    async (request) => {
      await endSession(db, request.token);
      return ok(null);
    },
  );

  app.get(
    '/getSelf',
    {
      schema: {
        tags,
        summary: 'The logged-in user',
        querystring: { type: 'object', properties: tokenQuery },
        response: envelope(userObject),
      },
    },
    async (request) => {
      return ok(request.user);
    },
  );
}
