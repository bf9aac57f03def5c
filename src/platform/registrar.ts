// Registers the /v2 resource routes from the registry (src/platform/route-table.ts) and nothing
// else: each entry gets its handler, the guard, its schemas and the envelope. A registry
// entry without a handler, a handler without an entry, or any other route added to this
// scope stops the server at start.
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import type { ApiAccessStore } from './access-check.ts';
import { apiRoutes, pathParams, type ApiRoute } from './route-table.ts';
import { success } from './envelope.ts';
import { apiGuard, type GuardedResource } from './guard.ts';
import type { HandlerMap, Page, RouteHandler } from './handler.ts';
import { numberedAsSchema } from './numbered-ids.ts';
import { errorResponses, idParam, object, pageOf, rateLimitedResponse, refusingUnknownFields, successEnvelope } from './schemas.ts';

/** Routes of this scope that document the API rather than being part of it. */
export const isDocsRoute = (url: string) => url === '/v2/openapi.json' || url === '/v2/docs' || url.startsWith('/v2/docs/');

/** Stops any route that is not in the registry from being added to the API scope. */
export function enforceRegistry(app: FastifyInstance): void {
  const known = new Set(apiRoutes.flatMap((r) => [`${r.method} ${r.path}`, ...(r.method === 'GET' ? [`HEAD ${r.path}`] : [])]));
  app.addHook('onRoute', (options: RouteOptions) => {
    if (isDocsRoute(options.url)) return;
    for (const method of [options.method].flat()) {
      if (!known.has(`${method} ${options.url}`)) {
        throw new Error(`${method} ${options.url} is not in the API route registry (src/platform/route-table.ts): add it there first`);
      }
    }
  });
}

const teamWithOrg = (scope: string) => scope.startsWith('TEAM_') && !['TEAM_APPS', 'TEAM_WORKFLOW', 'TEAM_VERIFIED_RESOURCES'].some((p) => scope.startsWith(p + '_'));

const membershipWords: Record<ApiRoute['membership'], string> = {
  self: 'Acts on the token’s own user only.',
  'team-member': 'The user must be a member of the team, or an admin or owner of its organization.',
  'team-admin': 'The user must be an admin or owner of the team, or an admin or owner of its organization.',
  'org-admin': 'The user must be an admin or owner of the organization.',
  'org-member': 'The user must be a member of the organization, any role.',
  none: '',
};

/** The words of the reference: scope, rule, and what a legacy token gets. */
export function describeAccess(r: ApiRoute): string {
  if (r.booker) {
    return (
      "Public: with the booking's `manageToken` (returned once, when the booking was made) no token or scope is needed, whatever token comes beside it; " +
      'a wrong `manageToken` is 404, as an unknown booking. Without it, an access token acts: `BOOKING_WRITE` for a personal booking its user hosts, ' +
      '`TEAM_BOOKING_WRITE` (or `ORG_BOOKING_WRITE`) of an admin or owner of the team or its organization for a team booking. A token, if sent, must be valid (otherwise 401).'
    );
  }
  if (r.scope === 'public') return 'Public: no token needed. A token, if sent, must be valid (otherwise 401).';
  const one = (s: string) => `\`${s}\`${teamWithOrg(s) ? ` (or \`ORG_${s.slice(5)}\`)` : ''}`;
  const scope = r.alsoNeeds === undefined ? `Requires the ${one(r.scope)} scope.` : `Requires the ${one(r.scope)} and ${one(r.alsoNeeds)} scopes.`;
  return `${scope} ${membershipWords[r.membership]}${r.membership !== 'self' ? ' Legacy tokens pass the scope check, not this one.' : ''}`;
}

function operationSchema(r: ApiRoute, h: RouteHandler): FastifySchema {
  const params = pathParams(r.path);
  const status = h.status ?? 200;
  const errors = r.scope === 'public' && !r.booker ? { 400: errorResponses[400], 401: errorResponses[401], 404: errorResponses[404], 409: errorResponses[409] } : errorResponses;
  return {
    operationId: r.id,
    summary: r.summary,
    description: describeAccess(r),
    tags: [r.resource],
    // OpenAPI 3.1: a public route takes no token or any; a guarded one names its scope.
    security: r.scope === 'public' ? [{}, { oauth2: [] }] : [{ oauth2: [r.scope, ...(r.alsoNeeds === undefined ? [] : [r.alsoNeeds])] }],
    'x-required-scope': r.scope,
    'x-membership': r.membership,
    // docs/rules.md#mcp-server: the MCP tool that offers this operation at /mcp.
    ...(r.tool !== undefined ? { 'x-mcp-tool': r.tool } : {}),
    ...(params.length > 0 ? { params: object(Object.fromEntries(params.map((p) => [p, h.params?.[p] ?? idParam])), params) } : {}),
    ...(h.query ? { querystring: h.query } : {}),
    ...(h.body ? { body: r.method === 'PATCH' ? refusingUnknownFields(h.body) : h.body } : {}),
    response: { [status]: { description: 'success', ...successEnvelope(h.data, h.paged === true) }, ...errors, ...(h.rateLimited ? { 429: rateLimitedResponse } : {}) },
  } as FastifySchema;
}

export function registerRegistryRoutes(app: FastifyInstance, handlers: HandlerMap, store: ApiAccessStore, clock: () => number, resource: GuardedResource): void {
  const used = new Set(apiRoutes.map((r) => r.handler));
  const orphan = Object.keys(handlers).find((id) => !used.has(id));
  if (orphan !== undefined) throw new Error(`handler ${orphan} has no entry in the API route registry`);

  for (const r of apiRoutes) {
    const h = handlers[r.handler];
    if (h === undefined) throw new Error(`the API route registry names ${r.id}, but no handler ${r.handler} exists`);
    const bodyOptional = h.body !== undefined && (h.body.required === undefined || (h.body.required as string[]).length === 0) && h.body.minProperties === undefined;
    // Only a list query names the platform's take/skip (listQuery): other routes' queries pass as they are.
    const paging = (h.query?.properties as Record<string, unknown> | undefined)?.take !== undefined;
    app.route({
      method: r.method,
      url: r.path,
      schema: operationSchema(r, h),
      onRequest: apiGuard(r, store, clock, resource),
      // A POST whose fields are all optional (cancel, decline) may come without a body.
      ...(bodyOptional
        ? {
            preValidation: async (request) => {
              if (request.body === undefined || request.body === null) request.body = {};
            },
          }
        : {}),
      handler: async (request, reply) => {
        const access = request.apiAccess!;
        const data = await h.handle({
          body: request.body,
          query: paging ? pageOf(request.query) : request.query,
          params: request.params,
          userId: access.principal?.userId ?? '',
          principal: access.principal,
          facts: access.facts,
          request,
          resource,
          // A method: tsx would give a named arrow a defineProperty call on every request.
          setHeaders(headers) {
            reply.headers(headers);
          },
        });
        reply.status(h.status ?? 200);
        if (h.noStore) reply.header('cache-control', 'no-store');
        if (h.paged) {
          const { items, pagination } = data as Page;
          return { ...success(numberedAsSchema(h.data, items)), pagination };
        }
        return success(numberedAsSchema(h.data, data));
      },
    });
  }
}
