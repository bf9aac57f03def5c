// SPEC §4 `gatehouse prune` (issue 12, item 6): deletes what SPEC §2 item 24 lets go, prints
// the counts, and leaves what is alive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/services/accounts/sessions.ts';
import { createUser } from '../../src/services/accounts/users.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { runCli } from '../helpers/cli.ts';

const DAY = 24 * 3600 * 1000;

describe.each(backends)('gatehouse prune on $name (SPEC §2 item 24)', { timeout: 120_000 }, ({ name, available }) => {
  let database: TestDatabase;
  beforeAll(async () => {
    if (available) database = await createTestDatabase(name);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it.skipIf(!available)('deletes an ended session and audit events past AUDIT_RETENTION_DAYS, prints the counts, keeps the rest', async () => {
    const now = Date.now();
    const at = (t: number) => createServiceContext(database.handle.db, () => t);
    const user = await createUser(at(now - 400 * DAY), { email: `prune-${name}@example.com`, name: 'Prune', password: 'prune-password' });
    await createSession(at(now - 8 * DAY), user.id);
    await createSession(at(now), user.id);
    await at(0).stores.audit.append({ type: 'login.failed', userId: user.id, data: { reason: 'old' } }, now - 100 * DAY);
    await at(0).stores.audit.append({ type: 'login.failed', userId: user.id, data: { reason: 'recent' } }, now - 10 * DAY);
    const env = { DATABASE_URL: database.url, AUDIT_RETENTION_DAYS: '90' };

    const result = await runCli(['prune', '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ sessions: 1, auditEvents: 1, authorizationCodes: 0, accessTokens: 0, refreshTokens: 0 });
    const db = database.handle.db;
    expect((await db.selectFrom('sessions').select('created_at').execute()).map((r) => Number(r.created_at))).toEqual([now]);
    expect((await db.selectFrom('audit_events').select('data').where('user_id', '=', user.id).execute()).map((r) => JSON.parse(r.data!).reason)).toEqual(['recent']);

    // Nothing left to do: the counts are zero, one line per kind for a person.
    const again = await runCli(['prune'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^sessions\s+0 deleted$/m);
    expect(again.stdout).toMatch(/^audit events\s+0 deleted$/m);
  });
});
