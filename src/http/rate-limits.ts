// Rate limits of SPEC §2 item 18. Requests per client at the token endpoint are counted by
// @fastify/rate-limit; failures (client authentication, login) are counted by
// rate-limiter-flexible, which can count only the failures and then refuse every request
// of the key until the window ends. Both keep counters in memory, or in Redis when
// REDIS_URL is set so that limits hold across instances.
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config/index.ts';

export class FailureLimiter {
  constructor(
    private readonly limiter: RateLimiterAbstract | null,
    private readonly points: number,
    /** A store outage (Redis down) is reported here and the limit is not enforced. */
    private readonly onStoreError: (error: unknown) => void = () => undefined,
  ) {}

  /** Seconds until the key may try again, or null when it is not blocked. */
  async blockedFor(key: string): Promise<number | null> {
    if (this.limiter === null) return null;
    try {
      const res = await this.limiter.get(key);
      if (res === null || res.consumedPoints < this.points) return null;
      return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    } catch (error) {
      this.onStoreError(error);
      return null;
    }
  }

  async recordFailure(key: string): Promise<void> {
    if (this.limiter === null) return;
    await this.limiter.penalty(key, 1).catch(this.onStoreError);
  }
}

export interface RateLimits {
  redis: Redis | undefined;
  tokenPerMinute: number;
  clientAuthFailures: FailureLimiter;
  loginFailures: FailureLimiter;
  close(): Promise<void>;
}

export function createRateLimits(config: Config, onStoreError?: (error: unknown) => void): RateLimits {
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }) : undefined;
  // A Redis outage must not crash the process; the limiter calls fail and are logged.
  redis?.on('error', () => undefined);
  const limiter = (keyPrefix: string, points: number, duration: number): FailureLimiter => {
    if (points === 0) return new FailureLimiter(null, 0);
    const options = { keyPrefix: `gatehouse:${keyPrefix}`, points, duration };
    return new FailureLimiter(redis ? new RateLimiterRedis({ ...options, storeClient: redis }) : new RateLimiterMemory(options), points, onStoreError);
  };
  return {
    redis,
    tokenPerMinute: config.rateLimits.tokenPerMinute,
    clientAuthFailures: limiter('client-auth', config.rateLimits.clientAuthFailuresPerMinute, 60),
    loginFailures: limiter('login', config.rateLimits.loginFailuresPer15Minutes, 15 * 60),
    async close() {
      if (redis) await redis.quit().catch(() => undefined);
    },
  };
}
