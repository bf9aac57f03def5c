import type { ProtectedResources } from '../../oauth/resources.ts';
// Where the OAuth endpoints for client applications answer.
/** RFC 6749 §3.1: the authorization endpoint, a page of APP_URL (the only endpoint not under BASE_URL). */
export const AUTHORIZE_PATH = '/auth/oauth2/authorize';
export const TOKEN_PATH = '/v2/auth/oauth2/token';
/** RFC 9126 §2: pushed authorization requests, beside the token endpoint. */
export const PAR_PATH = '/v2/auth/oauth2/par';
export const REVOKE_PATH = '/v2/auth/oauth2/revoke';
export const INTROSPECT_PATH = '/v2/auth/oauth2/introspect';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';
export const REGISTER_PATH = '/v2/auth/oauth2/register';
export const CLIENT_DETAILS_PATH = '/v2/auth/oauth2/clients/:clientId';
/** OpenID Connect Discovery §4: the provider's configuration, beside RFC 8414's. */
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
/** OpenID Connect Core §10.1.1 jwks_uri: the public keys ID tokens are signed with. */
export const JWKS_PATH = '/v2/auth/oauth2/jwks';
/** OpenID Connect RP-Initiated Logout §2: end_session_endpoint, a page of APP_URL as the authorization endpoint is. */
export const END_SESSION_PATH = '/auth/oauth2/logout';
/** OpenID Connect Core §5.3: UserInfo. */
export const USERINFO_PATH = '/v2/auth/oauth2/userinfo';

// RFC 8707 / RFC 9728: the platform's protected resources (docs/rules.md#resource-indicators, docs/rules.md#protected-resource-metadata).

export const API_RESOURCE_PATH = '/v2';
export const MCP_PATH = '/mcp';
/** RFC 9728 §3.1: the well-known prefix, followed by the resource's path. */
export const PROTECTED_RESOURCE_METADATA_PREFIX = '/.well-known/oauth-protected-resource';

export function protectedResources(baseUrl: string): ProtectedResources {
  const api = `${baseUrl}${API_RESOURCE_PATH}`;
  return { default: api, known: [api, `${baseUrl}${MCP_PATH}`] };
}

/** RFC 9728 §3.1: where a resource's metadata lives, given the resource's path. */
export function resourceMetadataUrl(baseUrl: string, resourcePath: string): string {
  return `${baseUrl}${PROTECTED_RESOURCE_METADATA_PREFIX}${resourcePath}`;
}
