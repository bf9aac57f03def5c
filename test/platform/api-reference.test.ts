// The API as it describes itself, one server per database for the blocks that need one:
// the route registry, the only source of /v2 resource routes (the live route table matches it
// both ways, it covers every scope of docs/rules.md#scope-registry, and nothing else can be
// registered in the API scope); the reference, OpenAPI 3.1 generated from the route schemas,
// each operation naming its scope and its 401/403/404 answers, a readable page at /v2/docs,
// and the scope table of docs/integrating.md (its drift is test/docs/generated.test.ts's);
// and cal-api-version (docs/integrating.md#api-versions).
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { enforceRegistry, registerRegistryRoutes } from '../../src/platform/registrar.ts';
import { apiRoutes } from '../../src/platform/route-table.ts';
import { scopeRegistry } from '../../src/oauth/scopes.ts';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { examples } from './route-examples.ts';
import { renderScopeTable } from '../../src/platform/scope-table.ts';
import { fixtures, mint, quickUser, useServer, useWorld, type World } from './fixtures.ts';

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

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

const BOOKINGS = { 'cal-api-version': '2024-08-13' };

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

describe('the scope table', () => {
  it('names every scope and every public route', () => {
    const table = renderScopeTable();
    for (const s of scopeRegistry) expect(table).toContain(`| \`${s.name}\` |`);
    for (const r of apiRoutes.filter((x) => x.scope === 'public')) expect(table).toContain(`\`${r.method} ${r.path}\``);
  });
});

describe.each(backends)("the API's reference over HTTP on $name", ({ name, available }) => {
  const shared = useServer(name, available);

  describe("Fastify's route table", () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = shared();
    });

    it.skipIf(!available)('holds exactly the registry under /v2, besides the OAuth endpoints and the reference', () => {
      const table = routeTable(server.app.printRoutes({ commonPrefix: false }));
      expect(table.size).toBeGreaterThan(apiRoutes.length);
      const api = [...table].filter(isApiRoute).filter((e) => !e.startsWith('HEAD '));
      const registry = apiRoutes.map((r) => `${r.method} ${r.path}`);
      expect(api.sort()).toEqual([...registry].sort());
    });
  });

  describe('OpenAPI', () => {
    let server: TestServer;
    let doc: any;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      doc = (await server.api('GET', '/v2/openapi.json')).body;
    });

    it.skipIf(!available)('is OpenAPI 3.1 with an OAuth 2.0 scheme listing every scope of the API (the identity ones of OpenID Connect guard none of it) and the real endpoints', () => {
      expect(doc.openapi).toBe('3.1.0');
      const flow = doc.components.securitySchemes.oauth2.flows.authorizationCode;
      expect(flow.tokenUrl).toBe(`${server.url}/v2/auth/oauth2/token`);
      expect(flow.authorizationUrl).toBe(`${server.url}/auth/oauth2/authorize`);
      expect(Object.keys(flow.scopes)).toEqual(scopeRegistry.filter((s) => s.family !== 'identity').map((s) => s.name));
    });

    it.skipIf(!available)('has one operation per registry route, stating its scope and its 401/403/404 answers', () => {
      const operations = Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
      expect(operations.sort()).toEqual(apiRoutes.map((r) => `${r.method} ${openApiPath(r.path)}`).sort());
      for (const r of apiRoutes) {
        const op = doc.paths[openApiPath(r.path)][r.method.toLowerCase()];
        expect(op.operationId).toBe(r.id);
        expect(op['x-required-scope']).toBe(r.scope);
        expect(op.responses['401'], r.id).toBeDefined();
        expect(op.responses['404'], r.id).toBeDefined();
        if (r.scope === 'public') {
          expect(op.security).toEqual([{}, { oauth2: [] }]);
        } else {
          expect(op.security).toEqual([{ oauth2: [r.scope, ...(r.alsoNeeds === undefined ? [] : [r.alsoNeeds])] }]);
          expect(op.description).toContain(`\`${r.scope}\``);
          expect(op.responses['403'].description).toContain('insufficient_scope');
        }
      }
    });

    it.skipIf(!available)('documents request bodies and path parameters from the validation schemas', () => {
      const create = doc.paths['/v2/teams/{teamId}/event-types'].post;
      expect(create.requestBody.content['application/json'].schema.required).toEqual(['title', 'slug', 'lengthInMinutes']);
      expect(create.parameters.find((p: any) => p.name === 'teamId')).toMatchObject({ in: 'path', required: true });
    });

    it.skipIf(!available)('serves a readable reference page at /v2/docs', async () => {
      const res = await fetch(`${server.url}/v2/docs`, { redirect: 'follow' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('swagger');
    });

    it.skipIf(!available)('the reference page is Gatehouse’s: its title, logo and favicon, and it shows /v2/openapi.json', async () => {
      const page = await (await fetch(`${server.url}/v2/docs/`)).text();
      expect(page).toContain('<title>Gatehouse API reference</title>');
      // Issue 40 item 3: a phone lays it out at its own width (test/e2e/browser-pages.test.ts measures it).
      expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(page).toContain('href="./static/theme/favicon.svg"');
      expect(page).not.toContain('favicon-32x32.png');
      const init = await (await fetch(`${server.url}/v2/docs/static/swagger-initializer.js`)).text();
      // The logo is Gatehouse's, not Fastify's.
      const logo = Buffer.from(/img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(init)![1]!, 'base64').toString('utf8');
      expect(logo).toContain('Gatehouse <tspan font-weight="400">API reference</tspan>');
      const favicon = await fetch(`${server.url}/v2/docs/static/theme/favicon.svg`);
      expect(favicon.headers.get('content-type')).toBe('image/svg+xml');
    });

    it.skipIf(!available)('the reference page offers a field for an access token, not an OAuth flow no client can finish, and no definition menu', async () => {
      const init = await (await fetch(`${server.url}/v2/docs/static/swagger-initializer.js`)).text();
      // One document: no `urls`, so Swagger UI shows no "Select a definition" menu; the top
      // bar's address field is hidden by the page's stylesheet.
      expect(init).not.toContain('"urls"');
      const page = await (await fetch(`${server.url}/v2/docs/`)).text();
      expect(page).toContain('href="./static/theme/docs.css"');
      expect(await (await fetch(`${server.url}/v2/docs/static/theme/docs.css`)).text()).toContain('.swagger-ui .topbar .download-url-wrapper { display: none; }');
      // What the page shows: one HTTP bearer scheme, which every protected operation requires.
      const shown = (await server.api('GET', '/v2/docs/json')).body;
      expect(Object.keys(shown.components.securitySchemes)).toEqual(['accessToken']);
      expect(shown.components.securitySchemes.accessToken).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(JSON.stringify(shown)).not.toContain('oauth2-redirect');
      for (const r of apiRoutes) {
        const op = shown.paths[openApiPath(r.path)][r.method.toLowerCase()];
        expect(op.security, r.id).toEqual(r.scope === 'public' ? [{}, { accessToken: [] }] : [{ accessToken: [] }]);
        if (r.scope !== 'public') expect(op.description).toContain(`\`${r.scope}\``);
      }
      expect(shown.info.description).toContain('choose **Authorize** and paste an access token');
      expect(shown.info.description).toContain('[/v2/openapi.json](/v2/openapi.json)');
      // The published document keeps its OAuth 2.0 scheme for programs that read it.
      expect(Object.keys(doc.components.securitySchemes)).toEqual(['oauth2']);
    });

    it.skipIf(!available)('the reference page names the error envelope once and every failure refers to it; the published document stays inline', async () => {
      const shown = (await server.api('GET', '/v2/docs/json')).body;
      const { description: _, ...envelope } = doc.paths['/v2/me'].get.responses['401'].content['application/json'].schema;
      expect(shown.components.schemas.Error).toEqual(envelope);
      for (const r of apiRoutes) {
        const published = doc.paths[openApiPath(r.path)][r.method.toLowerCase()].responses;
        const page = shown.paths[openApiPath(r.path)][r.method.toLowerCase()].responses;
        expect(Object.keys(page), r.id).toEqual(Object.keys(published));
        for (const [status, response] of Object.entries<any>(page)) {
          expect(response.description, `${r.id} ${status}`).toBe(published[status].description);
          if (status.startsWith('2')) expect(response, `${r.id} ${status}`).toEqual(published[status]);
          else expect(response.content['application/json'].schema, `${r.id} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        }
      }
      expect(JSON.stringify(doc)).not.toContain('#/components/schemas/Error');
    });

    it.skipIf(!available)('the description shows <token> as written: in a Markdown code span', () => {
      expect(doc.info.description).toContain('(`Authorization: Bearer <token>`)');
    });

    it.skipIf(!available)('/favicon.ico is served, an SVG of this origin; pages link it; the home page title is not doubled', async () => {
      const icon = await fetch(`${server.url}/favicon.ico`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/svg+xml');
      expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      const home = await (await fetch(`${server.url}/`)).text();
      expect(home).toContain('<title>Gatehouse</title>');
      expect(home).toMatch(/<link rel="icon" type="image\/svg\+xml" href="\/assets\/favicon\.[0-9a-f]{10}\.svg">/);
      expect(await (await fetch(`${server.url}/login`)).text()).toContain('<title>Log in · Gatehouse</title>');
    });

    it.skipIf(!available)('answers other versions and unknown paths with the envelope 404 (docs/rules.md#versioning)', async () => {
      for (const path of ['/v1/me', '/v3/teams', '/v2/nothing-here']) {
        const res = await server.api('GET', path);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ status: 'error', error: { code: 'not_found' } });
      }
    });
  });

  // cal-api-version (docs/integrating.md#api-versions): a booking answers the
  // platform's 2024-08-13 shape to a request naming that version, and Gatehouse's own earlier
  // shape (its stored status names, explicit nulls) to one naming none or another; event types
  // and schedules answer their documented shape either way, since Gatehouse's earlier answers
  // are part of it.
  describe('cal-api-version', () => {
    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, w, f } = started));

    it.skipIf(!available)('a declined booking is rejected to 2024-08-13 and declined otherwise; a reason not given is left out, or null', async () => {
      const host = await quickUser(server);
      const token = await mint(server, w, host, ['BOOKING_READ', 'BOOKING_WRITE']);
      const b = await f.booking({ hostId: host.id, status: 'pending' });
      expect((await server.api('POST', `/v2/bookings/${b.uid}/decline`, token, {})).status).toBe(200);
      const read = (headers: Record<string, string>) => server.api('GET', `/v2/bookings/${b.uid}`, token, undefined, headers);

      const documented = (await read(BOOKINGS)).body.data;
      expect(documented.status).toBe('rejected');
      for (const absent of ['cancellationReason', 'rescheduledFromUid', 'rescheduledToUid']) expect(documented).not.toHaveProperty(absent);

      for (const headers of [{}, { 'cal-api-version': '2024-04-15' }, { 'cal-api-version': 'next' }] as Array<Record<string, string>>) {
        const gatehouse = (await read(headers)).body.data;
        expect(gatehouse).toMatchObject({ status: 'declined', cancellationReason: null, rescheduledFromUid: null, rescheduledToUid: null });
        // Everything else is the same answer.
        const { status: _a, cancellationReason: _b, rescheduledFromUid: _c, rescheduledToUid: _d, ...rest } = gatehouse;
        const { status: _e, ...documentedRest } = documented;
        expect(rest).toEqual(documentedRest);
      }
    });

    it.skipIf(!available)('a list answers each booking in the version named, and its filter takes either family of names', async () => {
      const host = await quickUser(server);
      const token = await mint(server, w, host, ['BOOKING_READ', 'BOOKING_WRITE']);
      const declined = await f.booking({ hostId: host.id, status: 'pending' });
      expect((await server.api('POST', `/v2/bookings/${declined.uid}/decline`, token, {})).status).toBe(200);
      const answered = async (filter: string, headers: Record<string, string>) =>
        (await server.api('GET', `/v2/bookings?status=${filter}`, token, undefined, headers)).body.data.map((b: { uid: string; status: string; cancellationReason?: null }) => [b.uid, b.status, 'cancellationReason' in b]);
      for (const filter of ['rejected', 'declined']) {
        expect(await answered(filter, BOOKINGS)).toEqual([[declined.uid, 'rejected', false]]);
        expect(await answered(filter, {})).toEqual([[declined.uid, 'declined', true]]);
      }
    });

    it.skipIf(!available)('a team’s bookings answer the documented shape whatever the header says: the platform does not version its team and organization routes', async () => {
      const token = await mint(server, w, w.teamAdmin, ['TEAM_BOOKING_READ']);
      const b = await f.booking({ hostId: w.member.id, teamId: w.team.id, status: 'cancelled' });
      for (const headers of [{}, BOOKINGS] as Array<Record<string, string>>) {
        const listed = (await server.api('GET', `/v2/teams/${w.team.id}/bookings?limit=100`, token, undefined, headers)).body.data.find((x: { uid: string }) => x.uid === b.uid);
        expect(listed.status).toBe('cancelled');
        expect(listed).not.toHaveProperty('cancellationReason');
      }
    });

    it.skipIf(!available)('event types and schedules answer their documented shape with their version named, or none', async () => {
      const host = await quickUser(server);
      const token = await mint(server, w, host, ['EVENT_TYPE_READ', 'SCHEDULE_READ', 'SCHEDULE_WRITE']);
      const et = await f.eventType({ userId: host.id });
      const eventType = async (headers: Record<string, string>) => (await server.api('GET', `/v2/event-types/${et.id}`, token, undefined, headers)).body.data;
      const named = await eventType({ 'cal-api-version': '2024-06-14' });
      expect(named).toMatchObject({ id: Number(et.id), lengthInMinutesOptions: [30], disableGuests: false });
      expect(named.bookingFields.length).toBeGreaterThan(0);
      expect(await eventType({})).toEqual(named);

      const made = await server.api('POST', '/v2/schedules', token, { name: 'Work', timeZone: 'Europe/Rome', isDefault: true }, { 'cal-api-version': '2024-06-11' });
      expect(made.status).toBe(201);
      const schedule = async (headers: Record<string, string>) => (await server.api('GET', `/v2/schedules/${made.body.data.id}`, token, undefined, headers)).body.data;
      expect(await schedule({})).toEqual(await schedule({ 'cal-api-version': '2024-06-11' }));
    });
  });
});
