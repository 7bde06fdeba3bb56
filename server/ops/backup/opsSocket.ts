import { chmod, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ServerConfig } from '../../config';
import type { BackupService } from './backupService';

/**
 * The embedded database's folder belongs to one process. While the server runs, `npm run backup`
 * asks it for the backup over a Unix socket beside that folder (`data/pglite.sock`, owner-only; in the
 * temp folder when that path is too long for a socket), and
 * `npm run restore` refuses to touch the folder. A second server started on the same folder stops.
 */
export function opsSocketPath(config: Pick<ServerConfig, 'dataDir'>): string {
  const beside = `${resolve(config.dataDir)}.sock`;
  // A Unix socket's path holds at most 107 bytes: a deeper data folder gets one in the temp folder, named by its path.
  if (Buffer.byteLength(beside) <= 100) return beside;
  return join(tmpdir(), `fleet-console-${createHash('sha256').update(beside).digest('hex').slice(0, 16)}.sock`);
}

/** Whether the embedded database's folder has a running server (false for PostgreSQL and memory://). */
export const hasOpsSocket = (config: Pick<ServerConfig, 'databaseUrl' | 'dataDir'>) =>
  !config.databaseUrl && !!config.dataDir && config.dataDir !== 'memory://';

/** What the socket answers: a backup's file, size and table count, or an error. */
export interface OpsAnswer {
  ok?: boolean;
  file?: string;
  sizeBytes?: number;
  tables?: number;
  error?: string;
}

/** Sends one request to the running server; null when no server answers on the socket. */
export function askServer(
  config: Pick<ServerConfig, 'dataDir'>,
  path: string,
  body: unknown = {},
): Promise<{ status: number; data: OpsAnswer } | null> {
  return new Promise((done, fail) => {
    const payload = JSON.stringify(body);
    const req = httpRequest(
      {
        socketPath: opsSocketPath(config),
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => done({ status: res.statusCode ?? 500, data: (text ? JSON.parse(text) : {}) as OpsAnswer }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => (['ENOENT', 'ECONNREFUSED'].includes(error.code ?? '') ? done(null) : fail(error)));
    req.end(payload);
  });
}

/** Listens on the socket (after making sure no other server does); resolves to its close. */
export async function listenOpsSocket(config: ServerConfig, backups: BackupService): Promise<() => Promise<void>> {
  const path = opsSocketPath(config);
  if (await askServer(config, '/ping')) throw new Error(`Another server is running on the data folder ${resolve(config.dataDir)}`);
  await rm(path, { force: true }); // left by a server that was killed
  const server: Server = createServer((req, res) => {
    const reply = (status: number, data: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/ping') return reply(200, { ok: true });
      if (req.url !== '/backup') return reply(404, { error: 'not found' });
      const { to } = (text ? JSON.parse(text) : {}) as { to?: string };
      backups.run('manual', to).then(
        (result) => reply(200, { file: result.file, sizeBytes: result.sizeBytes, tables: result.manifest.tables.length }),
        (error: Error) => reply(500, { error: error.message }),
      );
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(path, () => done());
  });
  await chmod(path, 0o600);
  return () => new Promise<void>((done) => server.close(() => done()));
}
