// Client authentication at the token, PAR, revocation and introspection endpoints
// (RFC 6749 §2.3.1, docs/rules.md#client-authentication): client_secret_basic, client_secret_post,
// private_key_jwt (RFC 7523 §2.2, client-assertion.ts), or none for public clients. Using two
// methods at once is invalid_request.
import { assertedClientId, CLIENT_ASSERTION_TYPE, checkClientAssertion } from './client-assertion.ts';
import { documentClientRefusal } from './client-metadata.ts';
import type { OAuthContext } from './context.ts';
import { unlimitedAuthentications, type FailedAuthenticationLimit } from './client-limits.ts';
import { invalidClient, invalidRequest, OAuthError, rateLimited, unauthorizedClient } from './errors.ts';
import { optional, type Params } from './params.ts';
import type { ClientRecord } from './storage.ts';
import { credentialKind, hashesEqual, hashToken, isWellFormed, type TokenKind } from './token-format.ts';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

export interface ClientCredentials {
  /** The client_id as authentication reads it (Basic user name form-decoded). */
  clientId: string;
  secret: string | undefined;
  method: ClientAuthMethod;
  /** RFC 7523 §2.2: the client_assertion, with method private_key_jwt. */
  assertion?: string;
}

// Secrets' last-used time is for the developer's eyes; a minute's precision spares a write
// on every token request.
const LAST_USED_PRECISION_MS = 60_000;

function formDecode(part: string): string {
  // RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic encoding.
  return decodeURIComponent(part.replace(/\+/g, ' '));
}

export function readClientCredentials(params: Params, authorization: string | undefined): ClientCredentials {
  const bodyId = optional(params, 'client_id');
  const bodySecret = optional(params, 'client_secret');
  const assertion = readAssertion(params);
  if (assertion !== undefined) {
    if (bodySecret !== undefined || (authorization !== undefined && /^basic /i.test(authorization))) {
      throw invalidRequest('use one client authentication method: a client_assertion or a client_secret (HTTP Basic or in the body), not both');
    }
    // RFC 7523 §3 point 2: the assertion names its client in sub; RFC 7521 §4.2: client_id, if sent, must agree.
    const clientId = assertedClientId(assertion);
    if (clientId === undefined) throw invalidClient('client_assertion must be a JWT whose sub is the client_id (RFC 7523 §3)');
    if (bodyId !== undefined && bodyId !== clientId) throw invalidClient('client_id differs from the sub of the client_assertion: both must be the client_id');
    return { clientId, secret: undefined, method: 'private_key_jwt', assertion };
  }
  if (authorization !== undefined && /^basic /i.test(authorization)) {
    if (bodySecret !== undefined) {
      throw invalidRequest('use one client authentication method: HTTP Basic or client_secret in the body, not both');
    }
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    let clientId: string;
    let secret: string;
    try {
      if (colon < 0) throw new Error('no colon');
      clientId = formDecode(decoded.slice(0, colon));
      secret = formDecode(decoded.slice(colon + 1));
    } catch {
      const e = invalidClient('the Authorization header is not valid HTTP Basic credentials (base64 of client_id:client_secret)');
      e.basicChallenge = true;
      throw e;
    }
    if (bodyId !== undefined && bodyId !== clientId) {
      throw invalidRequest('client_id in the body differs from the one in the Authorization header');
    }
    // docs/rules.md#client-authentication: a public client may send its client_id with an empty password (the
    // client-oauth2 library does on refresh); no password is no secret.
    return { clientId, secret: secret === '' ? undefined : secret, method: 'client_secret_basic' };
  }
  if (bodyId === undefined) {
    throw invalidClient('client authentication is required: send client_id (and client_secret for confidential clients)');
  }
  return { clientId: bodyId, secret: bodySecret, method: bodySecret === undefined ? 'none' : 'client_secret_post' };
}

/** RFC 7521 §4.2: client_assertion_type and client_assertion come together; undefined when neither was sent. */
function readAssertion(params: Params): string | undefined {
  const type = optional(params, 'client_assertion_type');
  const assertion = optional(params, 'client_assertion');
  if (type === undefined && assertion === undefined) return undefined;
  if (assertion === undefined) throw invalidRequest('client_assertion_type was sent without client_assertion: send the signed JWT in client_assertion');
  if (type === undefined) throw invalidRequest(`client_assertion was sent without client_assertion_type: send client_assertion_type=${CLIENT_ASSERTION_TYPE}`);
  if (type !== CLIENT_ASSERTION_TYPE) throw invalidClient(`client_assertion_type must be ${CLIENT_ASSERTION_TYPE} (RFC 7523 §2.2)`);
  return assertion;
}

/**
 * Authenticates the client and returns it if it may use the endpoint (state approved): the
 * revocation and introspection endpoints. The token endpoint takes the same two steps with
 * its request count between them (token-endpoint.ts).
 */
export async function authenticateClient(ctx: OAuthContext, creds: ClientCredentials, failures: FailedAuthenticationLimit = unlimitedAuthentications): Promise<ClientRecord> {
  return requireApproved(await verifyClient(ctx, creds, failures));
}

/**
 * Who the client is (RFC 6749 §3.2.1), its secret checked under the limit of failed
 * authentications: only invalid_client counts as a failure. Whether it is approved is the
 * next step.
 */
export async function verifyClient(ctx: OAuthContext, creds: ClientCredentials, failures: FailedAuthenticationLimit = unlimitedAuthentications): Promise<ClientRecord> {
  // docs/integrating.md#connect-an-ai-agent-mcp: under CIMD_POLICY=off a URL client is an unknown client (RFC 6749 §5.2).
  const off = documentClientRefusal(ctx.clientMetadata !== undefined, creds.clientId);
  if (off !== undefined) throw invalidClient(`client ${creds.clientId} is not a known client: ${off}`);
  const check = await failures.reserve(creds);
  if (!check.allowed) throw rateLimited(`too many failed client authentications: retry in ${check.retryAfter} seconds`, check.retryAfter);
  let client: ClientRecord;
  try {
    client = await authenticate(ctx, creds);
  } catch (error) {
    const failed = error instanceof OAuthError && error.code === 'invalid_client';
    await check.settle(failed);
    // RFC 6749 §5.2: a client that tried HTTP Basic is answered with a Basic challenge.
    if (failed && creds.method === 'client_secret_basic') error.basicChallenge = true;
    throw error;
  }
  await check.settle(false);
  return client;
}

/** An authenticated client may use the endpoints only once approved. */
export function requireApproved(client: ClientRecord): ClientRecord {
  // docs/rules.md#token-errors: authenticated but not approved.
  if (client.state !== 'approved') {
    throw unauthorizedClient(`client ${client.id} is ${client.state}: only approved clients may request tokens`);
  }
  return client;
}

const credentialWords: Record<TokenKind, string> = {
  accessToken: 'an access token',
  refreshToken: 'a refresh token',
  authorizationCode: 'an authorization code',
  clientSecret: 'a client secret',
  bookingManageToken: 'a booking manage token',
  teamInviteToken: 'a team invite token',
  connectionRequestToken: 'a connection request token',
};
const ISSUED_CLIENT_ID = /^[0-9A-Za-z]{22}$/;

/**
 * What the log says of a client_id no client has (docs/rules.md#private-records: no secret in logs). Callers swap
 * client_id and client_secret, or paste a token into it: the log names what was sent in words.
 * Only an id shaped like the ones Gatehouse issues is written out; anything else (a password,
 * say) by its length alone.
 */
function unknownClientCause(clientId: string): string {
  const kind = credentialKind(clientId);
  if (kind !== undefined) return `unknown client_id: ${credentialWords[kind]} was sent as client_id`;
  if (ISSUED_CLIENT_ID.test(clientId)) return `unknown client_id ${clientId}`;
  return `unknown client_id of ${clientId.length} characters, not shaped like an issued client id`;
}

// At module level: tsx gives a named arrow a defineProperty call where it is made, here once.
const wrongSecret = () => invalidClient('client authentication failed: client_secret is not an active secret of this client');

async function authenticate(ctx: OAuthContext, creds: ClientCredentials): Promise<ClientRecord> {
  const found = await ctx.store.findClientWithSecrets(creds.clientId);
  if (found === undefined) throw invalidClient('client authentication failed: unknown client_id', unknownClientCause(creds.clientId));
  const { client, secrets } = found;
  if (creds.method === 'private_key_jwt') return authenticateByAssertion(ctx, client, creds.assertion!);
  if (client.kind === 'public') {
    if (creds.secret !== undefined) {
      throw invalidClient('this client is public and has no secret: send client_id without client_secret and use PKCE');
    }
    return client;
  }
  if (client.tokenEndpointAuthMethod === 'private_key_jwt') {
    throw invalidClient('this client is registered for private_key_jwt: authenticate with a client_assertion signed by one of its keys (RFC 7523 §2.2), not with a client_secret');
  }
  if (client.fapi2 === true) {
    // docs/rules.md#fapi2: FAPI 2.0 §5.3.2.1 allows no secret; a client that opted in before keys were registrable is told what to do.
    throw invalidClient('this client follows the FAPI 2.0 Security Profile, which requires private_key_jwt: register its public keys (jwks) and the method private_key_jwt, then send a client_assertion instead of a client_secret');
  }
  if (creds.secret === undefined) {
    throw invalidClient('client_secret is required for a confidential client (in the body or with HTTP Basic)');
  }
  if (!isWellFormed('clientSecret', creds.secret)) throw wrongSecret();
  const presented = hashToken(creds.secret);
  // Compare against every active secret so timing does not tell which one matched.
  let matched: (typeof secrets)[number] | undefined;
  for (const secret of secrets) if (hashesEqual(secret.hash, presented)) matched = secret;
  if (matched === undefined) throw wrongSecret();
  const now = ctx.clock();
  if (matched.lastUsedAt === null || now - matched.lastUsedAt > LAST_USED_PRECISION_MS) {
    await ctx.store.markSecretUsed(matched.id, now);
  }
  return client;
}

/**
 * RFC 7523 §3 (docs/rules.md#client-authentication): the client must have registered
 * private_key_jwt and its keys; the assertion must pass every check of client-assertion.ts;
 * then its jti is spent once across every instance, beside DPoP proofs' (a unique key decides:
 * ARCHITECTURE.md#single-use-is-atomic), so a captured assertion cannot be sent again.
 */
async function authenticateByAssertion(ctx: OAuthContext, client: ClientRecord, assertion: string): Promise<ClientRecord> {
  if (client.tokenEndpointAuthMethod !== 'private_key_jwt' || client.jwks == null) {
    throw invalidClient('this client is not registered for private_key_jwt: register its public keys (jwks) and the method private_key_jwt first, or authenticate as it is registered');
  }
  const now = ctx.clock();
  const checked = await checkClientAssertion(assertion, { clientId: client.id, issuer: ctx.issuer, tokenEndpoint: ctx.dpop.tokenEndpoint, jwks: client.jwks, fapi2: client.fapi2 === true }, now);
  if (!checked.ok) throw invalidClient(checked.description);
  if (!(await ctx.dpop.proofs.recordProof(checked.replayKey, checked.acceptableUntil))) {
    throw invalidClient('this client_assertion was already used: make a new one, with a new jti, for every request (RFC 7523 §3 point 7)');
  }
  return client;
}
