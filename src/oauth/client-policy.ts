// What a client must do beyond the protocol's defaults, from its own flags, the FAPI 2.0
// Security Profile it may follow (docs/rules.md#fapi2) and the server's PAR_POLICY: one place
// answers, so no check forgets that the profile implies the others.
import type { OAuthContext } from './context.ts';
import type { ClientRecord } from './storage.ts';

type Client = Pick<ClientRecord, 'kind' | 'requirePushedAuthorizationRequests' | 'dpopBoundAccessTokens' | 'fapi2'>;

/** FAPI 2.0 §5.3.2.1: a code of the profile lives at most this long, whatever the setting says. */
const FAPI2_CODE_SECONDS = 60;

/** RFC 9126 §5, §6 (docs/rules.md#pushed-authorization): its authorization requests must be pushed. */
export const mustPush = (ctx: Pick<OAuthContext, 'pushedAuthorization'>, client: Client): boolean =>
  ctx.pushedAuthorization?.required === true || client.requirePushedAuthorizationRequests || client.fapi2 === true;

/** RFC 7636, RFC 9700 §2.1.1: PKCE is required of a public client and of the profile's; null when optional. */
export const pkceRequiredOf = (client: Client): string | null =>
  client.fapi2 === true ? 'clients of the FAPI 2.0 profile' : client.kind === 'public' ? 'public clients' : null;

/** RFC 9449 §5.2 (docs/rules.md#dpop): why every token request must carry a proof; null when none must. */
export const proofRequiredBecause = (client: Client): string | null =>
  client.fapi2 === true ? 'it follows the FAPI 2.0 Security Profile' : client.dpopBoundAccessTokens === true ? 'dpop_bound_access_tokens' : null;

/** How long its codes live (docs/rules.md#lifetimes). */
export const codeLifetimeSeconds = (ctx: Pick<OAuthContext, 'ttl'>, client: Client): number =>
  client.fapi2 === true ? Math.min(ctx.ttl.authCode, FAPI2_CODE_SECONDS) : ctx.ttl.authCode;

/** FAPI 2.0 §5.3.2.1: the profile's refresh tokens are not rotated; every other client's are. */
export const rotatesRefreshTokens = (client: Client): boolean => client.fapi2 !== true;
