// Shared by the registry-driven access suites: a server with the fixture world, and calls
// that build a route's example request (or skip it, for checks the guard decides alone).
import { afterAll, beforeAll, expect } from 'vitest';
import { pathParams, type ApiRoute } from '../../src/platform/route-table.ts';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.ts';
import { ALL_SCOPES, buildWorld, fillPath, fixtures, mint, type World } from './fixtures.ts';
import { examples, type ExampleRequest } from './route-examples.ts';

/** The scopes a token needs for the route: its scope, and the second one some routes name (docs/rules.md#event-type-webhooks). */
export const scopesOf = (r: ApiRoute): string[] => [r.scope, ...(r.alsoNeeds === undefined ? [] : [r.alsoNeeds])];

export const orgCounterpart = (scope: string) => (scope.startsWith('TEAM_') && ALL_SCOPES.includes('ORG_' + scope.slice(5)) ? 'ORG_' + scope.slice(5) : undefined);

/** Path parameters that name a resource (not the team, organization, provider or app). */
export const resourceParams = (r: ApiRoute) => pathParams(r.path).filter((p) => !['teamId', 'orgId', 'provider', 'app'].includes(p));

export interface CallOptions {
  actor?: TestUser;
  teamId?: string;
  orgId?: string;
  override?: Record<string, string>;
}

export class AccessHarness {
  server!: TestServer;
  w!: World;
  f!: ReturnType<typeof fixtures>;

  /** Builds the route's example as `actor` within `teamId`/`orgId`, then calls it with `token`. */
  async call(r: ApiRoute, token: string | undefined, options: CallOptions = {}) {
    const teamId = options.teamId ?? this.w.team.id;
    const orgId = options.orgId ?? this.w.org.id;
    const example = examples[r.handler];
    if (!example) throw new Error(`no example for ${r.handler}`);
    const req: ExampleRequest = await example({ server: this.server, w: this.w, f: this.f, actor: options.actor ?? this.w.owner, teamId, orgId });
    const params = { teamId, orgId, ...req.params, ...options.override };
    const query = req.query ? `?${new URLSearchParams(req.query)}` : '';
    return this.server.api(r.method, fillPath(r.path, params) + query, token, req.body);
  }

  /**
   * For checks the guard decides before any handler runs (token, scope, membership): the
   * resource ids need not exist, so no fixture is written.
   */
  async guardCall(r: ApiRoute, token: string | undefined, override: Record<string, string> = {}) {
    const params: Record<string, string> = { teamId: this.w.team.id, orgId: this.w.org.id, provider: 'google', app: 'zoom' };
    for (const p of resourceParams(r)) params[p] = 'unusedId';
    return this.server.api(r.method, fillPath(r.path, { ...params, ...override }), token);
  }

  token(user: TestUser, scopes: string[] | null) {
    return mint(this.server, this.w, user, scopes);
  }
}

export function useAccessHarness(name: 'sqlite' | 'postgres', available: boolean): AccessHarness {
  const h = new AccessHarness();
  beforeAll(async () => {
    if (!available) return;
    // Quiet logs: these suites make a few thousand requests.
    h.server = await startTestServer(name, { LOG_LEVEL: 'warn' });
    h.w = await buildWorld(h.server);
    h.f = fixtures(h.server);
  });
  afterAll(async () => h.server?.close());
  return h;
}

export function expectSuccess(res: { status: number; body: any }) {
  expect(res.body?.error ?? null, JSON.stringify(res.body)).toBeNull();
  expect([200, 201]).toContain(res.status);
  expect(res.body.status).toBe('success');
}

export function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ status: 'error', error: { code } });
}
