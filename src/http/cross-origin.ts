// CORS for the endpoints a browser-based MCP client or single-page application calls from
// its own origin (the MCP Inspector, an agent in a web page): discovery, registration,
// token, revocation and /mcp. They authenticate by what the request carries (a bearer
// token, a code verifier, a client's own credentials), never by a cookie, so any origin may
// read their answers and no credentials are allowed. Everything else stays same-origin:
// the pages (cookies), introspection (resource servers, server to server) and the REST API.
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MCP_PATH, METADATA_PATH, PROTECTED_RESOURCE_METADATA_PREFIX, REGISTER_PATH, REVOKE_PATH, TOKEN_PATH } from './oauth/paths.ts';

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
const closed: FastifyCorsOptions = { origin: false };

function opensToOtherOrigins(request: FastifyRequest): boolean {
  const path = request.url.split('?', 1)[0]!;
  return OPEN_PATHS.has(path) || path.startsWith(`${PROTECTED_RESOURCE_METADATA_PREFIX}/`);
}

/**
 * Registers CORS on `scope`: only the routes registered in that scope pay for it, and its
 * catch-all OPTIONS route answers preflights of the open paths only (404 for the rest).
 */
export async function allowCrossOrigin(scope: FastifyInstance): Promise<void> {
  await scope.register(cors, { delegator: (request, done) => done(null, opensToOtherOrigins(request) ? opened : closed) });
}
