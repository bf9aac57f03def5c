// SECURITY.md: files that hold secrets — the SQLite database and its WAL, backups, the generated
// cookie secret — are created readable by their owner only (0600), whatever the umask; a
// folder Gatehouse creates for them is its owner's only (0700). The database holds webhook
// and events signing secrets in plain text. Real processes under umask 022,
// the common default that made them 0644.
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { runCliProcess } from '../helpers/cli-process.ts';
import { startServe, stopServe, type ServeProcess } from '../helpers/serve-process.ts';
import { freePort } from '../helpers/ports.ts';

const UMASK = '022';
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe.each(backends)('files that hold secrets on $name (SECURITY.md)', { timeout: 120_000 }, ({ name, available }) => {
  let cwd: string;
  let database: TestDatabase | undefined;
  let server: ServeProcess | undefined;
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'gatehouse-modes-'));
  });
  afterAll(async () => {
    await stopServe(server);
    await database?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  /** `gatehouse serve` from `cwd` under umask 022, generating its cookie and signing keys secrets. */
  const serve = async (databaseUrl: string, env: Record<string, string> = {}) =>
    (server = await startServe(await freePort(), { DATABASE_URL: databaseUrl, COOKIE_SECRET: undefined, SIGNING_KEYS_SECRET: undefined, ...env }, { cwd, umask: UMASK }));

  it.skipIf(!available)('serve under umask 022 creates the data folder 0700 and the cookie and signing keys secrets 0600, nothing else; on SQLite the database, its WAL and shared memory 0600 in a folder 0700', async () => {
    let url: string;
    if (name === 'sqlite') {
      url = `sqlite:${join(cwd, 'db', 'gatehouse.db')}`;
    } else {
      // A first start, which seals its first signing keys under the secret it generates.
      database = await createTestDatabase(name, { firstStart: true });
      url = database.url;
    }
    await serve(url);
    expect(modeOf(join(cwd, 'data'))).toBe('700');
    expect(readdirSync(join(cwd, 'data')).sort()).toEqual(['cookie-secret', 'signing-keys-secret']);
    expect(modeOf(join(cwd, 'data', 'cookie-secret'))).toBe('600');
    expect(modeOf(join(cwd, 'data', 'signing-keys-secret'))).toBe('600');
    if (name === 'sqlite') {
      expect(modeOf(join(cwd, 'db'))).toBe('700');
      // The migrations wrote through the WAL, and the serving process holds the shared memory.
      for (const file of ['gatehouse.db', 'gatehouse.db-wal', 'gatehouse.db-shm']) expect([file, modeOf(join(cwd, 'db', file))]).toEqual([file, '600']);
    }
    await stopServe(server);
  });

  it.skipIf(!available || name !== 'sqlite')('backup under umask 022 writes the copy 0600', async () => {
    const backup = await runCliProcess(['backup', join(cwd, 'copy.db'), '--json'], { env: { DATABASE_URL: `sqlite:${join(cwd, 'db', 'gatehouse.db')}` }, umask: UMASK });
    expect(backup.code, backup.stderr).toBe(0);
    expect(modeOf(join(cwd, 'copy.db'))).toBe('600');
  });

  it.skipIf(!available || name !== 'sqlite')('files left readable by others (an older version, under umask 022) are made 0600 at start, and the log says so', async () => {
    const db = join(cwd, 'db', 'gatehouse.db');
    // A clean stop removed the WAL and shared memory: these stand for the ones a crash leaves.
    for (const file of [db, `${db}-wal`, `${db}-shm`, join(cwd, 'data', 'cookie-secret')]) {
      if (!existsSync(file)) writeFileSync(file, '');
      chmodSync(file, 0o644);
    }
    const running = await serve(`sqlite:${db}`);
    for (const file of [db, `${db}-wal`, `${db}-shm`, join(cwd, 'data', 'cookie-secret')]) expect([file, modeOf(file)]).toEqual([file, '600']);
    const log = running.output.join('');
    expect(log).toContain(`${db} was readable by others (mode 644): it is now readable by its owner only (600)`);
    expect(log).toContain(`${join(cwd, 'data', 'cookie-secret')} was readable by others (mode 644)`);
    await stopServe(server);
  });
});
