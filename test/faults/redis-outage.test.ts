// Issue 12 item 3: the rate-limit Redis killed under load and started again. While it is
// gone requests are served without waiting on it and the limits are not enforced (said
// once in the log); once it is back the limits hold again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { Load, waitFor } from './load.ts';
import { RunningGatehouse } from './running-gatehouse.ts';
import { signedInClient, type SignedInClient } from './signed-in-client.ts';
import { ThrowawayRedis, throwawayRedisAvailable } from './throwaway-redis.ts';

const LIMIT = 5;

describe.each(backends)('Redis goes away under load ($name)', ({ name, available }) => {
  let redis: ThrowawayRedis;
  let database: TestDatabase;
  let server: RunningGatehouse;
  let app: SignedInClient;

  beforeAll(async () => {
    if (!available || !throwawayRedisAvailable) return;
    redis = await ThrowawayRedis.create();
    database = await createTestDatabase(name);
    server = await RunningGatehouse.start({ DATABASE_URL: database.url, REDIS_URL: redis.url, RATE_LIMIT_TOKEN_PER_MINUTE: String(LIMIT) });
    app = await signedInClient(createServiceContext(database.handle.db, Date.now, testServiceOptions), server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await redis?.kill();
    await database?.drop();
  });

  it.skipIf(!available || !throwawayRedisAvailable)(
    'serves token requests without waiting on a dead Redis and without the limit, logs the outage once, and enforces the limit again soon after Redis is back',
    async () => {
      // The client's own refresh chain; its first exchange is one request of the limit.
      let current = (await app.tokens()).refresh_token;
      const load = new Load().add('token', async (signal) => {
        const res = await fetch(`${server.url}/v2/auth/oauth2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: current, client_id: app.clientId, client_secret: app.secret }).toString(),
          signal,
        });
        const body = (await res.json()) as { refresh_token?: string };
        if (res.status === 200) current = body.refresh_token!;
        return res.status;
      });
      try {
        await waitFor('the limit to refuse', () => load.saw('token', 'before', 429));

        // A slow start is no outage (test/faults/redis-start.test.ts): nothing logged before the kill.
        const outageMessage = 'rate-limit store unavailable: limits not enforced until it is back';
        expect(server.logged(outageMessage)).toEqual([]);
        await redis.kill();
        load.phase = 'down';
        // More successes than the limit allows: the limit is not enforced.
        await waitFor('requests past the limit to be served', () => load.answers.filter((a) => a.phase === 'down' && a.status === 200).length > 2 * LIMIT);

        // Once for the outage, not once per request served during it.
        expect(server.logged(outageMessage)).toHaveLength(1);

        await redis.start();
        load.phase = 'after';
        await waitFor('the limit to refuse again', () => load.saw('token', 'after', 429), 10_000);
      } finally {
        await load.stop();
      }

      const down = load.answers.filter((a) => a.phase === 'down');
      expect(down.filter((a) => a.status !== 200 && a.status !== 429)).toEqual([]);
      // A dead Redis costs a request no more than its command timeout (500 ms), far below the
      // ~20 s it waited behind ioredis' offline queue.
      expect(down.filter((a) => a.ms > 2_000)).toEqual([]);
      await waitFor('the return to be logged', () => server.logged('rate-limit store is back: limits enforced').length > 0);
    },
    60_000,
  );
});
