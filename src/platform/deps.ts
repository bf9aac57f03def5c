// What the platform wing is handed, and all it is handed, by the composition root (app.ts):
// its stores beside the authorization server's, the addresses it answers with, the outbound
// policy, the limits it spends and what the bearer check must know of the server's tokens.
// The platform never sees PlatformDeps (src/context.ts), so the core's own store and the rest
// of the authorization server stay behind the door, authorization-server.ts (ARCHITECTURE.md).
import type { Config } from '../config/index.ts';
import type { Audience, OutboundPolicy, RateLimits } from './authorization-server.ts';
import type { PlatformContext } from './stores.ts';

export interface PlatformDeps {
  /** The services' context: the platform's stores beside the authorization server's, and the clock. */
  services: PlatformContext;
  /** BASE_URL (the API's and the MCP server's address), APP_URL (the pages'), and what agents are offered. */
  config: Pick<Config, 'baseUrl' | 'appUrl' | 'localDevelopment' | 'agentScopes'>;
  /** Which addresses the platform may be asked to call (docs/operating.md: OUTBOUND_ALLOW_PRIVATE). */
  outbound: OutboundPolicy;
  /** SECURITY.md: the shared counters of the limits the platform's routes spend. */
  limits: Pick<RateLimits, 'codeRequestsPerIp' | 'codeRequestsPerAddress' | 'publicBookingsPerIp' | 'publicBookingsPerEventType'>;
  /** What a protected resource must know of the server's tokens (RFC 8707, RFC 9449): the resources, URL clients, DPoP. */
  tokens: Omit<Audience, 'resource'>;
}
