// The dependencies every route plugin receives.
import type { Config } from '../config/index.ts';
import type { OAuthContext } from '../oauth/context.ts';
import type { OutboundPolicy } from '../services/outbound-url.ts';
import type { ServiceContext } from '../services/context.ts';
import type { RateLimits } from './rate-limits.ts';

/** The database as the readiness check sees it (implemented in src/storage/readiness.ts). */
export interface Readiness {
  /** Resolves when the database answers a trivial query; rejects when it cannot be reached. */
  ping(): Promise<void>;
  /** Whether every known migration has been applied; rejects when the database cannot be reached. */
  migrationsApplied(): Promise<boolean>;
}

export interface AppContext {
  config: Config;
  /** GET /readyz: whether the database answers and is migrated. */
  readiness: Readiness;
  oauth: OAuthContext;
  services: ServiceContext;
  /** Which addresses the service may be asked to call (SPEC §4 OUTBOUND_ALLOW_PRIVATE). */
  outbound: OutboundPolicy;
  /** SPEC §2 items 18 and 27: counters shared by the routes that limit. */
  limits: RateLimits;
}
