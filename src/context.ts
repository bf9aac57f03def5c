// The dependencies the authorization server's surfaces receive (the OAuth endpoints, the pages,
// the operations routes), built by the composition root (app.ts). The platform wing receives
// its own, PlatformDeps (platform/deps.ts), and never this.
import type { Config } from './config/index.ts';
import type { OAuthContext } from './oauth/context.ts';
import type { OutboundPolicy } from './services/outbound-url.ts';
import type { ServiceContext } from './services/context.ts';
import type { Readiness } from './services/readiness.ts';
import type { RateLimits } from './http/rate-limits.ts';

export interface AppContext {
  config: Config;
  /** GET /readyz: whether the database answers and is migrated. */
  readiness: Readiness;
  oauth: OAuthContext;
  /** The authorization server's services; the platform wing is handed its own (platform/deps.ts). */
  services: ServiceContext;
  /** Which addresses the service may be asked to call (docs/operating.md: OUTBOUND_ALLOW_PRIVATE). */
  outbound: OutboundPolicy;
  /** SECURITY.md: limits nobody else can spend: counters shared by the routes that limit. */
  limits: RateLimits;
}
