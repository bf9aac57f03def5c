// The dependencies every surface receives (the OAuth endpoints, the pages, the platform wing,
// the operations routes), built by the composition root (app.ts).
import type { Config } from './config/index.ts';
import type { OAuthContext } from './oauth/context.ts';
import type { OutboundPolicy } from './services/outbound-url.ts';
import type { PlatformContext } from './platform/stores.ts';
import type { Readiness } from './services/readiness.ts';
import type { RateLimits } from './http/rate-limits.ts';

export interface AppContext {
  config: Config;
  /** GET /readyz: whether the database answers and is migrated. */
  readiness: Readiness;
  oauth: OAuthContext;
  /** The services of both wings (the platform's stores beside the authorization server's). */
  services: PlatformContext;
  /** Which addresses the service may be asked to call (docs/operating.md: OUTBOUND_ALLOW_PRIVATE). */
  outbound: OutboundPolicy;
  /** SECURITY.md: limits nobody else can spend: counters shared by the routes that limit. */
  limits: RateLimits;
}
