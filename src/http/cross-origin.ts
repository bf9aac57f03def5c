// CORS for the endpoints a browser-based MCP client or single-page application calls from
// its own origin (the MCP Inspector, an agent in a web page): discovery, registration,
// token, revocation and /mcp. They authenticate by what the request carries (a bearer
// token, a code verifier, a client's own credentials), never by a cookie, so no credentials
// are allowed. Discovery, registration, token and revocation answer any origin: an agent
// reads them before it is anyone's client. /mcp answers the origins McpOrigins allows, the
// same decision that refuses the others (platform/mcp/server.ts). Everything else stays
// same-origin: the pages (cookies), introspection (resource servers, server to server) and
// the REST API.
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config/index.ts';
import type { ClientStore } from '../services/clients/store.ts';
import { MCP_PATH, METADATA_PATH, PROTECTED_RESOURCE_METADATA_PREFIX, REGISTER_PATH, REVOKE_PATH, TOKEN_PATH } from './oauth/paths.ts';

/**
 * docs/rules.md#mcp-server: the origins whose web pages may call /mcp. The MCP transport (Streamable
 * HTTP, "Security Warning") has a server validate Origin and answer 403 to a present, invalid
 * one, so that a page cannot drive the server through DNS rebinding. Served: a request without
 * Origin (an agent outside a browser), Gatehouse's own origins (APP_URL, BASE_URL), the origin
 * of each redirect URI of an approved application, where its pages run (a metadata document's
 * too, unless CIMD_POLICY=off stops such clients), and MCP_ALLOWED_ORIGINS.
 */
export class McpOrigins {
  private readonly listed: ReadonlySet<string>;
  private readonly documentClients: boolean;
  private readonly decided = new WeakMap<FastifyRequest, Promise<boolean>>();

  constructor(
    config: Pick<Config, 'appUrl' | 'baseUrl' | 'mcpAllowedOrigins' | 'clientMetadata'>,
    private readonly clients: Pick<ClientStore, 'hasApprovedRedirectOrigin'>,
  ) {
    this.listed = new Set([new URL(config.appUrl).origin, new URL(config.baseUrl).origin, ...config.mcpAllowedOrigins]);
    this.documentClients = config.clientMetadata.policy !== 'off';
  }

  /** Whether the request's Origin may call /mcp: decided once per request, for CORS and for the check alike. */
  allows(request: FastifyRequest): Promise<boolean> {
    let decision = this.decided.get(request);
    if (decision === undefined) {
      decision = this.decide(request.headers.origin);
      this.decided.set(request, decision);
    }
    return decision;
  }

  private async decide(origin: string | undefined): Promise<boolean> {
    if (origin === undefined || this.listed.has(origin)) return true;
    return this.clients.hasApprovedRedirectOrigin(origin, { documentClients: this.documentClients });
  }
}

const OPEN_PATHS = new Set([METADATA_PATH, TOKEN_PATH, REVOKE_PATH, REGISTER_PATH, MCP_PATH]);

const opened: FastifyCorsOptions = {
  origin: '*',
  methods: ['GET', 'POST'],
  // MCP Streamable HTTP sends its protocol version and, on stateful servers, a session id.
  allowedHeaders: ['authorization', 'content-type', 'dpop', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'],
  // RFC 9728 §5.1: a client learns where the resource metadata is from WWW-Authenticate.
  exposedHeaders: ['www-authenticate', 'retry-after', 'dpop-nonce', 'mcp-session-id'],
  maxAge: 600,
  // An OPTIONS without Origin or Access-Control-Request-Method (a probe, a tool asking what the
  // endpoint allows) gets the same answer as a preflight, not a bare 400 'Invalid Preflight Request'.
  strictPreflight: false,
};
/** /mcp to an origin McpOrigins allows: that origin, named back (with Vary: Origin). */
const openedToOrigin: FastifyCorsOptions = { ...opened, origin: true };
const closed: FastifyCorsOptions = { origin: false };

const pathOf = (request: FastifyRequest) => request.url.split('?', 1)[0]!;

function opensToOtherOrigins(path: string): boolean {
  return OPEN_PATHS.has(path) || path.startsWith(`${PROTECTED_RESOURCE_METADATA_PREFIX}/`);
}

/**
 * Registers CORS on `scope`: only the routes registered in that scope pay for it, and its
 * catch-all OPTIONS route answers preflights of the open paths only (404 for the rest, and
 * for /mcp from an origin `mcpOrigins` does not allow).
 */
export async function allowCrossOrigin(scope: FastifyInstance, mcpOrigins: McpOrigins): Promise<void> {
  await scope.register(cors, {
    delegator: (request, done) => {
      const path = pathOf(request);
      if (path !== MCP_PATH) return done(null, opensToOtherOrigins(path) ? opened : closed);
      mcpOrigins.allows(request).then(
        (allowed) => done(null, allowed ? openedToOrigin : closed),
        (error: Error) => done(error),
      );
    },
  });
}
