// What a row of the /v2 route registry is (src/platform/route-table.ts): a route's method,
// path, required scope (or `public`) and the membership rule it needs beyond the scope. Each
// resource writes its rows in its own `table.ts` with `routeRows`. Pure data: no framework,
// no SQL.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What the token's user must be, beyond holding the scope (docs/rules.md#membership-rules):
 * - `self`: the route acts on the token's own user only;
 * - `team-member` / `team-admin`: a member (any role) / an admin or owner of `:teamId`,
 *   or an admin or owner of the team's organization;
 * - `org-admin`: an admin or owner of `:orgId`;
 * - `org-member`: a member of `:orgId`, any role (what the member's own view of it needs);
 * - `none`: a public route, no token needed (docs/rules.md#public-booking).
 */
export type MembershipRule = 'self' | 'team-member' | 'team-admin' | 'org-admin' | 'org-member' | 'none';

export type RouteFamily = 'personal' | 'public' | 'team' | 'organization';

export interface ApiRoute {
  /** Unique; the OpenAPI operationId. */
  id: string;
  /** The handler that serves it: the team routes under an organization share the team route's. */
  handler: string;
  method: HttpMethod;
  path: string;
  scope: string | 'public';
  membership: MembershipRule;
  family: RouteFamily;
  /** Groups routes in the reference (OpenAPI tag). */
  resource: string;
  summary: string;
  /**
   * A public write on an existing booking (docs/rules.md#public-booking): it acts for the booker, so it
   * needs the booking's `manageToken`, or else an access token with the booking write
   * scope of the booking's family, under that family's membership rule.
   */
  booker?: true;
  /**
   * A second scope the route needs beside `scope` (docs/rules.md#event-type-webhooks): what it
   * does reaches data that `scope`'s words on the consent page do not cover.
   */
  alsoNeeds?: string;
  /**
   * docs/rules.md#team-authorization: a route of no team that a team's token may still call,
   * answering for the token's team alone (its handler reads `facts.team`), as `GET /v2/teams`
   * answers the one team: how an application that cannot introspect learns the team's id.
   */
  teamTokens?: 'own-team';
  /**
   * The MCP tool that offers this route to agents (docs/rules.md#mcp-server): same scope, same membership
   * rule, same handler. Named in `mcpTools` (route-table.ts).
   */
  tool?: string;
}

export type Entry = [id: string, method: HttpMethod, path: string, scope: string, summary: string];

export function routeRows(family: RouteFamily, resource: string, membership: MembershipRule | ((e: Entry) => MembershipRule), list: Entry[]): ApiRoute[] {
  return list.map((e) => {
    const [id, method, path, scope, summary] = e;
    return { id, handler: id, method, path, scope, membership: typeof membership === 'function' ? membership(e) : membership, family, resource, summary };
  });
}

/** docs/rules.md#membership-rules: team routes need membership, admin or owner to write. */
export const teamRule = ([, method]: Entry): MembershipRule => (method === 'GET' ? 'team-member' : 'team-admin');

/** Path parameters of a route, in order: `/v2/teams/:teamId` → ['teamId']. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
}
