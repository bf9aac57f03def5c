// Rate limits of docs/rules.md#rate-limits, counted by rate-limiter-flexible in memory, or in
// Redis when REDIS_URL is set so that limits hold across instances. Two kinds:
// - RequestLimit counts every request of a key (token requests of an authenticated client,
//   verification-code requests, public booking writes, which give back a change not made);
// - FailureLimit counts failed checks of a secret or password. A check is counted before it
//   is made (consume) and given back when it succeeds (reward), so a burst of concurrent
//   attempts gets no more failed checks than the limit; past the limit every request of the
//   key is refused, a correct secret too, until the window ends.
// A store outage (Redis down) is reported once and the limits are not enforced until it
// ends, rather than refusing every request or making each one wait for Redis. A slow first
// connection at start is no outage (REDIS_START_GRACE_SECONDS: on a loaded machine the first
// connection can outlast the connect timeout and succeed on a later try).
import { createRequire } from 'node:module';
import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config/index.ts';
import type { RequestCount } from '../oauth/client-limits.ts';

/**
 * What the limits tell about their store: a call failed, or one went through. A call takes
 * a ticket before it is sent, so that an answer to a call sent before an outage began (in
 * flight when Redis went away) does not count as the store's return.
 */
interface StoreReport {
  ticket(): number;
  failed(error: unknown): void;
  succeeded(ticket: number): void;
}

/** Where an outage of the counters' store is reported: once when it starts, once when it ends. */
export interface StoreOutageLog {
  unavailable(error: unknown): void;
  restored(): void;
}

/**
 * The longest a request waits on Redis for one command. A dead or unreachable Redis fails
 * every command at once (no offline queue) or after this: a limit check never holds a
 * request up for longer, and the limit is then not enforced.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * How long a connection may take from TCP's accept to Redis' first answer. ioredis's
 * connectTimeout covers only the TCP connection: a Redis that accepts it and answers nothing
 * (a stuck proxy in front of it, a server too busy to answer) would hold that connection
 * forever, and the limits would never be enforced even after Redis recovered.
 */
const REDIS_HANDSHAKE_TIMEOUT_MS = 1_000;

/** How long start-up waits for Redis before it serves with the limits not yet enforced. */
const REDIS_START_WAIT_MS = 2_000;

/**
 * The part of a caller's IP that a limit keys on. An IPv6 host is normally given a whole
 * /64 and picks addresses from it at will, so keying on the full address would hand it a
 * fresh limit per address: IPv6 callers are counted by their /64. IPv4 (also written as
 * ::ffff:a.b.c.d) is the address itself.
 */
export function callerKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const address = ip.split('%')[0]!; // no zone index
  const [head = '', tail] = address.split('::');
  const groups = head === '' ? [] : head.split(':');
  if (tail !== undefined) {
    // "::" stands for the zero groups that make eight; a trailing dotted IPv4 is two groups.
    const rest = tail === '' ? [] : tail.split(':');
    const width = rest.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
    groups.push(...Array<string>(Math.max(0, 8 - groups.length - width)).fill('0'), ...rest);
  }
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Refused by a limit: the caller may try again after `retryAfter` seconds. */
export class LimitExceeded extends Error {
  constructor(
    readonly retryAfter: number,
    /** The limit that refused, for headers such as X-RateLimit-Limit. */
    readonly limit: number,
  ) {
    super(`rate limit exceeded: retry in ${retryAfter} seconds`);
    this.name = 'LimitExceeded';
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class RequestLimit {
  constructor(
    private readonly limiter: RateLimiterAbstract | null,
    readonly points: number,
    private readonly report: StoreReport,
  ) {}

  /** Counts one request of `key`; throws LimitExceeded past the limit. Null when off or the store failed. */
  async take(key: string): Promise<RequestCount | null> {
    if (this.limiter === null) return null;
    const ticket = this.report.ticket();
    try {
      const res = await this.limiter.consume(key);
      this.report.succeeded(ticket);
      return { limit: this.points, remaining: res.remainingPoints, resetSeconds: seconds(res.msBeforeNext) };
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) throw new LimitExceeded(seconds(outcome.msBeforeNext), this.points);
      this.report.failed(outcome);
      return null;
    }
  }

  /**
   * Gives back one request that `take` counted (and answered with a count) for `key`: what
   * it was counted for did not happen.
   */
  async giveBack(key: string): Promise<void> {
    if (this.limiter === null) return;
    try {
      await this.limiter.reward(key);
    } catch (error) {
      this.report.failed(error);
    }
  }
}

/** How long a reservation refused only because of checks still running waits for them. */
const MAX_WAIT_FOR_CHECKS_MS = 5_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class FailureLimit {
  constructor(
    /**
     * Failed checks plus checks still running, per key: the counter that decides whether
     * a check may start, so that no more than `points` checks can fail in a window.
     */
    private readonly attempts: RateLimiterAbstract | null,
    readonly points: number,
    private readonly report: StoreReport,
    /**
     * Failed checks alone, when a refused reservation should wait for the checks still
     * running rather than be refused: an application may send more concurrent requests
     * than its failure limit, and none of them fails. Null: refuse at once (logins:
     * docs/rules.md#rate-limits wants a burst to get no more password checks than the limit).
     */
    private readonly failures: RateLimiterAbstract | null = null,
  ) {}

  /**
   * Reserves one check for `key` before it is made. Resolves with the check's outcome
   * handler: a success gives the reservation back, a failure keeps it (that is how
   * failures are counted). Throws LimitExceeded when the key has used its failures.
   */
  async reserve(key: string): Promise<(failed: boolean) => Promise<void>> {
    const attempts = this.attempts;
    if (attempts === null) return async () => undefined;
    const deadline = Date.now() + MAX_WAIT_FOR_CHECKS_MS;
    for (let round = 0; ; round++) {
      let refused: RateLimiterRes;
      const ticket = this.report.ticket();
      try {
        await attempts.consume(key);
        this.report.succeeded(ticket);
        return (failed) => this.settle(key, failed);
      } catch (outcome) {
        if (!(outcome instanceof RateLimiterRes)) {
          this.report.failed(outcome);
          return async () => undefined;
        }
        refused = outcome;
      }
      // A refused request checks nothing: its point goes back, so only checks are counted.
      await this.store(attempts.reward(key));
      const failed = this.failures === null ? this.points : await this.failuresOf(key);
      if (failed >= this.points || Date.now() >= deadline) throw new LimitExceeded(seconds(refused.msBeforeNext), this.points);
      // Fewer failures than the limit: the key is full of checks still running, and each
      // one that succeeds frees its place.
      await pause(Math.min(100, 5 * 2 ** Math.min(round, 4)) + Math.random() * 10);
    }
  }

  private async settle(key: string, failed: boolean): Promise<void> {
    if (!failed) await this.store(this.attempts!.reward(key));
    else if (this.failures !== null) await this.store(this.failures.penalty(key));
  }

  /**
   * Runs `check` under a reservation for each key: refused (LimitExceeded) when any key
   * has used its failures; counted as a failure on every key when `isFailure(error)`.
   */
  static async guard<T>(reservations: Array<[FailureLimit, string]>, check: () => Promise<T>, isFailure: (error: unknown) => boolean): Promise<T> {
    const held: Array<(failed: boolean) => Promise<void>> = [];
    try {
      for (const [limit, key] of reservations) held.push(await limit.reserve(key));
    } catch (error) {
      await Promise.all(held.map((settle) => settle(false)));
      throw error;
    }
    let result: T;
    try {
      result = await check();
    } catch (error) {
      const failed = isFailure(error);
      await Promise.all(held.map((settle) => settle(failed)));
      throw error;
    }
    await Promise.all(held.map((settle) => settle(false)));
    return result;
  }

  private async failuresOf(key: string): Promise<number> {
    try {
      return (await this.failures!.get(key))?.consumedPoints ?? 0;
    } catch (error) {
      this.report.failed(error);
      return this.points;
    }
  }

  /** Runs a store call, reporting a failure of the store. */
  private async store(call: Promise<unknown>): Promise<void> {
    try {
      await call;
    } catch (error) {
      this.report.failed(error);
    }
  }
}

export interface RateLimits {
  /** docs/rules.md#rate-limits: token requests per authenticated client per minute. */
  tokenRequests: RequestLimit;
  /** docs/rules.md#rate-limits: failed client authentications per client and IP per minute. */
  clientAuthFailures: FailureLimit;
  /** docs/rules.md#rate-limits: failed logins per account and IP per 15 minutes. */
  loginFailures: FailureLimit;
  /** docs/rules.md#rate-limits: failed logins per IP, across accounts, per 15 minutes. */
  loginFailuresPerIp: FailureLimit;
  /** docs/rules.md#rate-limits: verification-code requests per IP per 15 minutes. */
  codeRequestsPerIp: RequestLimit;
  /** Verification-code requests per address per 15 minutes (the per-account login limit). */
  codeRequestsPerAddress: RequestLimit;
  /**
   * The server is about to serve: resolves once the counters' store is connected, or has
   * been given a moment to be; from now a store not yet reached has REDIS_START_GRACE_SECONDS.
   */
  ready(): Promise<void>;
  /** docs/integrating.md#connect-an-ai-agent-mcp: dynamic client registrations under review and first uses of metadata documents per IP per hour. */
  registrationsPerIp: RequestLimit;
  /** docs/integrating.md#connect-an-ai-agent-mcp: dynamic client registrations under DCR_POLICY=open per IP per hour. */
  openRegistrationsPerIp: RequestLimit;
  /** docs/rules.md#rate-limits: bookings made, rescheduled or cancelled without an access token, per IP per hour. */
  publicBookingsPerIp: RequestLimit;
  /** docs/rules.md#rate-limits: the same writes per event type per hour, from any address. */
  publicBookingsPerEventType: RequestLimit;
  close(): Promise<void>;
}

/**
 * Reports a store outage once, not once per request: the first failure while the store was
 * up starts it; the first call that goes through again (or Redis' "ready") ends it.
 */
function outageReporter(log: StoreOutageLog): StoreReport {
  let down = false;
  // Raised when an outage begins: only a call sent after that can end it.
  let outages = 0;
  return {
    ticket: () => outages,
    failed(error) {
      if (down) return;
      down = true;
      outages += 1;
      log.unavailable(error);
    },
    succeeded(ticket) {
      if (!down || ticket !== outages) return;
      down = false;
      log.restored();
    },
  };
}

// ioredis is loaded only when REDIS_URL is set: one instance on SQLite or PostgreSQL never
// uses it, and loading it cost every start a tenth of a second.
const load = createRequire(import.meta.url);

/** Redis, connecting, with where the limits report to and how it closes. */
interface RedisConnection {
  redis: Redis;
  /** Where the limits report their calls: the outage reporter, past the start's grace. */
  report: StoreReport;
  /** The server is about to serve: starts the grace; resolves as readyOrLate does. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

function connectRedis(url: string, outage: StoreReport, graceMs: number): RedisConnection {
  const { Redis: Client } = load('ioredis') as typeof import('ioredis');
  const redis = new Client(url, {
    // A command sent while Redis is unreachable fails at once instead of queueing behind
    // the reconnection, and one that was sent waits at most REDIS_COMMAND_TIMEOUT_MS.
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // Commands cut off by a lost connection fail instead of being sent again later.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: 1_000,
    // Reconnects every 50 ms, growing to 1 s: limits hold again within a second or so of
    // Redis' return.
    retryStrategy: (attempt) => Math.min(attempt * 50, 1_000),
  });
  // Until Redis is first ready, or the grace ends, a failure is only remembered. The grace
  // is counted from the server's readiness, not from here: the start's own work, on a busy
  // machine, holds up the first connection as much as Redis does.
  let starting = true;
  let closing = false;
  let firstFailure: unknown;
  let grace: NodeJS.Timeout | undefined;
  let handshake: NodeJS.Timeout | undefined;
  const endGrace = () => {
    starting = false;
    if (redis.status !== 'ready') outage.failed(firstFailure ?? new Error(`Redis was not reached within ${graceMs / 1000} s of the start`));
  };
  const failed = (error: unknown) => {
    if (closing) return;
    if (starting) firstFailure ??= error;
    else outage.failed(error);
  };
  // A Redis outage must not crash the process; the limiter calls fail and are reported.
  redis.on('error', failed);
  // A connection that ends after it was ready is an outage at once, before a reconnection fails.
  redis.on('close', () => failed(new Error('the connection to Redis closed')));
  // A connection that TCP accepted but Redis never answered is given up and tried again.
  redis.on('connect', () => {
    clearTimeout(handshake);
    handshake = setTimeout(() => {
      if (!closing && redis.status === 'connect') redis.disconnect(true);
    }, REDIS_HANDSHAKE_TIMEOUT_MS).unref();
  });
  redis.on('ready', () => {
    starting = false;
    clearTimeout(grace);
    clearTimeout(handshake);
    outage.succeeded(outage.ticket());
  });
  return {
    redis,
    report: { ticket: outage.ticket, failed, succeeded: outage.succeeded },
    ready() {
      if (starting && grace === undefined) grace = setTimeout(endGrace, graceMs).unref();
      return readyOrLate(redis);
    },
    async close() {
      closing = true;
      clearTimeout(grace);
      clearTimeout(handshake);
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

/** Resolves when Redis is ready or after REDIS_START_WAIT_MS, whichever is first. */
function readyOrLate(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, REDIS_START_WAIT_MS);
    redis.once('ready', done);
  });
}

export function createRateLimits(config: Config, log: StoreOutageLog): RateLimits {
  const connection = config.redisUrl ? connectRedis(config.redisUrl, outageReporter(log), config.redisStartGraceMs) : undefined;
  const redis = connection?.redis;
  const outage = connection?.report ?? outageReporter(log);
  const counter = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract => {
    const options = { keyPrefix: `gatehouse:${keyPrefix}`, points, duration };
    return redis ? new RateLimiterRedis({ ...options, storeClient: redis }) : new RateLimiterMemory(options);
  };
  const requests = (keyPrefix: string, points: number, duration: number) =>
    new RequestLimit(points === 0 ? null : counter(keyPrefix, points, duration), points, outage);
  const failures = (keyPrefix: string, points: number, duration: number, waitForChecks = false) =>
    points === 0
      ? new FailureLimit(null, 0, outage)
      : new FailureLimit(
          counter(keyPrefix, points, duration),
          points,
          outage,
          waitForChecks ? counter(`${keyPrefix}-failed`, points, duration) : null,
        );
  const { rateLimits: r } = config;
  return {
    tokenRequests: requests('token', r.tokenPerMinute, 60),
    clientAuthFailures: failures('client-auth', r.clientAuthFailuresPerMinute, 60, true),
    loginFailures: failures('login', r.loginFailuresPer15Minutes, 15 * 60),
    loginFailuresPerIp: failures('login-ip', r.loginFailuresPerIpPer15Minutes, 15 * 60),
    codeRequestsPerIp: requests('code-ip', r.loginFailuresPerIpPer15Minutes, 15 * 60),
    codeRequestsPerAddress: requests('code-address', r.loginFailuresPer15Minutes, 15 * 60),
    ready: () => connection?.ready() ?? Promise.resolve(),
    registrationsPerIp: requests('registration-ip', config.registration.perIpPerHour, 3600),
    openRegistrationsPerIp: requests('open-registration-ip', config.registration.openPerIpPerHour, 3600),
    publicBookingsPerIp: requests('public-booking-ip', r.publicBookingsPerIpPerHour, 3600),
    publicBookingsPerEventType: requests('public-booking-event-type', r.publicBookingsPerEventTypePerHour, 3600),
    close: async () => connection?.close(),
  };
}
