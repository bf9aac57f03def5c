// `gatehouse backup FILE` (docs/rules.md#cli): a consistent copy of a SQLite database
// taken while the server serves a load; a second server started on the copy honours the
// tokens issued before the backup. On PostgreSQL the command refuses and names pg_dump.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { createTestDatabase, postgresUrl, type TestDatabase } from '../helpers/backends.ts';
import { runCliProcess } from '../helpers/cli-process.ts';
import { expectOneLineRefusal, runCli } from '../helpers/cli.ts';
import { Application, pairOf, seedApplication, startServe, stopServe, type ServeProcess, type TokenPair } from '../helpers/serve-process.ts';
import { halfWritten, sqliteIntegrity } from '../helpers/rows.ts';
import { freePort } from '../helpers/ports.ts';

describe('gatehouse backup (docs/rules.md#cli)', { timeout: 180_000 }, () => {
  let database: TestDatabase | undefined;
  let dir: string | undefined;
  const servers: ServeProcess[] = [];
  afterAll(async () => {
    for (const s of servers) await stopServe(s);
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('copies a SQLite database under load; a server on the copy honours the tokens issued before', async () => {
    database = await createTestDatabase('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-backup-'));
    const { user, client } = await seedApplication(createServiceContext(database.handle.db, Date.now, testServiceOptions));
    const env = { DATABASE_URL: database.url, AUTH_CODE_TTL_SECONDS: '900' };
    const original = await startServe(await freePort(), env);
    servers.push(original);
    const app = new Application(original.url, client);
    const codes = await app.codes(user, 30);
    const before: TokenPair[] = [];
    for (const code of codes.splice(0, 6)) before.push(pairOf(await app.exchange(code)));

    // The load: exchanges and refresh rotations until the backup is done.
    let loading = true;
    let answeredDuringBackup = 0;
    const load = async () => {
      let chain = pairOf(await app.exchange(codes.shift()!));
      while (loading) {
        const code = codes.shift();
        if (code !== undefined) pairOf(await app.exchange(code));
        chain = pairOf(await app.refresh(chain.refresh));
        answeredDuringBackup++;
      }
    };
    const loaders = [load(), load()];
    const copy = join(dir, 'copy.db');
    // A process of its own, as an operator runs it beside the server: the load goes on meanwhile.
    const backup = await runCliProcess(['backup', copy, '--json'], { env: { DATABASE_URL: database.url } });
    const servedMeanwhile = answeredDuringBackup;
    loading = false;
    await Promise.all(loaders);
    expect(servedMeanwhile, 'the server kept serving while the backup ran').toBeGreaterThan(0);
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ file: copy, pages: expect.any(Number) });

    // The copy is a whole database as of one commit.
    const copied = openDatabase(`sqlite:${copy}`);
    try {
      expect(await sqliteIntegrity(copied.db)).toBe('ok');
      expect((await halfWritten(copied.db)).grantsWithUnpairedTokens).toEqual([]);
    } finally {
      await copied.close();
    }

    // A second server on the copy: the tokens issued before the backup work there.
    const restored = await startServe(await freePort(), { DATABASE_URL: `sqlite:${copy}` });
    servers.push(restored);
    const onCopy = new Application(restored.url, client);
    for (const pair of before) {
      expect(await onCopy.me(pair.access)).toBe(200);
      expect(await onCopy.me(pairOf(await onCopy.refresh(pair.refresh)).access)).toBe(200);
    }
  });

  it.skipIf(postgresUrl === undefined)('on PostgreSQL refuses in one line that points to pg_dump, and writes nothing', async () => {
    const pgDatabase = await createTestDatabase('postgres');
    const target = join(mkdtempSync(join(tmpdir(), 'gatehouse-backup-pg-')), 'copy.db');
    try {
      const result = await runCli(['backup', target], { env: { DATABASE_URL: pgDatabase.url } });
      expectOneLineRefusal(result, /^gatehouse: backup copies a SQLite database; for PostgreSQL use pg_dump/);
      expect(existsSync(target)).toBe(false);
    } finally {
      await pgDatabase.drop();
    }
  });

  it('refuses a database that does not exist rather than copying an empty one, in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-backup-none-'));
    try {
      const result = await runCli(['backup', join(dir, 'copy.db')], { env: { DATABASE_URL: `sqlite:${join(dir, 'missing.db')}` } });
      expectOneLineRefusal(result, /^gatehouse: there is no SQLite database at .+missing\.db$/);
      expect(existsSync(join(dir, 'missing.db'))).toBe(false);
      expect(existsSync(join(dir, 'copy.db'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file that exists, in one line that names --force, and leaves it as it was; --force replaces it', async () => {
    const db = await createTestDatabase('sqlite');
    const folder = mkdtempSync(join(tmpdir(), 'gatehouse-backup-exists-'));
    const target = join(folder, 'copy.db');
    try {
      writeFileSync(target, 'yesterday\'s backup');
      expectOneLineRefusal(await runCli(['backup', target], { env: { DATABASE_URL: db.url } }), new RegExp(`^gatehouse: ${target.replace(/[.]/g, '\\.')} already exists: choose another file, or give --force to replace it$`));
      expect(readFileSync(target, 'utf8')).toBe('yesterday\'s backup');
      expect(readdirSync(folder)).toEqual(['copy.db']);

      const forced = await runCli(['backup', target, '--force', '--json'], { env: { DATABASE_URL: db.url } });
      expect(forced.code, forced.stderr).toBe(0);
      expect(JSON.parse(forced.stdout)).toMatchObject({ file: target, pages: expect.any(Number), replaced: true });
      const copied = openDatabase(`sqlite:${target}`);
      try {
        expect(await sqliteIntegrity(copied.db)).toBe('ok');
      } finally {
        await copied.close();
      }
      // A new file needs no --force.
      expect((await runCli(['backup', join(folder, 'other.db')], { env: { DATABASE_URL: db.url } })).stdout).toMatch(/^backed up \d+ pages to .+other\.db\n$/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await db.drop();
    }
  });

  it('refuses a folder that does not exist, in one line', async () => {
    const target = join(tmpdir(), `gatehouse-no-such-folder-${process.pid}`, 'copy.db');
    const db = await createTestDatabase('sqlite');
    try {
      expectOneLineRefusal(await runCli(['backup', target], { env: { DATABASE_URL: db.url } }), /^gatehouse: the folder .+ does not exist$/);
    } finally {
      await db.drop();
    }
  });
});
