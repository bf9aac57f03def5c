// kill -9 under load: `gatehouse serve` is killed while code exchanges,
// refreshes and revocations are in flight, then started again on the same database.
// - Nothing was acknowledged that was not committed: every pair a client got an answer for
//   works, every revocation it got an answer for holds.
// - Nothing is half-written: codes, grants and tokens satisfy the invariants of the
//   transactions that write them.
// - A refresh whose answer was lost replays inside the window (docs/rules.md#refresh-rotation): the retry
//   is answered with the successor the lost request committed, or rotates if it had not.
// - SQLite's PRAGMA integrity_check is ok.
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { Application, killHard, pairOf, seedApplication, startServe, stopServe, type ServeProcess, type TokenPair } from '../helpers/serve-process.ts';
import { halfWritten, sqliteIntegrity, successorHashesOf } from '../helpers/rows.ts';
import { freePort } from '../helpers/ports.ts';
import { codeOf, refreshTokenOf, storesOver } from '../helpers/stores.ts';

/** One grant's chain as the application holds it. */
interface Chain {
  pair: TokenPair;
  revoked: boolean;
  /** A refresh sent with this token got no answer. */
  lostRefresh?: string;
  /** A revocation sent got no answer. */
  lostRevoke?: boolean;
}

const WORKERS = 6;
const CHAINS_BEFORE_LOAD = 12;
const CODES_FOR_LOAD = 30;
/** Answers received under load before the process is killed. */
const KILL_AFTER_ANSWERS = 24;

describe.each(backends)('kill -9 under load on $name', { timeout: 180_000 }, ({ name, available }) => {
  let database: TestDatabase | undefined;
  let server: ServeProcess | undefined;
  afterAll(async () => {
    await killHard(server);
    await stopServe(server);
    await database?.drop();
  });

  it.skipIf(!available)('after a restart every answered token works, lost refreshes replay, no row is half-written', async () => {
    database = await createTestDatabase(name);
    const db = database.handle.db;
    const stores = storesOver(db);
    const { user, client } = await seedApplication(createServiceContext(db, Date.now, testServiceOptions));
    const port = await freePort();
    // Codes must outlive the test's set-up; the window must outlive a restart on a busy machine.
    const env = { DATABASE_URL: database.url, AUTH_CODE_TTL_SECONDS: '900', REFRESH_REUSE_WINDOW_SECONDS: '300', PRUNE_INTERVAL_SECONDS: '3600' };
    server = await startServe(port, env);
    const app = new Application(server.url, client);

    const codes = await app.codes(user, CHAINS_BEFORE_LOAD + CODES_FOR_LOAD);
    const chains: Chain[] = [];
    for (const code of codes.splice(0, CHAINS_BEFORE_LOAD)) chains.push({ pair: pairOf(await app.exchange(code)), revoked: false });

    // Refreshes whose answers are lost for certain: the connection closes once the request is
    // written, the server commits the rotation (polled for), and the answer goes nowhere.
    const abandoned = chains.slice(0, 2);
    for (const chain of abandoned) {
      await app.abandonRefresh(chain.pair.refresh);
      chain.lostRefresh = chain.pair.refresh;
    }
    for (const chain of abandoned) {
      const spent = async () => (await refreshTokenOf(stores, chain.lostRefresh!))!.spentAt;
      for (const deadline = Date.now() + 10_000; (await spent()) === null; ) {
        if (Date.now() > deadline) throw new Error('an abandoned refresh was never committed');
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    // The load: each worker exchanges a code, refreshes a chain or revokes one, in turn.
    const idle = chains.filter((c) => !abandoned.includes(c));
    const lostCodes: string[] = [];
    let answers = 0;
    let killed: Promise<void> | undefined;
    const unexpected: string[] = [];
    const answered = () => {
      answers++;
      if (answers >= KILL_AFTER_ANSWERS && killed === undefined) killed = killHard(server);
    };
    const worker = async (w: number) => {
      for (let step = w; killed === undefined; step++) {
        const op = step % 7 === 0 ? 'revoke' : step % 2 === 0 ? 'exchange' : 'refresh';
        if ((op === 'exchange' || idle.length === 0) && codes.length > 0) {
          const code = codes.shift()!;
          try {
            const res = await app.exchange(code);
            answered();
            if (res.status === 200) {
              const chain = { pair: pairOf(res), revoked: false };
              chains.push(chain);
              idle.push(chain);
            } else unexpected.push(`exchange ${res.status}`);
          } catch {
            lostCodes.push(code);
            return;
          }
          continue;
        }
        const chain = idle.shift();
        if (chain === undefined) return;
        if (op === 'revoke') {
          try {
            const res = await app.revoke(chain.pair.refresh);
            answered();
            if (res.status === 200) chain.revoked = true;
            else unexpected.push(`revoke ${res.status}`);
          } catch {
            chain.lostRevoke = true;
            return;
          }
          continue;
        }
        try {
          const res = await app.refresh(chain.pair.refresh);
          answered();
          if (res.status === 200) chain.pair = pairOf(res);
          else unexpected.push(`refresh ${res.status} ${JSON.stringify(res.body)}`);
          idle.push(chain);
        } catch {
          chain.lostRefresh = chain.pair.refresh;
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    expect(unexpected).toEqual([]);
    expect(killed, `the load ended after ${answers} answers, before the kill`).toBeDefined();
    await killed;
    expect(server.child.signalCode).toBe('SIGKILL');

    server = await startServe(port, env);
    app.url = server.url;

    // Lost refreshes: the retry is answered with a successor of the presented token, the
    // one the lost request committed if it did.
    const lostRefreshes = chains.filter((c) => c.lostRefresh !== undefined);
    for (const chain of lostRefreshes) {
      const presented = (await refreshTokenOf(stores, chain.lostRefresh!))!;
      const [committedChild] = presented.spentAt === null ? [] : await successorHashesOf(db, presented.id);
      const retry = await app.refresh(chain.lostRefresh!);
      chain.pair = pairOf(retry);
      const answered = (await refreshTokenOf(stores, chain.pair.refresh))!;
      expect(answered.parentId).toBe(presented.id);
      if (committedChild) expect(answered.hash).toBe(committedChild);
      if (abandoned.includes(chain)) expect(committedChild).toBeDefined();
    }
    // Lost revocations: retried, and they hold.
    for (const chain of chains.filter((c) => c.lostRevoke)) {
      expect((await app.revoke(chain.pair.refresh)).status).toBe(200);
      chain.revoked = true;
    }
    // Lost exchanges: a code the lost request consumed is refused as a replay; one it did not
    // is exchanged now.
    for (const code of lostCodes) {
      const consumedAt = (await codeOf(stores, code))!.consumedAt;
      const retry = await app.exchange(code);
      if (consumedAt === null) chains.push({ pair: pairOf(retry), revoked: false });
      else expect(retry).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }

    // Every pair the application holds works, and every revoked one stays revoked.
    for (const chain of chains) {
      if (chain.revoked) {
        expect(await app.me(chain.pair.access)).toBe(401);
        expect((await app.refresh(chain.pair.refresh)).status).toBe(400);
      } else {
        expect(await app.me(chain.pair.access)).toBe(200);
        expect(await app.me(pairOf(await app.refresh(chain.pair.refresh)).access)).toBe(200);
      }
    }

    // No half-written rows (rows.ts: halfWritten lists, per invariant, the rows that break it).
    expect(await halfWritten(db)).toEqual({ grantsWithoutCode: [], codesWithoutOneFirstPair: [], grantsWithUnpairedTokens: [], refreshTokensWithBrokenSuccession: [], refreshTokensWithoutParent: [] });
    if (name === 'sqlite') expect(await sqliteIntegrity(db)).toBe('ok');
    // Show what the crash cut, so a run that cut nothing is visible in its output.
    console.info(`${name}: ${answers} answers before kill -9; lost: ${lostCodes.length} exchanges, ${lostRefreshes.length} refreshes, ${chains.filter((c) => c.lostRevoke).length} revocations; ${chains.length} chains checked`);
  });
});
