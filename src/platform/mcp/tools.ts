// The platform's operations as MCP tools (docs/rules.md#mcp-server). A tool is a route of the registry
// (src/platform/route-table.ts, `tool`): its input is the route's path parameters, query and
// body in one object; its access is decided by the route's own check (scope, then
// membership) against the /mcp resource, on the principal the POST's token check found
// when the route needs no team or organization; its answer is the route handler's data.
// So the route and the tool cannot drift apart.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { FastifyRequest } from 'fastify';
import { authorizeApiRequest, authorizePrincipal, needsMembershipFacts, type ApiAccessStore } from '../access-check.ts';
import { credentialsOf, type GuardedResource } from '../guard.ts';
import type { HandlerMap, Page, RouteHandler } from '../handler.ts';
import { apiRoutes, pathParams, type ApiRoute } from '../route-table.ts';
import { numberedAsSchema, numbersAsSchemaText } from '../numbered-ids.ts';
import { idParam, type JsonSchema } from '../schemas.ts';
import { type AccessPrincipal, grantSatisfies } from '../authorization-server.ts';

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required?: string[]; additionalProperties: false };
}

interface Tool {
  route: ApiRoute;
  handler: RouteHandler;
  definition: ToolDefinition;
  /** Which input field goes where. */
  fields: { params: string[]; query: string[]; body: string[] };
}

/**
 * A call this server will not run, refused as the protocol's invalid request rather than as
 * the tool's failure: no such tool, arguments its schema refuses, or access the route's check
 * denies. docs/integrating.md#connect-an-ai-agent-mcp: a call outside the token's scopes is an MCP
 * error naming the scope it lacks.
 */
function refusedCall(message: string, scope?: string): McpError {
  return new McpError(ErrorCode.InvalidRequest, message, scope === undefined ? undefined : { scope });
}

/**
 * A call naming no tool of the catalog, or arguments its input schema refuses: invalid params
 * (JSON-RPC 2.0 §5.1, -32602), as the MCP schema's example of an unknown tool answers.
 */
function invalidParams(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

const propertiesOf = (schema: JsonSchema | undefined) => (schema?.properties ?? {}) as Record<string, JsonSchema>;
const requiredOf = (schema: JsonSchema | undefined) => (schema?.required ?? []) as string[];

function defineTool(route: ApiRoute, handler: RouteHandler): Tool {
  const params = pathParams(route.path);
  const query = propertiesOf(handler.query);
  const body = propertiesOf(handler.body);
  const properties: Record<string, JsonSchema> = {
    ...Object.fromEntries(params.map((p) => [p, handler.params?.[p] ?? idParam])),
    ...query,
    ...body,
  };
  const required = [...params, ...requiredOf(handler.query), ...requiredOf(handler.body)];
  const scopeWords = route.scope === 'public' ? 'needs no scope' : `needs the ${route.scope} scope`;
  return {
    route,
    handler,
    fields: { params, query: Object.keys(query), body: Object.keys(body) },
    definition: {
      name: route.tool!,
      description: `${route.summary} (${route.method} ${route.path}; ${scopeWords}).`,
      inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
    },
  };
}

/** Copies the fields named, filling a schema's defaults as the route's validation would. */
function pick(args: Record<string, unknown>, names: string[], schema: JsonSchema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = propertiesOf(schema);
  for (const name of names) {
    if (args[name] !== undefined) out[name] = args[name];
    else if (props[name]?.default !== undefined) out[name] = props[name]!.default;
  }
  return out;
}

export class ToolCatalog {
  private readonly tools = new Map<string, Tool>();
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(
    handlers: HandlerMap,
    private readonly store: ApiAccessStore,
    private readonly clock: () => number,
    private readonly resource: GuardedResource,
  ) {
    for (const route of apiRoutes) {
      if (route.tool === undefined) continue;
      const handler = handlers[route.handler];
      if (handler === undefined) throw new Error(`MCP tool ${route.tool} names route ${route.id}, which has no handler`);
      this.tools.set(route.tool, defineTool(route, handler));
    }
  }

  /**
   * docs/rules.md#mcp-server: the tools the token's scopes allow (a legacy grant allows every
   * scope); a team's token (docs/rules.md#team-authorization) is offered its team's tools only.
   */
  list(principal: AccessPrincipal): ToolDefinition[] {
    const reachable = (t: Tool) => principal.teamId === undefined || t.route.membership === 'team-member' || t.route.membership === 'team-admin';
    return [...this.tools.values()].filter((t) => t.route.scope === 'public' || (grantSatisfies(principal.scopes, t.route.scope) && reachable(t))).map((t) => t.definition);
  }

  /**
   * Runs a tool as its route would run: the route's access check, its validation, its
   * handler. `principal` is what the POST's token check established: a route that needs no
   * team or organization decides on it without reading the token again.
   */
  async call(name: string, rawArgs: unknown, principal: AccessPrincipal, request: FastifyRequest): Promise<unknown> {
    const tool = this.tools.get(name);
    if (tool === undefined) throw invalidParams(`no tool is named ${name}`);
    const args = numbersAsSchemaText(tool.definition.inputSchema, rawArgs ?? {}) as Record<string, unknown>;
    const checked = this.validator.getValidator(tool.definition.inputSchema)(args);
    if (!checked.valid) throw invalidParams(`invalid arguments for ${name}: ${checked.errorMessage}`);

    const params = pick(args, tool.fields.params, undefined) as Record<string, string>;
    const access = needsMembershipFacts(tool.route)
      ? await authorizeApiRequest(this.store, this.clock, tool.route, credentialsOf(request, this.resource), params, this.resource)
      : authorizePrincipal(principal, tool.route);
    if (!('ok' in access)) {
      throw refusedCall(access.message, access.code === 'insufficient_scope' ? access.scope : undefined);
    }
    const query = pick(args, tool.fields.query, tool.handler.query);
    const body = tool.handler.body === undefined ? undefined : pick(args, tool.fields.body, tool.handler.body);
    // The route's answer as the route writes it: numbered ids as numbers (docs/rules.md#numbered-ids).
    const data = await tool.handler.handle({
      body,
      query,
      params,
      userId: access.principal?.userId ?? '',
      principal: access.principal,
      facts: access.facts,
      request,
      resource: this.resource,
      setHeaders: () => undefined,
    });
    return numberedAsSchema(tool.handler.data, tool.handler.paged ? (data as Page).items : data);
  }
}
