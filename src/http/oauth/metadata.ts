// RFC 8414 authorization server metadata and OpenID Connect Discovery §3 provider metadata, so
// integrators' libraries can configure themselves: one document, the second adding what an
// OpenID Provider publishes. Public documents: the answers of the scope that may be cached.
import type { FastifyInstance } from 'fastify';
import { ASSERTION_ALGORITHMS } from '../../oauth/client-assertion.ts';
import { DPOP_ALGORITHMS } from '../../oauth/dpop.ts';
import { ID_JAG_GRANT_PROFILE } from '../../oauth/identity-assertion.ts';
import { OFFLINE_ACCESS, scopeRegistry } from '../../oauth/scopes.ts';
import { ID_TOKEN_ALGORITHMS } from '../../oauth/signing-keys.ts';
import type { AppContext } from '../../context.ts';
import { AUTHORIZE_PATH, END_SESSION_PATH, INTROSPECT_PATH, JWKS_PATH, METADATA_PATH, OPENID_CONFIGURATION_PATH, PAR_PATH, REGISTER_PATH, REVOKE_PATH, TOKEN_PATH, USERINFO_PATH } from './paths.ts';
import { SUPPORTED_GRANT_TYPES } from '../../oauth/grants/index.ts';

/** The RFC 8414 document. */
function authorizationServerMetadata(ctx: AppContext) {
  return {
    issuer: ctx.config.issuer,
    authorization_endpoint: `${ctx.config.appUrl}${AUTHORIZE_PATH}`,
    token_endpoint: `${ctx.config.baseUrl}${TOKEN_PATH}`,
    revocation_endpoint: `${ctx.config.baseUrl}${REVOKE_PATH}`,
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
    revocation_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    introspection_endpoint: `${ctx.config.baseUrl}${INTROSPECT_PATH}`,
    // docs/rules.md#introspection: a public client (method none) may revoke but not introspect.
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    introspection_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    // OpenID Connect Core §11: offline_access may always be sent (it changes nothing).
    scopes_supported: [...scopeRegistry.map((s) => s.name), OFFLINE_ACCESS],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: SUPPORTED_GRANT_TYPES,
    // docs/integrating.md#enterprise-managed-agents: the JWT bearer grant takes an organization's ID-JAG.
    authorization_grant_profiles_supported: [ID_JAG_GRANT_PROFILE],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
    // RFC 7523 §2.2 (docs/rules.md#client-authentication): a client of the FAPI 2.0 profile may use the first three only.
    token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    code_challenge_methods_supported: ['S256'],
    // RFC 9449 §5.1 (docs/rules.md#dpop).
    dpop_signing_alg_values_supported: [...DPOP_ALGORITHMS],
    authorization_response_iss_parameter_supported: true,
    // docs/rules.md#server-metadata: what MCP clients look for (RFC 7591, draft-ietf-oauth-client-id-metadata-document).
    ...(ctx.config.registration.policy !== 'off' ? { registration_endpoint: `${ctx.config.baseUrl}${REGISTER_PATH}` } : {}),
    client_id_metadata_document_supported: ctx.config.clientMetadata.policy !== 'off',
    // RFC 9126 §5 (docs/rules.md#pushed-authorization).
    pushed_authorization_request_endpoint: `${ctx.config.baseUrl}${PAR_PATH}`,
    require_pushed_authorization_requests: ctx.config.pushedAuthorization.policy === 'required',
  };
}

/**
 * OpenID Connect Discovery §3 (docs/integrating.md#sign-in-with-gatehouse): the same issuer and
 * endpoints, and what an OpenID Provider adds. Subjects are public (the user's id, the same
 * for every client); the claims parameter (Core §5.5) is not supported: the scopes choose the claims.
 */
function openIdProviderMetadata(ctx: AppContext) {
  return {
    ...authorizationServerMetadata(ctx),
    jwks_uri: `${ctx.config.baseUrl}${JWKS_PATH}`,
    userinfo_endpoint: `${ctx.config.baseUrl}${USERINFO_PATH}`,
    // OpenID Connect RP-Initiated Logout §2.1.
    end_session_endpoint: `${ctx.config.appUrl}${END_SESSION_PATH}`,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...ID_TOKEN_ALGORITHMS],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'at_hash', 'name', 'email', 'email_verified'],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
}

export function metadataRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(METADATA_PATH, { config: { cacheable: true } }, async () => authorizationServerMetadata(ctx));
  app.get(OPENID_CONFIGURATION_PATH, { config: { cacheable: true } }, async () => openIdProviderMetadata(ctx));
  // OpenID Connect Core §10.1.1: public parts only, each with its kid. Cacheable for less than
  // an instance's refresh period, so that a verifier that caches it sees a new key in time.
  app.get(JWKS_PATH, { config: { cacheable: true } }, async (_request, reply) => {
    reply.header('cache-control', `public, max-age=${Math.min(ctx.config.signingKeys.refreshSeconds, 60)}`);
    return { keys: await ctx.oauth.signingKeys.published() };
  });
}
