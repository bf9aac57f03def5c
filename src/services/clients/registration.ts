// Registering OAuth clients (docs/rules.md#client-states, docs/rules.md#client-record, docs/rules.md#legacy-clients): a new client, or a legacy import.
import { formatScopes } from '../../oauth/scopes.ts';
import type { ClientKind, ClientState } from '../../oauth/storage.ts';
import { randomId } from '../../oauth/token-format.ts';
import type { ServiceContext } from '../context.ts';
import { validation } from '../errors.ts';
import { checkDescription, checkHomepage, checkLogo, checkName, checkRedirectUris, checkScopes, fapi2NeedsConfidential, checkAuthMethod, checkAuthentication, checkJwks, checkIdTokenAlg, checkPostLogoutRedirectUris } from './input.ts';
import { insertSecret } from './secrets.ts';
import { requireClient, type ClientView } from './view.ts';

export interface NewClient {
  ownerId: string;
  name: string;
  description?: string;
  homepageUrl?: string;
  logoUrl?: string;
  kind: ClientKind;
  redirectUris: string[];
  scopes: string[];
  /** docs/rules.md#pushed-authorization: its authorization requests must be pushed (RFC 9126 §6); default false. */
  requirePushedAuthorizationRequests?: boolean;
  /** RFC 9449 §5.2 (docs/rules.md#dpop): its token requests must carry a DPoP proof. */
  dpopBoundAccessTokens?: boolean;
  /** docs/rules.md#fapi2: follows the FAPI 2.0 Security Profile; confidential clients only. */
  fapi2?: boolean;
  /** docs/rules.md#client-authentication: RFC 7591 §2 token_endpoint_auth_method; absent: the kind's default. */
  tokenEndpointAuthMethod?: string;
  /** docs/rules.md#client-authentication: RFC 7591 §2 jwks, JSON text or parsed; needed by private_key_jwt. */
  jwks?: unknown;
  /** OpenID Connect Registration §2 id_token_signed_response_alg; absent or '': the default. */
  idTokenSignedResponseAlg?: string;
  /** OpenID Connect RP-Initiated Logout §3.1; on the origins of the redirect URIs. */
  postLogoutRedirectUris?: string[];
  /** Who registered it, for the audit trail: the owner unless an operator did it for them. */
  actorId?: string | null;
}

export interface CreatedClient {
  client: ClientView;
  /** Plain-text first secret of a confidential client: shown once, never stored. */
  secret: string | null;
}

/** docs/rules.md#client-states: a new client starts pending and needs at least one scope. */
export async function createClient(ctx: ServiceContext, input: NewClient): Promise<CreatedClient> {
  return insertClient(ctx, input, checkScopes(input.scopes), 'pending');
}

/**
 * docs/rules.md#legacy-clients: legacy clients exist only by import — a client from before scopes,
 * carried over approved (it was in use) and without scopes.
 */
export async function importLegacyClient(ctx: ServiceContext, input: Omit<NewClient, 'scopes'>): Promise<CreatedClient> {
  return insertClient(ctx, { ...input, scopes: [] }, null, 'approved');
}

export async function insertClient(ctx: ServiceContext, input: NewClient, scopes: string[] | null, state: ClientState): Promise<CreatedClient> {
  if (input.kind !== 'confidential' && input.kind !== 'public') {
    throw validation('kind must be confidential or public', 'kind');
  }
  if (input.fapi2 === true && input.kind !== 'confidential') throw fapi2NeedsConfidential();
  const tokenEndpointAuthMethod = input.tokenEndpointAuthMethod === undefined ? null : checkAuthMethod(input.tokenEndpointAuthMethod);
  const jwks = input.jwks === undefined ? null : checkJwks(input.jwks);
  checkAuthentication({ kind: input.kind, tokenEndpointAuthMethod, jwks, fapi2: input.fapi2 === true });
  const values = {
    name: checkName(input.name),
    description: checkDescription(input.description),
    homepageUrl: checkHomepage(input.homepageUrl),
    logoUrl: checkLogo(input.logoUrl),
    redirectUris: checkRedirectUris(input.redirectUris),
  };
  const idTokenSignedResponseAlg = checkIdTokenAlg(input.idTokenSignedResponseAlg ?? '', input.fapi2 === true);
  const postLogoutRedirectUris = checkPostLogoutRedirectUris(input.postLogoutRedirectUris ?? [], values.redirectUris);
  const now = ctx.clock();
  const id = randomId();
  let secret: string | null = null;
  const actorId = input.actorId === undefined ? input.ownerId : input.actorId;
  await ctx.stores.transaction(async (tx) => {
    const par = input.requirePushedAuthorizationRequests === true;
    const dpopBoundAccessTokens = input.dpopBoundAccessTokens === true;
    const fapi2 = input.fapi2 === true;
    await tx.clients.insert({ id, ...values, ownerId: input.ownerId, kind: input.kind, scopes, state, createdAt: now, requirePushedAuthorizationRequests: par, dpopBoundAccessTokens, fapi2, tokenEndpointAuthMethod, jwks, idTokenSignedResponseAlg, postLogoutRedirectUris });
    await tx.audit.append(
      {
        type: 'client.created',
        actorId,
        clientId: id,
        data: { kind: input.kind, scopes: scopes === null ? 'legacy' : formatScopes(scopes), ...(dpopBoundAccessTokens ? { dpopBoundAccessTokens } : {}), ...(tokenEndpointAuthMethod !== null ? { tokenEndpointAuthMethod } : {}) },
      },
      now,
    );
    // A confidential client always holds at least one active secret (docs/rules.md#client-record).
    if (input.kind === 'confidential') secret = (await insertSecret(tx, ctx.clock(), id, actorId)).secret;
  });
  return { client: await requireClient(ctx, id), secret };
}
