// The MCP server at {BASE_URL}/mcp (docs/rules.md#mcp-server): Streamable HTTP, built with the official
// SDK, stateless — every POST gets its own server and transport and no session id is
// issued, so any instance answers any request. The bearer token must be bound to the /mcp
// resource (RFC 8707); a 401 names the resource metadata (RFC 9728 §5.1) so an agent can
// discover how to get one.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorizeApiRequest } from '../access-check.ts';
import { challenge, credentialsOf, guardedResource } from '../guard.ts';
import { allHandlers } from '../handlers.ts';
import { type AccessPrincipal, errorTable, failureOf, MCP_PATH, type McpOrigins, Refusal, refuseRepeatedJsonKeys, RepeatedJsonKeyError } from '../authorization-server.ts';
import type { PlatformDeps } from '../deps.ts';
import { ToolCatalog } from './tools.ts';

const connectRoute = { scope: 'public', membership: 'none' } as const;

function jsonRpcError(reply: FastifyReply, status: number, message: string, headers: Readonly<Record<string, string>> = {}, code = -32000) {
  return reply.status(status).headers(headers).send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * SECURITY.md: a JSON-RPC batch (an array body) gets one error. MCP 2025-06-18 removed
 * batching; the SDK would run each message and answer a schema dump as -32603.
 */
const BATCH_REFUSED = 'JSON-RPC batches are not supported (MCP 2025-06-18 removed batching): send one request per POST';

/**
 * JSON-RPC 2.0 §5.1: a tools/call whose name or arguments have the wrong shape is invalid
 * params. The SDK checks that shape itself, but answers it as an internal error (-32603)
 * whose message is a schema library's dump; the agent gets the parameter to fix instead.
 */
function malformedToolCall(body: unknown): { id: unknown; message: string } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, params, id } = body as Record<string, unknown>;
  if (method !== 'tools/call') return undefined;
  const isObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject(params)) return { id, message: "params must be an object with the tool's name and arguments" };
  const { name, arguments: args } = params as Record<string, unknown>;
  if (typeof name !== 'string') return { id, message: 'params.name must be the name of a tool (tools/list names them)' };
  if (args !== undefined && !isObject(args)) return { id, message: "params.arguments must be an object of the tool's arguments (its inputSchema in tools/list)" };
  return undefined;
}

function serverFor(catalog: ToolCatalog, principal: AccessPrincipal, request: FastifyRequest): Server {
  const server = new Server({ name: 'gatehouse', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: catalog.list(principal) }));
  server.setRequestHandler(CallToolRequestSchema, async (call) => {
    try {
      const data = await catalog.call(call.params.name, call.params.arguments, principal, request);
      return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: { data } };
    } catch (error) {
      // The catalog refused to run the call (tools.ts): already the protocol's error.
      if (error instanceof McpError) throw error;
      // The error table's MCP column: what the route would answer 4xx is the tool's own
      // failure, for the agent to read; an outage or a fault is a JSON-RPC error in the
      // table's words, never the cause's.
      const failure = failureOf(error, request);
      const { toolResult, code } = errorTable[failure.kind].mcp;
      if (toolResult) return { isError: true, content: [{ type: 'text', text: failure.message }] };
      throw new McpError(code, failure.message);
    }
  });
  return server;
}

/** The words of the 403 to a page of an origin McpOrigins does not allow. */
const ORIGIN_REFUSED =
  'this Origin may not call /mcp: it serves pages of its own origins, of the origins of approved applications\' redirect URIs and of MCP_ALLOWED_ORIGINS (MCP Streamable HTTP validates Origin against DNS rebinding)';

export async function mcpRoutes(app: FastifyInstance, ctx: PlatformDeps, origins: McpOrigins): Promise<void> {
  const resource = guardedResource(ctx, MCP_PATH);
  const store = ctx.services.stores.api.access;
  const catalog = new ToolCatalog(allHandlers(ctx), store, ctx.services.clock, resource);

  // docs/rules.md#mcp-server: a present, invalid Origin is 403 (MCP Streamable HTTP, "Security
  // Warning"), decided before the token or the body is read, so such a request runs nothing.
  app.addHook('onRequest', async (request) => {
    if (!(await origins.allows(request))) throw new Refusal('forbidden', ORIGIN_REFUSED);
  });

  // SECURITY.md: JSON is read as the OAuth endpoints read it; a repeated key is refused.
  refuseRepeatedJsonKeys(app);
  // Whatever fails outside a tool call (a body that is not JSON, or too large, a NUL
  // character, a repeated key; an outage during the token check) is answered as JSON-RPC
  // with the table's status and code: the caller is an MCP client, not a browser. A repeated
  // key is a parse error (JSON-RPC 2.0 §5.1: the body cannot be read as one request).
  app.setErrorHandler((error, request, reply) => {
    const failure = failureOf(error, request);
    const code = error instanceof RepeatedJsonKeyError ? ErrorCode.ParseError : errorTable[failure.kind].mcp.code;
    return jsonRpcError(reply, failure.status, failure.message, failure.headers, code);
  });

  app.post(MCP_PATH, { bodyLimit: 256 * 1024 }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const authorization = request.headers.authorization;
    const access =
      authorization === undefined || authorization === ''
        ? ({ status: 401, code: 'unauthorized', message: 'an access token for this MCP server is required' } as const)
        : await authorizeApiRequest(store, ctx.services.clock, connectRoute, credentialsOf(request, resource), {}, resource);
    // The hint is what the resource metadata lists for /mcp: what an agent nobody reviewed may get.
    if (!('ok' in access)) return jsonRpcError(reply, access.status, access.message, challenge(access, resource.metadataUrl, ctx.config.agentScopes));
    const principal = access.principal!;
    if (Array.isArray(request.body)) return jsonRpcError(reply, 400, BATCH_REFUSED, {}, ErrorCode.InvalidRequest);
    const malformed = malformedToolCall(request.body);
    if (malformed !== undefined) return reply.send({ jsonrpc: '2.0', id: malformed.id ?? null, error: { code: ErrorCode.InvalidParams, message: malformed.message } });

    const server = serverFor(catalog, principal, request);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  // Stateless: no server-initiated stream and no session to end (MCP Streamable HTTP).
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({ method, url: MCP_PATH, handler: async (_request, reply) => jsonRpcError(reply.header('allow', 'POST'), 405, 'this MCP server is stateless: send requests with POST') });
  }
}
