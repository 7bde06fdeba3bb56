import { afterAll, describe, expect, it } from 'vitest';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEMO_ACCOUNTS } from '../../server/db/demoAccounts';

/**
 * What a newcomer does: a fresh copy of the repository (no data/, no dist/, no node_modules/),
 * the README's start command exactly as written, the printed address, a demo login through the
 * API, the console at /, then SIGTERM (with the simulator running and an idle keep-alive open):
 * everything must be gone within 5 s.
 */

/** The first command block under "## Start the product" in the README. */
function readmeStartCommand(): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.split(/^## Start the product\s*$/m)[1] ?? '';
  const command = /```sh\n([^\n]+)\n```/.exec(section)?.[1];
  if (!command) throw new Error('README has no start command under "## Start the product"');
  return command;
}

/** The repository as a fresh clone would hold it, with uncommitted edits: tracked and new files, nothing ignored. */
function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-fresh-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    if (!existsSync(file)) continue; // deleted in the work tree
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    cpSync(file, join(dir, file));
  }
  return dir;
}

/** This shell's environment without the server's own settings (a newcomer has none), plus the port. */
function newcomerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of [
    'DATA_DIR',
    'DATABASE_URL',
    'CONSOLE_DIR',
    'FIRMWARE_DIR',
    'SEED_DEMO',
    'SIMULATOR',
    'API_SEGMENT',
    'NODE_ENV',
    'LOG_LEVEL',
  ])
    delete env[key];
  return { ...env, ...extra };
}

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

/** Is any process of the group still alive? */
/**
 * Whether a process of the group still runs. Zombies do not count: a process whose parent died
 * first is reaped by PID 1 whenever that gets to it, which says nothing about the server.
 */
const groupAlive = (pgid: number) =>
  readdirSync('/proc').some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return state !== 'Z' && Number(group) === pgid;
    } catch {
      return false; // ended while we looked
    }
  });

describe('a fresh clone started with the README command', () => {
  let dir = '';
  let child: ChildProcess | undefined;
  let output = '';

  afterAll(() => {
    if (child?.pid && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('installs, builds, starts with demo data, serves the console and stops on SIGTERM within 5 s', async () => {
    dir = freshCopy();
    expect(existsSync(join(dir, 'data'))).toBe(false);
    expect(existsSync(join(dir, 'dist'))).toBe(false);
    const port = await freePort();
    const command = readmeStartCommand();
    child = spawn('bash', ['-c', command], {
      cwd: dir,
      detached: true, // its own process group: npm, the build and the server are stopped together, as Ctrl-C or a service manager would
      env: newcomerEnv({ PORT: String(port), HOST: '127.0.0.1', npm_config_audit: 'false', npm_config_fund: 'false' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child!.on('exit', (code) => done(code)));

    // The printed address, then the simulator's line (it starts after the server listens).
    const started = Date.now();
    while (!/Simulator:/.test(output)) {
      if (Date.now() - started > 600_000) throw new Error(`no start within 10 min:\n${output.slice(-3000)}`);
      if (child.exitCode !== null) throw new Error(`the start command ended with ${child.exitCode}:\n${output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const address = /Fleet console: (http:\/\/\S+)/.exec(output)?.[1];
    expect(address).toBe(`http://127.0.0.1:${port}/`);
    expect(existsSync(join(dir, 'data', 'pglite'))).toBe(true);
    expect(output).toContain('demo data loaded');

    const account = DEMO_ACCOUNTS.find((a) => a.permissionLevel === '2')!;
    const login = await fetch(`${address}cz/test/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: account.name, password: account.password }),
    }).then((r) => r.json() as Promise<{ code: number; data: { token: string } }>);
    expect(login.code).toBe(0);
    const self = await fetch(`${address}cz/test/users/getSelf?token=${login.data.token}`).then(
      (r) => r.json() as Promise<{ data: { name: string } }>,
    );
    expect(self.data.name).toBe(account.name);

    // The console, over a connection that then stays open and idle (keep-alive).
    const agent = new http.Agent({ keepAlive: true });
    const page = await new Promise<{ status: number; body: string }>((done, fail) => {
      http
        .get(address!, { agent }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => done({ status: res.statusCode ?? 0, body }));
        })
        .on('error', fail);
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeTruthy();
    const asset = await fetch(`${address}${script!.slice(1)}`, { headers: { 'accept-encoding': 'br' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Object.keys(agent.sockets).length + Object.keys(agent.freeSockets).length).toBe(1);

    const stopAt = Date.now();
    process.kill(-child.pid!, 'SIGTERM');
    while (groupAlive(child.pid!) && Date.now() - stopAt < 5000) await new Promise((r) => setTimeout(r, 50));
    const stopMs = Date.now() - stopAt;
    agent.destroy();
    expect(groupAlive(child.pid!), `still running ${stopMs} ms after SIGTERM:\n${output.slice(-2000)}`).toBe(false);
    await exited;
    // Asset names such as ErrorCatalogueView-….js are in the build log: look for thrown errors only.
    expect(output).not.toMatch(/ENOENT|\b\w*Error: |Unhandled/);
  });
});
