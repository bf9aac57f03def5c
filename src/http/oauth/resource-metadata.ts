// RFC 9728 protected resource metadata (docs/rules.md#protected-resource-metadata): how a client that met a 401 at /v2
// or /mcp learns which authorization server issues tokens for it, and which scopes exist.
// Public documents, cacheable like the authorization server's.
import type { FastifyInstance } from 'fastify';
import { DPOP_ALGORITHMS } from '../../oauth/dpop.ts';
import { scopeRegistry } from '../../oauth/scopes.ts';
import type { AppContext } from '../../context.ts';
import { API_RESOURCE_PATH, MCP_PATH, PROTECTED_RESOURCE_METADATA_PREFIX } from './paths.ts';

export function resourceMetadataRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const path of [API_RESOURCE_PATH, MCP_PATH]) {
    app.get(`${PROTECTED_RESOURCE_METADATA_PREFIX}${path}`, { config: { cacheable: true } }, async () => ({
      // RFC 9728 §3.3: the resource named here must be the one the metadata URL was made from.
      resource: `${ctx.config.baseUrl}${path}`,
      authorization_servers: [ctx.config.issuer],
      // MCP clients ask for exactly these (SEP-835), so /mcp names what an agent nobody
      // made by hand can be given (config's agentScopes); /v2 names every scope.
      scopes_supported: path === MCP_PATH ? ctx.config.agentScopes : scopeRegistry.filter((s) => s.family !== 'identity').map((s) => s.name),
      bearer_methods_supported: ['header'],
      // RFC 9728 §2: the proofs this resource verifies for DPoP-bound tokens (docs/rules.md#dpop).
      dpop_signing_alg_values_supported: [...DPOP_ALGORITHMS],
      resource_name: path === MCP_PATH ? 'Gatehouse platform (MCP server)' : 'Gatehouse platform API',
    }));
  }
}
