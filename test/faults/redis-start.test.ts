// Issue 34 item 7a: `gatehouse serve` with REDIS_URL warned "rate-limit store unavailable"
// on every start of a loaded machine, whose first connection to Redis outlasted a timeout,
// and "is back" a moment later. A slow first connection is no outage: the warning is for a
// Redis that is really not there once the start's grace has passed, or that fails after
// it was reached (test/faults/redis-outage.test.ts).
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { waitFor } from './load.ts';
import { RunningGatehouse } from './running-gatehouse.ts';
import { lateRedis, ThrowawayRedis, throwawayRedisAvailable } from './throwaway-redis.ts';

const OUTAGE = 'rate-limit store unavailable: limits not enforced until it is back';
const BACK = 'rate-limit store is back: limits enforced';
const LIMIT = 2;

/** Failed client authentications of one unknown client until the limit refuses: the statuses, in order. */
async function failedAuthentications(url: string, n: number): Promise<number[]> {
  const clientId = `unknown-${randomBytes(6).toString('hex')}`;
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}/v2/auth/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'grt_unknown', client_id: clientId, client_secret: 'gcs_wrong' }).toString(),
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

// On one database: what is tested is the rate-limit store's first connection, which no database
// takes part in. PostgreSQL where it is given, as the deployments that share a Redis run on it
// (docs/operating.md#several-instances); SQLite otherwise.
const backend = backends.find((b) => b.name === 'postgres' && b.available) ?? backends[0]!;

describe.each([backend])('the rate-limit Redis at start ($name)', ({ name, available }) => {
  const enabled = available && throwawayRedisAvailable;
  let redis: ThrowawayRedis | undefined;
  let database: TestDatabase | undefined;
  let server: RunningGatehouse | undefined;
  let late: Awaited<ReturnType<typeof lateRedis>> | undefined;
  // A start still under way when a test gives up is stopped too, so no server outlives it.
  let starting: Promise<RunningGatehouse> | undefined;

  afterEach(async () => {
    server ??= await starting?.catch(() => undefined);
    starting = undefined;
    await server?.stop();
    await late?.close();
    await redis?.kill();
    await database?.drop();
    [server, late, redis, database] = [undefined, undefined, undefined, undefined];
  });

  const start = async (redisUrl: string, env: Record<string, string> = {}) => {
    database = await createTestDatabase(name);
    return RunningGatehouse.start({ DATABASE_URL: database.url, REDIS_URL: redisUrl, RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: String(LIMIT), ...env });
  };

  it.skipIf(!enabled)('logs no outage when Redis answers late but within the grace, and enforces the limits once it answers', async () => {
    redis = await ThrowawayRedis.create();
    late = await lateRedis(redis);
    starting = start(late.url);
    // A start that fails says why at once, rather than as a wait that never ends.
    const startFailed = starting.then(() => new Promise<never>(() => undefined));
    // The server's first connection found a Redis that did not answer, and gave up on it.
    // A process start on a busy machine can itself take most of a minute before it connects.
    await Promise.race([waitFor('the first connection to be given up', () => late!.givenUp() > 0, 120_000), startFailed]);
    late.answer();
    server = await starting;

    // Connected, the limit refuses; had the connection come after the grace, the outage
    // would have been logged before it.
    await waitFor('the limit to refuse', async () => (await failedAuthentications(server!.url, LIMIT + 1)).at(-1) === 429);
    expect(server.logged(OUTAGE)).toEqual([]);
    expect(server.logged(BACK)).toEqual([]);
  }, 180_000);

  it.skipIf(!enabled)('warns once when Redis is still not there after the grace, and says once that it is back when it comes', async () => {
    redis = await ThrowawayRedis.reserve();
    // A short grace: the warning is the point here, not how long the default waits.
    server = await start(redis.url, { REDIS_START_GRACE_SECONDS: '2' });
    await waitFor('the outage to be logged', () => server!.logged(OUTAGE).length > 0);
    // Requests while it is away are served without the limit, and logged no more.
    expect(await failedAuthentications(server.url, LIMIT + 1)).toEqual(Array<number>(LIMIT + 1).fill(401));

    await redis.start();
    await waitFor('the return to be logged', () => server!.logged(BACK).length > 0);
    expect(await failedAuthentications(server.url, LIMIT + 1)).toEqual([...Array<number>(LIMIT).fill(401), 429]);
    expect(server.logged(OUTAGE)).toHaveLength(1);
    expect(server.logged(BACK)).toHaveLength(1);
  }, 120_000);
});
