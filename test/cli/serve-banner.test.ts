// `gatehouse serve` (what `npm start` runs) tells the person who started it where it
// listens, which database and data folder it uses and what to try next, once, in words;
// and says when it has stopped. On every backend.
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { projectRoot } from '../helpers/project-root.ts';
import { freePort } from '../helpers/ports.ts';
import { settingNames } from '../../src/config/index.ts';

/** Polls the collected output until it matches, with a deadline (never a fixed sleep). */
async function waitFor(output: () => string, pattern: RegExp, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!pattern.test(output())) {
    if (Date.now() > deadline) throw new Error(`no ${what} within 60 s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(backends)('gatehouse serve on $name: start-up banner and shutdown line', { timeout: 120_000 }, ({ name, available }) => {
  let database: TestDatabase;
  let cwd: string;
  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    cwd = mkdtempSync(join(tmpdir(), 'gatehouse-serve-'));
  });
  afterAll(async () => {
    await database?.drop();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it.skipIf(!available)('prints the address, database, data folder, admin and demo hints once to stdout, and a line when SIGTERM stops it', async () => {
    const port = await freePort();
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !(settingNames as string[]).includes(key)) env[key] = value;
    // PORT alone, as `PORT=41000 npm start`; OUTBOUND_ALLOW_PRIVATE=1 as a developer's .env may carry it.
    Object.assign(env, database.env, { DATABASE_URL: database.url, PORT: String(port), LOG_LEVEL: 'warn', OUTBOUND_ALLOW_PRIVATE: '1' });
    // From a folder of its own, as `npm start` in a fresh clone: the data folder is ./data there.
    const child = spawn(process.execPath, [join(projectRoot, 'bin/gatehouse.mjs'), 'serve'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => stdout, /Ctrl\+C stops\.\n/, 'banner');
      expect(stdout).toContain(`Gatehouse 0.1.0 is listening on http://127.0.0.1:${port}\n`);
      // Issue 24: the addresses follow PORT when APP_URL and BASE_URL are unset.
      expect(stdout).toMatch(new RegExp(`^ {2}web pages \\(APP_URL\\): +http://localhost:${port}$`, 'm'));
      expect(stdout).toMatch(new RegExp(`^ {2}API \\(BASE_URL\\): +http://localhost:${port} +\\(issuer; token endpoint http://localhost:${port}/v2/auth/oauth2/token\\)$`, 'm'));
      expect(stdout).not.toContain('localhost:3000');
      // One warning line, a JSON log line at level warn (40), for OUTBOUND_ALLOW_PRIVATE=1.
      const warnings = stdout.split('\n').filter((l) => l.includes('OUTBOUND_ALLOW_PRIVATE'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, msg: expect.stringMatching(/^OUTBOUND_ALLOW_PRIVATE=1: .*development and tests only$/) });
      expect(stdout).toMatch(name === 'sqlite' ? new RegExp(`^ {2}database: +SQLite, ${database.url.slice('sqlite:'.length).replace(/[.]/g, '\\.')}$`, 'm') : /^ {2}database: +PostgreSQL, 127\.0\.0\.1:5432\/\w+$/m);
      expect(stdout).toContain(`  data folder:          ${join(cwd, 'data')}  (holds the generated cookie secret)\n`);
      expect(existsSync(join(cwd, 'data', 'cookie-secret'))).toBe(true);
      expect(stdout).toContain('  No admin yet: npx gatehouse users create --email you@example.com --name "Your Name" --admin\n');
      expect(stdout).toContain('  Try the whole flow:   npx gatehouse demo\n');
      expect(stdout.match(/is listening on/g)).toHaveLength(1);
      // Never a credential of the database.
      if (name === 'postgres') expect(stdout).not.toMatch(/postgres:\/\//);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout.trimEnd().split('\n').at(-1)).toBe('Gatehouse stopped (SIGTERM): requests in flight were answered and the database closed.');
      expect(stderr).toBe('');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
  it.skipIf(!available)('exits 1 when it cannot listen (the port is taken), saying which setting to change, and leaves no background work running', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !(settingNames as string[]).includes(key)) env[key] = value;
      Object.assign(env, database.env, { DATABASE_URL: database.url, PORT: String(port), LOG_LEVEL: 'warn' });
      const child = spawn(process.execPath, [join(projectRoot, 'bin/gatehouse.mjs'), 'serve'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
      try {
        expect(await exited).toBe(1);
      } finally {
        clearTimeout(deadline);
      }
      expect(stderr).toBe(`gatehouse: port ${port} on 127.0.0.1 is already in use: set PORT to a free port, or stop what listens there\n`);
    } finally {
      taken.close();
    }
  });
});
