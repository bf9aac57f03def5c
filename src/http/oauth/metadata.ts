// RFC 8414 authorization server metadata, so integrators' libraries can configure
// themselves. A public document: the one answer of the scope that may be cached.
import type { FastifyInstance } from 'fastify';
import { ASSERTION_ALGORITHMS } from '../../oauth/client-assertion.ts';
import { DPOP_ALGORITHMS } from '../../oauth/dpop.ts';
import { ID_JAG_GRANT_PROFILE } from '../../oauth/identity-assertion.ts';
import { scopeRegistry } from '../../oauth/scopes.ts';
import type { AppContext } from '../../context.ts';
import { AUTHORIZE_PATH, INTROSPECT_PATH, METADATA_PATH, PAR_PATH, REGISTER_PATH, REVOKE_PATH, TOKEN_PATH } from './paths.ts';
import { SUPPORTED_GRANT_TYPES } from '../../oauth/grants/index.ts';

export function metadataRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(METADATA_PATH, { config: { cacheable: true } }, async () => ({
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
    scopes_supported: scopeRegistry.map((s) => s.name),
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
  }));
}
