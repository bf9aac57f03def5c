// The dependencies every route plugin receives.
import type { Config } from '../config/index.ts';
import type { OAuthContext } from '../oauth/context.ts';
import type { OutboundPolicy } from '../services/outbound-url.ts';
import type { ServiceContext } from '../services/context.ts';
import type { DatabaseHandle } from '../storage/database.ts';
import type { RateLimits } from './rate-limits.ts';

export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  oauth: OAuthContext;
  services: ServiceContext;
  /** Which addresses the service may be asked to call (SPEC §4 OUTBOUND_ALLOW_PRIVATE). */
  outbound: OutboundPolicy;
  /** SPEC §2 items 18 and 27: counters shared by the routes that limit. */
  limits: RateLimits;
}
