// Issue 12 item 2 on SQLite: another process holding the write lock past the busy timeout
// (DATABASE_CONNECT_TIMEOUT_SECONDS) is answered 503 with Retry-After, not a 500, and
// nothing is spent by the refused request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { Browser } from '../helpers/browser.ts';
import { RunningGatehouse } from './running-gatehouse.ts';
import { signedInClient, type SignedInClient } from './signed-in-client.ts';

describe('SQLite locked by another writer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-busy-'));
  const file = join(dir, 'busy.db');
  let server: RunningGatehouse;
  let database: DatabaseHandle;
  let app: SignedInClient;

  beforeAll(async () => {
    server = await RunningGatehouse.start({ DATABASE_URL: `sqlite:${file}`, DATABASE_CONNECT_TIMEOUT_SECONDS: '1' });
    database = openDatabase(`sqlite:${file}`);
    app = await signedInClient(createServiceContext(database.db, Date.now, testServiceOptions), server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const refresh = (refreshToken: string) =>
    fetch(`${server.url}/v2/auth/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: app.clientId, client_secret: app.secret }).toString(),
    });

  it('answers writes 503 with Retry-After (token endpoint: temporarily_unavailable; pages: a 503 page) while the lock is held past the busy timeout, and serves them once it is gone', async () => {
    const { refresh_token: refreshToken } = await app.tokens();
    const other = new SQLite(file);
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      const locked = await refresh(refreshToken);
      expect(locked.status).toBe(503);
      expect(locked.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await locked.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('try again') });
      // A page that writes (logging in starts a session) is a 503 page.
      const login = await new Browser(server.url).login(app.email, app.password);
      expect(login.status).toBe(503);
      expect(login.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(login.body).toContain('Temporarily unavailable');
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    const after = await refresh(refreshToken);
    expect(after.status).toBe(200);
    expect(server.logged('token endpoint failed')).toEqual([]);
    expect(server.logged('database unavailable').length).toBeGreaterThan(0);
  });
});
