// The route registry is the only source of /v2 resource routes: the live
// route table matches it both ways, it covers every scope of docs/rules.md#scope-registry, and nothing else can
// be registered in the API scope.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enforceRegistry, registerRegistryRoutes } from '../../src/platform/registrar.ts';
import { apiRoutes } from '../../src/platform/route-table.ts';
import { scopeRegistry } from '../../src/oauth/scopes.ts';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { examples } from './route-examples.ts';

/** `METHOD /path` for every route in Fastify's own route table (printRoutes, full paths). */
function routeTable(printed: string): Set<string> {
  const table = new Set<string>();
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const path = (depth > 0 ? stack[depth - 1]! : '') + m[2]!;
    stack[depth] = path;
    for (const method of m[3]?.split(', ') ?? []) table.add(`${method} ${path}`);
  }
  return table;
}

const isApiRoute = (entry: string) => {
  const path = entry.slice(entry.indexOf(' ') + 1);
  return path.startsWith('/v2/') && !path.startsWith('/v2/auth/oauth2/') && path !== '/v2/openapi.json' && path !== '/v2/docs' && !path.startsWith('/v2/docs/');
};

/**
 * GETs the platform guards with APPS_WRITE: each begins connecting an account (its answer is
 * where to send the user to authorize), so reading alone must not reach it.
 */
const STARTS_A_CONNECTION = new Set(['calendars.oauthConnect', 'conferencing.authUrl']);

describe('the route registry (docs/rules.md#scope-registry)', () => {
  it('has unique ids and unique method + path pairs, all under /v2 (docs/rules.md#versioning)', () => {
    expect(new Set(apiRoutes.map((r) => r.id)).size).toBe(apiRoutes.length);
    expect(new Set(apiRoutes.map((r) => `${r.method} ${r.path}`)).size).toBe(apiRoutes.length);
    for (const r of apiRoutes) expect(r.path).toMatch(/^\/v2\//);
  });

  it('guards at least one read and one write route with every scope but the identity ones, which guard UserInfo (docs/rules.md#scope-registry)', () => {
    for (const s of scopeRegistry) {
      if (s.family === 'identity') {
        expect(apiRoutes.filter((r) => r.scope === s.name), s.name).toEqual([]);
        continue;
      }
      const routes = apiRoutes.filter((r) => r.scope === s.name);
      expect(routes.length, s.name).toBeGreaterThan(0);
      if (s.name.endsWith('_READ')) expect(routes.every((r) => r.method === 'GET'), `${s.name} guards only reads`).toBe(true);
      if (s.name.endsWith('_WRITE')) expect(routes.every((r) => r.method !== 'GET' || STARTS_A_CONNECTION.has(r.id)), `${s.name} guards only writes`).toBe(true);
    }
    for (const r of apiRoutes) if (r.scope !== 'public') expect(scopeRegistry.map((s) => s.name)).toContain(r.scope);
  });

  it('gives every route the membership rule of its family (docs/rules.md#membership-rules)', () => {
    for (const r of apiRoutes) {
      if (r.scope === 'public') expect(r.membership, r.id).toBe('none');
      else if (r.path.includes('/teams/:teamId')) expect(r.membership, r.id).toBe(r.method === 'GET' ? 'team-member' : 'team-admin');
      else if (r.path.startsWith('/v2/organizations/:orgId')) expect(r.membership, r.id).toBe(r.path.endsWith('/teams/me') ? 'org-member' : 'org-admin');
      else expect(r.membership, r.id).toBe('self');
    }
  });

  it('serves every team route under its organization too, with the same handler and rule, and the same scope but where the organization acts', () => {
    const organizationActs = new Set(['PATCH /v2/teams/:teamId', 'DELETE /v2/teams/:teamId']);
    for (const r of apiRoutes.filter((x) => x.path.startsWith('/v2/teams/:teamId'))) {
      const twin = apiRoutes.find((x) => x.path === r.path.replace('/v2/teams/:teamId', '/v2/organizations/:orgId/teams/:teamId') && x.method === r.method);
      const scope = organizationActs.has(`${r.method} ${r.path}`) ? 'ORG_PROFILE_WRITE' : r.scope;
      expect(twin, r.id).toMatchObject({ handler: r.handler, scope, membership: r.membership });
    }
  });

  it('has a request example for every handler, so the access suite reaches every route', () => {
    for (const r of apiRoutes) expect(examples[r.handler], r.handler).toBeTypeOf('function');
  });

  it('refuses, at start, a route added to the API scope without a registry entry', async () => {
    const app = Fastify();
    enforceRegistry(app);
    expect(() => app.get('/v2/undocumented', async () => 'hidden')).toThrow(/not in the API route registry/);
    expect(() => app.post('/v2/me', async () => 'wrong method')).toThrow(/POST \/v2\/me is not in the API route registry/);
    await app.close();
  });

  it('refuses, at start, a registry entry without a handler and a handler without an entry', async () => {
    const store = { findAccess: async () => undefined };
    const api = 'http://localhost/v2';
    const resource = { resources: { default: api, known: [api] }, resource: api, documentsServed: true, metadataUrl: 'http://localhost/.well-known/oauth-protected-resource/v2', baseUrl: 'http://localhost' };
    const app = Fastify();
    expect(() => registerRegistryRoutes(app, {}, store, Date.now, resource)).toThrow(/no handler/);
    const stray = { 'stray.handler': { data: {}, handle: async () => null } };
    expect(() => registerRegistryRoutes(app, stray, store, Date.now, resource)).toThrow(/stray.handler has no entry/);
    await app.close();
  });
});

describe.each(backends)("Fastify's route table on $name", ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('holds exactly the registry under /v2, besides the OAuth endpoints and the reference', () => {
    const table = routeTable(server.app.printRoutes({ commonPrefix: false }));
    expect(table.size).toBeGreaterThan(apiRoutes.length);
    const api = [...table].filter(isApiRoute).filter((e) => !e.startsWith('HEAD '));
    const registry = apiRoutes.map((r) => `${r.method} ${r.path}`);
    expect(api.sort()).toEqual([...registry].sort());
  });
});
