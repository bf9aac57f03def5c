// The reference: OpenAPI 3.1 generated from the route schemas, each
// operation naming its scope and its 401/403/404 answers; a readable page at /v2/docs; and
// the scope table of docs/integrating.md (its drift is test/docs/generated.test.ts's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderScopeTable } from '../../src/platform/scope-table.ts';
import { apiRoutes } from '../../src/platform/route-table.ts';
import { scopeRegistry } from '../../src/oauth/scopes.ts';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

describe('the scope table', () => {
  it('names every scope and every public route', () => {
    const table = renderScopeTable();
    for (const s of scopeRegistry) expect(table).toContain(`| \`${s.name}\` |`);
    for (const r of apiRoutes.filter((x) => x.scope === 'public')) expect(table).toContain(`\`${r.method} ${r.path}\``);
  });
});

describe.each(backends)('OpenAPI on $name', ({ name, available }) => {
  let server: TestServer;
  let doc: any;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    doc = (await server.api('GET', '/v2/openapi.json')).body;
  });
  afterAll(async () => server?.close());

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
