// docs/integrating.md#connect-an-ai-agent-mcp: anyone may name a new document URL, so first uses of documents
// are limited per IP together with registrations (RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR),
// a failed fetch is remembered for 5 minutes, and the admin queue is paginated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../helpers/backends.ts';
import { authorizeQuery, startDocumentHost, type DocumentHost } from '../../helpers/document-host.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { pkcePair } from '../token-endpoint/setup.ts';

const REGISTER = '/v2/auth/oauth2/register';
const mcpClient = { client_name: 'Registered Agent', redirect_uris: ['http://127.0.0.1:33418/callback'], token_endpoint_auth_method: 'none' };

export function firstUses({ name, available }: Backend): void {
  describe('first uses of metadata documents', () => {
    let docs: DocumentHost;
    beforeAll(async () => {
      docs = await startDocumentHost();
    });
    afterAll(async () => docs?.close());

    describe('RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR=3, CIMD_POLICY=review, DCR_POLICY=review', () => {
      let server: TestServer;
      beforeAll(async () => {
        if (available) server = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1', DCR_POLICY: 'review', RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: '3' });
      });
      afterAll(async () => server?.close());
      const authorize = (clientId: string) => fetch(`${server.url}/auth/oauth2/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`, { redirect: 'manual' });
      const made = async () => (await server.services.stores.clients.list({})).length;

      it.skipIf(!available)('docs/integrating.md#connect-an-ai-agent-mcp: first uses and registrations share one limit per IP; past it a new document is neither fetched nor made a client; a known one is no first use', async () => {
        const first = docs.publish('/limit/first.json');
        expect((await authorize(first)).status).toBe(400); // pending: a first use
        expect((await authorize(docs.publish('/limit/second.json'))).status).toBe(400);
        expect((await server.post(REGISTER, JSON.stringify(mcpClient), { 'content-type': 'application/json' })).status).toBe(201);
        expect(await made()).toBe(3);

        const third = docs.publish('/limit/third.json');
        const refused = await authorize(third);
        expect(refused.status).toBe(400);
        expect(await refused.text()).toMatch(/too many new applications from this address: retry in \d+ seconds/);
        expect(docs.reads('/limit/third.json')).toBe(0);
        const registration = await server.post(REGISTER, JSON.stringify(mcpClient), { 'content-type': 'application/json' });
        expect(registration.status).toBe(429);
        expect(await made()).toBe(3);

        // The client already made is looked up, not used for the first time.
        const again = await authorize(first);
        expect(await again.text()).toMatch(/this application is pending/);
      });
    });

    describe('CIMD_POLICY=open: a failed fetch is remembered for 5 minutes', () => {
      let server: TestServer;
      beforeAll(async () => {
        if (available) server = await startTestServer(name, { CIMD_POLICY: 'open', OUTBOUND_ALLOW_PRIVATE: '1', RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: '2' });
      });
      afterAll(async () => server?.close());
      const authorize = (clientId: string) => fetch(`${server.url}/auth/oauth2/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`, { redirect: 'manual' });

      it.skipIf(!available)('docs/integrating.md#connect-an-ai-agent-mcp: a failing document is fetched once in 5 minutes however often it is named, its refusal is repeated, and the repeats cost no first use', async () => {
        const clientId = `${docs.origin}/failing/missing.json`;
        for (let i = 0; i < 5; i++) {
          const page = await authorize(clientId);
          expect(page.status).toBe(400);
          expect(await page.text()).toMatch(/the metadata document answered 404/);
        }
        expect(docs.reads('/failing/missing.json')).toBe(1);
        server.advance(299);
        expect((await authorize(clientId)).status).toBe(400);
        expect(docs.reads('/failing/missing.json')).toBe(1);
        // Published meanwhile: fetched again once the 5 minutes are over, and it works (the
        // anonymous caller is sent to sign in).
        docs.publish('/failing/missing.json');
        server.advance(2);
        const works = await authorize(clientId);
        expect(works.status).toBe(303);
        expect(works.headers.get('location')).toMatch(/^\/login\?/);
        expect((await server.services.stores.clients.find(clientId))?.state).toBe('approved');
        expect(docs.reads('/failing/missing.json')).toBe(2);
      });
    });

    describe('the admin queue is paginated', () => {
      let server: TestServer;
      beforeAll(async () => {
        if (available) server = await startTestServer(name);
      });
      afterAll(async () => server?.close());

      it.skipIf(!available)('docs/integrating.md#connect-an-ai-agent-mcp: 120 pending clients are shown 50 to a page, with next and previous links, newest first', async () => {
        const developer = await server.user();
        for (let i = 0; i < 120; i++) {
          server.advance(1); // one creation time each: the queue's order is theirs
          await server.client(developer, { state: 'pending', name: `Waiting ${String(i).padStart(3, '0')}` });
        }
        const admin = await server.user({ admin: true });
        const browser = server.browser();
        await browser.login(admin.email, admin.password);
        const section = (body: string, id: string) => new RegExp(`<section aria-labelledby="${id}-title"[\\s\\S]*?</section>`).exec(body)![0];
        const names = (html: string) => [...html.matchAll(/>(Waiting \d{3})</g)].map((m) => m[1]);

        const first = await browser.get('/admin/oauth-clients');
        expect(first.status).toBe(200);
        const pending = section(first.body, 'pending');
        expect(pending).toContain('New clients awaiting review (120)');
        expect(names(pending)).toEqual(Array.from({ length: 50 }, (_, i) => `Waiting ${String(119 - i).padStart(3, '0')}`));
        expect(pending).toContain('Page 1 of 3');
        expect(pending).toContain('<a rel="next" href="/admin/oauth-clients?pending=2#pending">');
        expect(pending).not.toContain('rel="prev"');
        // Every client is listed a page at a time too.
        expect(names(section(first.body, 'all'))).toHaveLength(50);

        const last = await browser.get('/admin/oauth-clients?pending=3');
        const lastPending = section(last.body, 'pending');
        expect(names(lastPending)).toEqual(Array.from({ length: 20 }, (_, i) => `Waiting ${String(19 - i).padStart(3, '0')}`));
        expect(lastPending).toContain('<a rel="prev" href="/admin/oauth-clients?pending=2#pending">');
        expect(lastPending).not.toContain('rel="next"');

        // A page beyond the last shows the last; what is not a page number is refused.
        expect(names(section((await browser.get('/admin/oauth-clients?pending=9')).body, 'pending'))).toHaveLength(20);
        const bad = await browser.get('/admin/oauth-clients?pending=abc');
        expect(bad.status).toBe(400);
        expect(bad.body).toMatch(/page numbers are whole numbers from 1/);
      });
    });
  });
}
