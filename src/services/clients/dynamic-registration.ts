// Dynamic client registration (RFC 7591, docs/rules.md#dynamic-registration): MCP clients that predate client
// metadata documents register themselves. Registration validates like the developer form
// (same checks, same messages); what the policy allows is decided here. Nobody is signed
// in, so such clients belong to one built-in account that cannot sign in: admins review
// them in /admin/oauth-clients like any other.
import { randomBytes } from 'node:crypto';
import { OAuthError } from '../../oauth/errors.ts';
import { SUPPORTED_GRANT_TYPES } from '../../oauth/grants/index.ts';
import { formatScopes } from '../../oauth/scopes.ts';
import { TOKEN_ENDPOINT_AUTH_METHODS } from '../../oauth/storage.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors.ts';
import { createUser, findUserByEmail } from '../accounts/users.ts';
import { checkScopes } from './input.ts';
import { insertClient } from './registration.ts';
import type { ClientView } from './view.ts';

export interface RegistrationPolicy {
  policy: 'review' | 'open';
  /** docs/rules.md#dynamic-registration: under `open`, the most a registered client may hold; also the default. */
  scopes: readonly string[];
}

/** RFC 7591 §3.2.2: refused metadata is an OAuth error, with the codes that RFC adds. */
const metadataError = (d: string) => new OAuthError('invalid_client_metadata', d);
const redirectUriError = (d: string) => new OAuthError('invalid_redirect_uri', d);

/** The account that owns dynamically registered clients. */
export const REGISTRATION_OWNER_EMAIL = 'dynamic-registration@gatehouse.invalid';

/** The built-in owner of clients nobody signed in to register (RFC 7591 and metadata documents). */
export async function registrationOwner(ctx: ServiceContext): Promise<string> {
  const found = await findUserByEmail(ctx, REGISTRATION_OWNER_EMAIL);
  if (found) return found.id;
  try {
    // A password nobody knows: the account exists to own clients, never to sign in.
    return (await createUser(ctx, { email: REGISTRATION_OWNER_EMAIL, name: 'Dynamic client registration', password: randomBytes(32).toString('base64url') })).id;
  } catch (error) {
    // Another instance created it first.
    const again = await findUserByEmail(ctx, REGISTRATION_OWNER_EMAIL);
    if (again) return again.id;
    throw error;
  }
}

/**
 * SECURITY.md: whether a client belongs to the built-in account, that is was registered by
 * nobody who signed in: a metadata-document client or a dynamically registered one. The
 * account's id never changes once it exists, so it is looked up until found, then kept.
 */
export function selfRegisteredClients(ctx: ServiceContext): (client: { ownerId: string }) => Promise<boolean> {
  let ownerId: string | undefined;
  return async (client) => {
    ownerId ??= (await findUserByEmail(ctx, REGISTRATION_OWNER_EMAIL))?.id;
    return ownerId !== undefined && client.ownerId === ownerId;
  };
}

function optionalString(metadata: Record<string, unknown>, name: string): string | undefined {
  const value = metadata[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw metadataError(`${name} must be a string`);
  return value;
}

function stringList(metadata: Record<string, unknown>, name: string): string[] | undefined {
  const value = metadata[name];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw metadataError(`${name} must be an array of strings`);
  return value as string[];
}

export interface RegisteredClient {
  client: ClientView;
  secret: string | null;
  authMethod: 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
}

/** RFC 7591 §2, §3.1: reads and checks the metadata, then creates the client as the policy says. */
export async function registerDynamicClient(ctx: ServiceContext, policy: RegistrationPolicy, body: unknown): Promise<RegisteredClient> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw metadataError('the request body must be a JSON object of client metadata (RFC 7591 §2)');
  const metadata = body as Record<string, unknown>;
  const redirectUris = stringList(metadata, 'redirect_uris');
  if (redirectUris === undefined || redirectUris.length === 0) {
    throw redirectUriError('redirect_uris is required: the authorization code flow needs at least one');
  }
  // RFC 7591 §2: the default method is client_secret_basic.
  const named = optionalString(metadata, 'token_endpoint_auth_method') ?? 'client_secret_basic';
  const authMethod = TOKEN_ENDPOINT_AUTH_METHODS.find((m) => m === named);
  if (authMethod === undefined) {
    throw metadataError(`token_endpoint_auth_method "${named}" is not supported: use ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}`);
  }
  // RFC 7591 §2: keys by value only; fetching a jwks_uri would make registration an outbound request.
  if (metadata.jwks_uri !== undefined) throw metadataError('jwks_uri is not supported: send the public keys by value in jwks');
  if (policy.policy === 'open' && authMethod !== 'none') {
    throw metadataError('open registration is for public clients only: send token_endpoint_auth_method "none" and use PKCE');
  }
  const grantTypes = stringList(metadata, 'grant_types') ?? ['authorization_code'];
  const unsupportedGrant = grantTypes.find((g) => !SUPPORTED_GRANT_TYPES.includes(g));
  if (unsupportedGrant !== undefined) throw metadataError(`grant_types "${unsupportedGrant}" is not supported: use ${SUPPORTED_GRANT_TYPES.join(' and ')}`);
  const responseTypes = stringList(metadata, 'response_types') ?? ['code'];
  if (responseTypes.some((r) => r !== 'code')) throw metadataError('response_types must be ["code"]');
  // RFC 9449 §5.2: a boolean, false when omitted (docs/rules.md#dpop).
  const dpopBound = metadata.dpop_bound_access_tokens ?? false;
  if (typeof dpopBound !== 'boolean') throw metadataError('dpop_bound_access_tokens must be true or false');

  // RFC 9126 §6: the client metadata parameter require_pushed_authorization_requests, a boolean (default false).
  const requirePar = metadata.require_pushed_authorization_requests ?? false;
  if (typeof requirePar !== 'boolean') throw metadataError('require_pushed_authorization_requests must be true or false (RFC 9126 §6)');

  let scopes: string[];
  try {
    const requested = optionalString(metadata, 'scope');
    scopes = requested === undefined || requested.trim() === '' ? [...policy.scopes] : checkScopes([requested]);
  } catch (error) {
    if (error instanceof ServiceError) throw metadataError(`scope: ${error.message}`);
    throw error;
  }
  if (policy.policy === 'open') {
    const outside = scopes.filter((s) => !policy.scopes.includes(s));
    if (outside.length > 0) throw metadataError(`scope ${outside.join(', ')} cannot be registered without review: this server allows ${policy.scopes.join(' ')}`);
  }

  const idTokenAlg = optionalString(metadata, 'id_token_signed_response_alg');
  const postLogoutRedirectUris = stringList(metadata, 'post_logout_redirect_uris');

  const redirectHost = (() => {
    try {
      return new URL(redirectUris[0]!).host;
    } catch {
      return 'unknown host';
    }
  })();
  try {
    const created = await insertClient(
      ctx,
      {
        ownerId: await registrationOwner(ctx),
        name: optionalString(metadata, 'client_name') ?? `Application returning to ${redirectHost}`,
        description: 'Registered dynamically (RFC 7591).',
        homepageUrl: optionalString(metadata, 'client_uri'),
        logoUrl: optionalString(metadata, 'logo_uri'),
        kind: authMethod === 'none' ? 'public' : 'confidential',
        redirectUris,
        scopes,
        requirePushedAuthorizationRequests: requirePar,
        dpopBoundAccessTokens: dpopBound,
        ...(authMethod === 'none' ? {} : { tokenEndpointAuthMethod: authMethod }),
        ...(metadata.jwks !== undefined ? { jwks: metadata.jwks } : {}),
        // OpenID Connect Registration §2 and RP-Initiated Logout §3.1.
        ...(idTokenAlg !== undefined ? { idTokenSignedResponseAlg: idTokenAlg } : {}),
        ...(postLogoutRedirectUris !== undefined ? { postLogoutRedirectUris } : {}),
      },
      scopes,
      policy.policy === 'open' ? 'approved' : 'pending',
    );
    return { client: created.client, secret: created.secret, authMethod };
  } catch (error) {
    // The developer form's checks, answered in RFC 7591 terms.
    if (error instanceof ServiceError && error.kind === 'validation') {
      throw (error.field === 'redirect_uris' ? redirectUriError : metadataError)(inMetadataTerms(error));
    }
    throw error;
  }
}

/** The developer form's field names, as client metadata (RFC 7591 §2) spells them. */
const metadataNames: Record<string, string> = { name: 'client_name', homepage_url: 'client_uri', logo_url: 'logo_uri', scopes: 'scope' };

/**
 * A developer-form check's message in client-metadata terms: it starts with the field it is
 * about, so the caller reads the name it sent (client_uri), not the form's (homepage_url).
 */
export function inMetadataTerms(error: ServiceError): string {
  const field = error.field;
  if (field === undefined) return error.message;
  const name = metadataNames[field] ?? field;
  return error.message.startsWith(field) ? name + error.message.slice(field.length) : `${name}: ${error.message}`;
}

/** RFC 7591 §3.2.1: the client information response. */
export function clientInformation(registered: RegisteredClient, issuedAt: number): Record<string, unknown> {
  const c = registered.client;
  return {
    client_id: c.clientId,
    client_id_issued_at: Math.floor(issuedAt / 1000),
    // A private_key_jwt client cannot authenticate with a secret, so none is handed out.
    ...(registered.secret !== null && registered.authMethod !== 'private_key_jwt' ? { client_secret: registered.secret, client_secret_expires_at: 0 } : {}),
    client_name: c.name,
    redirect_uris: c.redirectUris,
    token_endpoint_auth_method: registered.authMethod,
    ...(c.jwks !== null ? { jwks: c.jwks } : {}),
    grant_types: SUPPORTED_GRANT_TYPES,
    response_types: ['code'],
    scope: formatScopes(c.scopes),
    require_pushed_authorization_requests: c.requirePushedAuthorizationRequests,
    // RFC 9449 §5.2: false is the default, so only a client that asked for it hears it back.
    ...(c.dpopBoundAccessTokens ? { dpop_bound_access_tokens: true } : {}),
    ...(c.homepageUrl ? { client_uri: c.homepageUrl } : {}),
    ...(c.logoUrl ? { logo_uri: c.logoUrl } : {}),
    ...(c.idTokenSignedResponseAlg !== null ? { id_token_signed_response_alg: c.idTokenSignedResponseAlg } : {}),
    ...(c.postLogoutRedirectUris.length > 0 ? { post_logout_redirect_uris: c.postLogoutRedirectUris } : {}),
  };
}
