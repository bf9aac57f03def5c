// Registry-driven: every route of src/oauth/api-routes.ts, called for real, proves its scope
// (seed §5 rules 1, 5; SPEC §2 item 17) and its membership rule (SPEC §6) on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes, pathParams, type ApiRoute } from '../../src/oauth/api-routes.ts';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.ts';
import { ALL_SCOPES, buildWorld, fillPath, fixtures, mint, type World } from './fixtures.ts';
import { examples, type ExampleRequest } from './route-examples.ts';

const orgCounterpart = (scope: string) => (scope.startsWith('TEAM_') && ALL_SCOPES.includes('ORG_' + scope.slice(5)) ? 'ORG_' + scope.slice(5) : undefined);
/** Path parameters that name a resource (not the team, organization, provider or app). */
const resourceParams = (r: ApiRoute) => pathParams(r.path).filter((p) => !['teamId', 'orgId', 'provider', 'app'].includes(p));

const personal = apiRoutes.filter((r) => r.membership === 'self');
const team = apiRoutes.filter((r) => r.membership === 'team-member' || r.membership === 'team-admin');
const organization = apiRoutes.filter((r) => r.membership === 'org-admin');
const publicRoutes = apiRoutes.filter((r) => r.scope === 'public');
const guarded = apiRoutes.filter((r) => r.scope !== 'public');

describe.each(backends)('platform API access on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;

  beforeAll(async () => {
    if (!available) return;
    // Quiet logs: this suite makes a few thousand requests.
    server = await startTestServer(name, { LOG_LEVEL: 'warn' });
    w = await buildWorld(server);
    f = fixtures(server);
  });
  afterAll(async () => server?.close());

  /** Builds the route's example as `actor` within `teamId`/`orgId`, then calls it with `token`. */
  async function call(r: ApiRoute, token: string | undefined, options: { actor?: TestUser; teamId?: string; orgId?: string; override?: Record<string, string> } = {}) {
    const teamId = options.teamId ?? w.team.id;
    const orgId = options.orgId ?? w.org.id;
    const example = examples[r.handler];
    if (!example) throw new Error(`no example for ${r.handler}`);
    const req: ExampleRequest = await example({ server, w, f, actor: options.actor ?? w.owner, teamId, orgId });
    const params = { teamId, orgId, ...req.params, ...options.override };
    const query = req.query ? `?${new URLSearchParams(req.query)}` : '';
    return server.api(r.method, fillPath(r.path, params) + query, token, req.body);
  }
  /**
   * For checks the guard decides before any handler runs (token, scope, membership): the
   * resource ids need not exist, so no fixture is written.
   */
  async function guardCall(r: ApiRoute, token: string | undefined, override: Record<string, string> = {}) {
    const params: Record<string, string> = { teamId: w.team.id, orgId: w.org.id, provider: 'google', app: 'zoom' };
    for (const p of resourceParams(r)) params[p] = 'unusedId';
    return server.api(r.method, fillPath(r.path, { ...params, ...override }), token);
  }
  const token = (user: TestUser, scopes: string[] | null) => mint(server, w, user, scopes);
  const expectSuccess = (res: { status: number; body: any }) => {
    expect(res.body?.error ?? null, JSON.stringify(res.body)).toBeNull();
    expect([200, 201]).toContain(res.status);
    expect(res.body.status).toBe('success');
  };
  const expectError = (res: { status: number; body: any }, status: number, code: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toMatchObject({ status: 'error', error: { code } });
  };

  describe.each(guarded)('$method $path', (r) => {
    it.skipIf(!available)(`without ${r.scope} → 403 insufficient_scope naming it (SPEC §2 item 17)`, async () => {
      const others = ALL_SCOPES.filter((s) => s !== r.scope && s !== orgCounterpart(r.scope));
      const res = await guardCall(r, await token(w.owner, others));
      expectError(res, 403, 'insufficient_scope');
      expect(res.body.error.message).toContain(r.scope);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${r.scope}"`);
    });

    it.skipIf(!available)(`with ${r.scope} → success (seed §5 rule 5)`, async () => {
      expectSuccess(await call(r, await token(w.owner, [r.scope])));
    });

    it.skipIf(!available)('no token → 401 with WWW-Authenticate and no error code (RFC 6750 §3.1)', async () => {
      const missing = await guardCall(r, undefined);
      expectError(missing, 401, 'unauthorized');
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse"');
    });
  });

  it.skipIf(!available)('a garbage, revoked or expired token → 401 invalid_token on every guarded route (RFC 6750 §3.1)', async () => {
    for (const r of guarded) {
      const res = await guardCall(r, 'gat_not-a-real-token');
      expectError(res, 401, 'invalid_token');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse", error="invalid_token"');
    }
  });

  describe.each(personal)('personal $method $path', (r) => {
    it.skipIf(!available)('legacy token → passes the scope check (seed §3 rule 1)', async () => {
      expectSuccess(await call(r, await token(w.owner, null)));
    });
    it.skipIf(!available || resourceParams(r).length === 0)("another user's resource → 404 (SPEC §6: the token's user only)", async () => {
      const res = await call(r, await token(w.owner, [r.scope]), { actor: w.outsider, teamId: w.otherTeam.id, orgId: w.otherOrg.id });
      expectError(res, 404, 'not_found');
    });
  });

  describe.each(team)('team $method $path', (r) => {
    const viaOrg = orgCounterpart(r.scope);
    // The organization form of a team route shares its handler: only what differs is re-run.
    const twin = r.path.startsWith('/v2/organizations/');
    it.skipIf(!available)('a user outside the team → 403 forbidden (SPEC §6)', async () => {
      expectError(await guardCall(r, await token(w.outsider, [r.scope])), 403, 'forbidden');
    });
    it.skipIf(!available || twin || r.membership !== 'team-admin')('a plain member writing → 403 forbidden (SPEC §6: admin or owner to write)', async () => {
      expectError(await guardCall(r, await token(w.member, [r.scope])), 403, 'forbidden');
    });
    it.skipIf(!available || viaOrg === undefined)(`an organization admin with only ${viaOrg} → success (seed §2.3 rule 1)`, async () => {
      expectSuccess(await call(r, await token(w.orgAdmin, [viaOrg!]), { actor: w.orgAdmin }));
    });
    it.skipIf(!available || twin || viaOrg === undefined)(`a team admin who is not an organization admin, with only ${viaOrg} → 403 forbidden`, async () => {
      expectError(await guardCall(r, await token(w.teamAdmin, [viaOrg!])), 403, 'forbidden');
      // Nor for a team outside any organization, whoever asks.
      expectError(await guardCall(r, await token(w.owner, [viaOrg!]), { teamId: w.loneTeam.id }), 403, 'forbidden');
    });
    it.skipIf(!available || twin)(`an organization admin who is not in the team, with ${r.scope} → success (SPEC §6)`, async () => {
      expectSuccess(await call(r, await token(w.orgAdmin, [r.scope]), { actor: w.orgAdmin }));
    });
    it.skipIf(!available || twin)('legacy token: passes the scope check for a member, never the membership check for an outsider (SPEC §6)', async () => {
      expectSuccess(await call(r, await token(w.owner, null)));
      expectError(await guardCall(r, await token(w.outsider, null)), 403, 'forbidden');
    });
    it.skipIf(!available || twin || resourceParams(r).length === 0)("another team's resource → 404", async () => {
      const res = await call(r, await token(w.owner, [r.scope]), { teamId: w.otherTeam.id, orgId: w.otherOrg.id, override: { teamId: w.team.id, orgId: w.org.id } });
      expectError(res, 404, 'not_found');
    });
    it.skipIf(!available || twin)('an unknown team → 404', async () => {
      const res = await guardCall(r, await token(w.owner, [r.scope]), { teamId: 'noSuchTeam' });
      expectError(res, 404, 'not_found');
      expect(res.body.error.message).toBe('no such team');
    });
    it.skipIf(!available || !twin)('a team that is not in the organization of the path → 404 (SPEC §6)', async () => {
      for (const [user, teamId] of [[w.outsider, w.otherTeam.id], [w.owner, w.loneTeam.id]] as const) {
        const res = await guardCall(r, await token(user, [r.scope]), { teamId });
        expectError(res, 404, 'not_found');
        expect(res.body.error.message).toBe('no such team in this organization');
      }
    });
  });

  describe.each(organization)('organization $method $path', (r) => {
    it.skipIf(!available)('a user outside the organization, or only in one of its teams → 403 forbidden (SPEC §6)', async () => {
      expectError(await guardCall(r, await token(w.outsider, [r.scope])), 403, 'forbidden');
      expectError(await guardCall(r, await token(w.member, [r.scope])), 403, 'forbidden');
    });
    it.skipIf(!available)('an organization admin (not owner) → success', async () => {
      expectSuccess(await call(r, await token(w.orgAdmin, [r.scope]), { actor: w.orgAdmin }));
    });
    it.skipIf(!available)('legacy token: passes the scope check for an owner, never the membership check for an outsider (SPEC §6)', async () => {
      expectSuccess(await call(r, await token(w.owner, null)));
      expectError(await guardCall(r, await token(w.outsider, null)), 403, 'forbidden');
    });
    it.skipIf(!available || resourceParams(r).length === 0)("another organization's resource → 404", async () => {
      const res = await call(r, await token(w.owner, [r.scope]), { teamId: w.otherTeam.id, orgId: w.otherOrg.id, override: { orgId: w.org.id } });
      expectError(res, 404, 'not_found');
    });
    it.skipIf(!available)('an unknown organization → 404', async () => {
      const res = await guardCall(r, await token(w.owner, [r.scope]), { orgId: 'noSuchOrg' });
      expectError(res, 404, 'not_found');
      expect(res.body.error.message).toBe('no such organization');
    });
  });

  describe.each(publicRoutes)('public $method $path', (r) => {
    it.skipIf(!available)('without a token → success (seed §5 rule 6)', async () => {
      expectSuccess(await call(r, undefined));
    });
    it.skipIf(!available)('with a garbage token → 401 invalid_token: a token, if sent, is validated', async () => {
      const res = await call(r, 'gat_garbage');
      expectError(res, 401, 'invalid_token');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse", error="invalid_token"');
    });
    it.skipIf(!available)('with a valid token of no scope at all → success (needs no scope)', async () => {
      expectSuccess(await call(r, await token(w.outsider, [])));
    });
  });
});
