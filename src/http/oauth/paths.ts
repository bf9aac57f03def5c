// Where the OAuth endpoints for client applications answer.
export const TOKEN_PATH = '/v2/auth/oauth2/token';
export const REVOKE_PATH = '/v2/auth/oauth2/revoke';
export const INTROSPECT_PATH = '/v2/auth/oauth2/introspect';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';
