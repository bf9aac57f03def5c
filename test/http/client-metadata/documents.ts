// Client ID Metadata Documents (docs/rules.md#client-metadata-documents, draft-ietf-oauth-client-id-metadata-document)
// on every backend: a URL client_id is fetched (through the SSRF guard), checked, cached by
// its HTTP caching headers and kept as a public client under the three policies of
// CIMD_POLICY; the consent page shows an unverified application as such; the operator's
// trust decisions come through `gatehouse cimd`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../helpers/backends.ts';
import { formFields } from '../../helpers/browser.ts';
import { runCli } from '../../helpers/cli.ts';
import { authorizeQuery, startDocumentHost, type DocumentHost } from '../../helpers/document-host.ts';
import { formWith } from '../../helpers/pages.ts';
import { startTestServer, type TestServer, type TestUser } from '../../helpers/server.ts';
import { auditEvents } from '../../helpers/stores.ts';
import { pkcePair } from '../token-endpoint/setup.ts';

export function metadataDocuments({ name, available }: Backend): void {
  describe('client metadata documents', () => {
    let docs: DocumentHost;
    beforeAll(async () => {
      docs = await startDocumentHost();
    });
    afterAll(async () => docs?.close());

    // The three CIMD_POLICY=open suites below share one server: each publishes documents at
    // paths of its own, so no suite meets another's clients.
    let openServer: TestServer;
    beforeAll(async () => {
      if (available) openServer = await startTestServer(name, { CIMD_POLICY: 'open', OUTBOUND_ALLOW_PRIVATE: '1' });
    });
    afterAll(async () => openServer?.close());

    describe('CIMD_POLICY=open', () => {
      let server: TestServer;
      let user: TestUser;
      beforeAll(async () => {
        if (!available) return;
        server = openServer;
        user = await server.user();
      });

      it.skipIf(!available)('docs/rules.md#cimd-policy: an unknown host\'s document makes a public client; the consent page says it is unverified and names the host; the code exchange with PKCE works', async () => {
        const clientId = docs.publish('/open/agent.json');
        const browser = server.browser();
        await browser.login(user.email, user.password);
        const { verifier, challenge } = pkcePair();
        const page = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`);
        expect(page.status).toBe(200);
        expect(page.body).toContain('id="unverified-notice"');
        expect(page.body).toMatch(/Unverified application/);
        expect(page.body).toContain(`<strong id="document-host">${docs.host}</strong>`);
        expect(page.body).not.toContain('A platform admin reviewed this application');
        expect(page.body).toContain('Doc Agent');
        const consent = await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
        const code = new URL(consent.location!).searchParams.get('code')!;
        const res = await server.token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:45123/callback', client_id: clientId, code_verifier: verifier });
        expect(res.status).toBe(200);
        expect((await server.api('GET', '/v2/me', res.body.access_token as string)).status).toBe(200);
        const row = (await server.services.stores.clients.find(clientId))!;
        expect(row.kind).toBe('public');
        expect(row.state).toBe('approved');
        // CIMD_SCOPES defaults to the personal _READ scopes.
        expect(row.scopes!.every((s) => s.endsWith('_READ'))).toBe(true);
      });

      it.skipIf(!available)('docs/rules.md#client-metadata-documents: the document is cached by its caching headers (at least 5 minutes) and fetched again after', async () => {
        const clientId = docs.publish('/cache/agent.json', {}, { 'cache-control': 'max-age=60' });
        const browser = server.browser();
        await browser.login(user.email, user.password);
        const { challenge } = pkcePair();
        for (let i = 0; i < 3; i++) expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`)).status).toBe(200);
        expect(docs.reads('/cache/agent.json')).toBe(1);
        server.advance(61); // past max-age=60, which is raised to the 5-minute floor
        expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`)).status).toBe(200);
        expect(docs.reads('/cache/agent.json')).toBe(1);
        server.advance(240);
        expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`)).status).toBe(200);
        expect(docs.reads('/cache/agent.json')).toBe(2);
      });

      it.skipIf(!available)('docs/rules.md#cimd-policy: under CIMD_POLICY=open nobody reviews documents, so a re-fetched document\'s new redirect URI applies at once', async () => {
        const clientId = docs.publish('/open-again/agent.json');
        const browser = server.browser();
        await browser.login(user.email, user.password);
        const { challenge } = pkcePair();
        expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`)).status).toBe(200);
        docs.publish('/open-again/agent.json', { redirect_uris: ['http://127.0.0.1:45123/callback', 'http://127.0.0.1:45124/callback'] });
        server.advance(601);
        const page = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: 'http://127.0.0.1:45124/callback' })}`);
        expect(page.status).toBe(200);
        expect(page.body).toContain('unverified-notice');
      });

      it.skipIf(!available)('draft-ietf-oauth-client-id-metadata-document §4: a document is refused when its client_id differs, it is confidential, it redirects, or it is not JSON', async () => {
        const { challenge } = pkcePair();
        const cases: Array<[string, RegExp]> = [
          [docs.publish('/bad/mismatch.json', { client_id: `${docs.origin}/bad/other.json` }), /client_id must equal its URL exactly/],
          [docs.publish('/bad/secret.json', { token_endpoint_auth_method: 'client_secret_basic' }), /token_endpoint_auth_method/],
          [docs.raw('/bad/redirect.json', { status: 302, headers: { location: `${docs.origin}/open/agent.json` }, body: '' }), /redirect/],
          [docs.raw('/bad/text.json', { body: 'not json' }), /not JSON/],
          [docs.publish('/bad/redirect-uri.json', { redirect_uris: ['http://agent.example.com/cb'] }), /redirect_uris/],
          [`${docs.origin}/bad/missing.json`, /answered 404/],
        ];
        for (const [clientId, problem] of cases) {
          const page = await fetch(`${server.url}/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`, { redirect: 'manual' });
          expect(page.status, clientId).toBe(400);
          expect(await page.text(), clientId).toMatch(problem);
        }
      });
    });

    describe('CIMD_POLICY=open: what a document may say, and what its agent may do before the user allowed it (SECURITY.md)', () => {
      let server: TestServer;
      let user: TestUser;
      beforeAll(async () => {
        if (!available) return;
        server = openServer;
        user = await server.user();
      });

      const clientRow = (clientId: string) => server.services.stores.clients.find(clientId);

      it.skipIf(!available)('RFC 9700 §4.11.2: before the user allowed a document client, prompt=none and a bad scope answer a page naming it, never a redirect to its redirect URI', async () => {
        const clientId = docs.publish('/first-use/agent.json');
        const { challenge } = pkcePair();
        const anonymous = await server.browser().get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { prompt: 'none' })}`);
        expect(anonymous.location).toBeNull();
        expect(anonymous.status).toBe(400);
        expect(anonymous.body).toContain('Doc Agent');
        expect(anonymous.body).toContain('login_required');
        const browser = server.browser();
        await browser.login(user.email, user.password);
        for (const [extra, error] of [[{ prompt: 'none' }, 'consent_required'], [{ scope: 'PROFILE_WRITE' }, 'invalid_scope']] as const) {
          const res = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, extra)}`);
          expect(res.location, error).toBeNull();
          expect(res.status, error).toBe(400);
          expect(res.body, error).toContain('Doc Agent');
          expect(res.body, error).toContain(error);
        }
      });

      it.skipIf(!available)('SECURITY.md, RFC 6749 §3.3: a document client that sends no scope gets CIMD_SCOPES and completes the code flow with PKCE', async () => {
        const clientId = docs.publish('/no-scope/agent.json');
        const browser = server.browser();
        await browser.login(user.email, user.password);
        const { verifier, challenge } = pkcePair();
        const query = authorizeQuery(clientId, challenge);
        query.delete('scope');
        const page = await browser.get(`/auth/oauth2/authorize?${query}`);
        expect(page.status).toBe(200);
        const consent = await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
        const code = new URL(consent.location!).searchParams.get('code')!;
        const res = await server.token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:45123/callback', client_id: clientId, code_verifier: verifier });
        expect(res.status).toBe(200);
        expect(res.body.scope).toBe(server.config.clientMetadata.scopes.join(' '));
      });

      it.skipIf(!available)('SECURITY.md: a document whose client_name holds a bidi override is refused, saying which field and what to remove; no client is made', async () => {
        const clientId = docs.publish('/bidi/agent.json', { client_name: 'Calendar \u202Emoc.elgoog' });
        const page = await server.browser().get(`/auth/oauth2/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`);
        expect(page.status).toBe(400);
        expect(page.body).toMatch(/the metadata document is not acceptable: client_name .*U\+202E/);
        expect(await clientRow(clientId)).toBeUndefined();
      });

      it.skipIf(!available)('SECURITY.md: a NUL character in any text field of a document is refused at the door, naming the field, never a 500; no client is made', async () => {
        const fields: Array<[string, Record<string, unknown>]> = [
          ['client_uri', { client_uri: 'https://agent.example.com/\u0000' }],
          ['logo_uri', { logo_uri: 'https://agent.example.com/logo\u0000.png' }],
          ['client_name', { client_name: 'Doc\u0000Agent' }],
          ['redirect_uris', { redirect_uris: ['http://127.0.0.1:45123/callback\u0000'] }],
        ];
        for (const [field, overrides] of fields) {
          const clientId = docs.publish(`/nul/${field}.json`, overrides);
          const page = await server.browser().get(`/auth/oauth2/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`);
          expect(page.status, field).toBe(400);
          expect(page.body, field).toMatch(new RegExp(`the metadata document is not acceptable: ${field} `));
          expect(await clientRow(clientId), field).toBeUndefined();
        }
      });

      // Issue 34 item 2: an anonymous first use makes the client the operator reviews with
      // `gatehouse clients list --state pending`, where a control character in the client id
      // (the document's URL) erased the line above it.
      it.skipIf(!available)('SECURITY.md, RFC 3986 §2: a client_id URL holding a control character is refused on the authorization page naming client_id and the character, even when its document names it exactly; the document is never fetched and no client is made', async () => {
        const cases: Array<[string, string]> = [
          [`${docs.origin}/ctl/agent\u001b[1A\u001b[2K.json`, 'U+001B'],
          [`${docs.origin}/ctl/agent\n.json`, 'U+000A'],
          [`${docs.origin}/ctl/agent\u0085.json`, 'U+0085'],
        ];
        for (const [clientId, character] of cases) {
          // The URL as the fetch sends it (percent-encoded, a newline dropped), publishing a document that names the raw id exactly.
          const path = new URL(clientId).pathname;
          docs.raw(path, { body: { client_id: clientId, client_name: 'Doc Agent', redirect_uris: ['http://127.0.0.1:45123/callback'], token_endpoint_auth_method: 'none' } });
          const page = await server.browser().get(`/auth/oauth2/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`);
          expect(page.status, character).toBe(400);
          expect(page.location, character).toBeNull();
          expect(page.body, character).toMatch(/client_id [\s\S]*? cannot be used: /);
          expect(page.body, character).toContain(`cannot be used: it holds a control character (${character}), which no URI may hold (RFC 3986 §2)`);
          expect(docs.reads(path), character).toBe(0);
          expect(await clientRow(clientId), character).toBeUndefined();
        }
      });
    });

    describe('CIMD_POLICY=open: the limits of a document fetch (docs/rules.md#client-metadata-documents: 5-second timeout, 64 KiB)', () => {
      let server: TestServer;
      beforeAll(async () => {
        if (available) server = openServer;
      });

      const authorize = (clientId: string) => fetch(`${server.url}/auth/oauth2/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`, { redirect: 'manual' });
      const clientRow = (clientId: string) => server.services.stores.clients.find(clientId);

      it.skipIf(!available)('a document larger than 64 KiB is refused on the authorization page, and no client is made', async () => {
        const clientId = docs.publish('/limits/large.json', { padding: 'x'.repeat(64 * 1024) });
        const page = await authorize(clientId);
        expect(page.status).toBe(400);
        expect(await page.text()).toContain('the metadata document could not be fetched: the document is larger than 64 KiB');
        expect(docs.reads('/limits/large.json')).toBe(1);
        expect(await clientRow(clientId)).toBeUndefined();

        // Just under the limit, the same document is accepted.
        const fits = docs.publish('/limits/fits.json', { padding: 'x'.repeat(63 * 1024) });
        expect((await authorize(fits)).status).not.toBe(400);
        expect(await clientRow(fits)).toBeDefined();
      });

      // Five real seconds, as nothing makes the timeout shorter; the fetch does not depend on
      // the database, so it runs on one backend only.
      it.skipIf(!available || name !== 'sqlite')('a document host that never answers is given up after 5 seconds, with a refusal on the authorization page', async () => {
        const clientId = docs.neverAnswer('/limits/silent.json');
        const started = Date.now();
        const page = await authorize(clientId);
        const waited = Date.now() - started;
        expect(page.status).toBe(400);
        expect(await page.text()).toContain('the metadata document could not be fetched: the document did not arrive within 5 seconds');
        expect(docs.reads('/limits/silent.json')).toBe(1);
        expect(waited).toBeGreaterThanOrEqual(4_900);
        expect(waited).toBeLessThan(10_000);
        expect(await clientRow(clientId)).toBeUndefined();
      }, 15_000);
    });

    describe('CIMD_SCOPES narrower than the default', () => {
      let server: TestServer;
      let user: TestUser;
      beforeAll(async () => {
        if (!available) return;
        server = await startTestServer(name, { CIMD_POLICY: 'open', CIMD_SCOPES: 'PROFILE_READ', OUTBOUND_ALLOW_PRIVATE: '1' });
        user = await server.user();
      });
      afterAll(async () => server?.close());

      it.skipIf(!available)('docs/integrating.md#connect-an-ai-agent-mcp, RFC 6749 §4.1.2.1: a scope outside CIMD_SCOPES (though among the default ones) is invalid_scope, on a page until the user allowed the agent (SECURITY.md) and redirected back after; one inside it reaches the consent page', async () => {
        const clientId = docs.publish('/narrow/agent.json');
        const browser = server.browser();
        await browser.login(user.email, user.password);
        const { challenge } = pkcePair();

        const first = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { scope: 'PROFILE_READ BOOKING_READ' })}`);
        expect(first.status).toBe(400);
        expect(first.location).toBeNull();
        expect(first.body).toMatch(/invalid_scope: scope not enabled for this application: BOOKING_READ/);

        const inside = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { scope: 'PROFILE_READ' })}`);
        expect(inside.status).toBe(200);
        expect(inside.body).toContain('Doc Agent');
        expect((await server.services.stores.clients.find(clientId))!.scopes).toEqual(['PROFILE_READ']);
        expect((await browser.post('/auth/oauth2/authorize', { ...formFields(inside.body), decision: 'allow' })).status).toBe(303);

        const outside = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { scope: 'PROFILE_READ BOOKING_READ' })}`);
        expect(outside.status).toBe(303);
        const back = new URL(outside.location!);
        expect(`${back.origin}${back.pathname}`).toBe('http://127.0.0.1:45123/callback');
        expect(back.searchParams.get('error')).toBe('invalid_scope');
        expect(back.searchParams.get('error_description')).toContain('BOOKING_READ');
        expect(back.searchParams.get('state')).toBe('st');
        expect(back.searchParams.get('iss')).toBe(server.url);
        expect(back.searchParams.has('code')).toBe(false);
      });

      it.skipIf(!available)('docs/rules.md#protected-resource-metadata, SEP-835: /mcp names the scopes a metadata-document agent may get, so an agent asking for exactly them reaches consent', async () => {
        const metadata = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)).json()) as { scopes_supported: string[] };
        expect(metadata.scopes_supported).toEqual(['PROFILE_READ']);
        const unauthenticated = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        expect(unauthenticated.status).toBe(401);
        expect(unauthenticated.headers.get('www-authenticate')).toContain('scope="PROFILE_READ"');

        // What an MCP client does (SEP-835): ask for the scopes the resource named.
        const clientId = docs.publish('/hinted/agent.json');
        const browser = server.browser();
        await browser.login(user.email, user.password);
        const { challenge } = pkcePair();
        const asked = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { scope: metadata.scopes_supported.join(' ') })}`);
        expect(asked.status).toBe(200);
        expect(asked.body).toContain('Doc Agent');
      });

      it.skipIf(!available)('docs/rules.md#client-metadata-documents: a document client made while CIMD_SCOPES was wider is held to it once the operator narrows it', async () => {
        const clientId = docs.publish('/narrowed-later/agent.json');
        const { challenge } = pkcePair();
        const wide = 'PROFILE_READ BOOKING_READ';
        // The same database, served before the operator narrowed CIMD_SCOPES (the default).
        const before = await startTestServer(name, { CIMD_POLICY: 'open', OUTBOUND_ALLOW_PRIVATE: '1' }, server);
        try {
          const browser = before.browser();
          await browser.login(user.email, user.password);
          expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { scope: wide })}`)).status).toBe(200);
        } finally {
          await before.close();
        }
        const versionBefore = (await server.services.stores.clients.find(clientId))!.version;

        const browser = server.browser();
        await browser.login(user.email, user.password);
        // The user saw the consent page but never allowed it: the refusal is a page (SECURITY.md).
        const outside = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { scope: wide })}`);
        expect(outside.status).toBe(400);
        expect(outside.body).toMatch(/invalid_scope: scope not enabled for this application: BOOKING_READ/);
        const inside = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { scope: 'PROFILE_READ' })}`);
        expect(inside.status).toBe(200);
        expect(inside.body).toContain('Doc Agent');
        // One change, recorded and versioned (docs/rules.md#review-versions): a review of the client as it was is stale.
        expect(await server.services.stores.clients.find(clientId)).toMatchObject({ scopes: ['PROFILE_READ'], version: versionBefore + 1 });
        const changes = await auditEvents(server, { clientId, type: 'client.scopes_changed' });
        expect(changes.map((c) => c.data)).toEqual([{ from: expect.stringContaining('BOOKING_READ'), to: 'PROFILE_READ', source: 'CIMD_SCOPES' }]);
      });
    });

    describe('CIMD_POLICY=open without OUTBOUND_ALLOW_PRIVATE: the SSRF guard', () => {
      let server: TestServer;
      beforeAll(async () => {
        if (available) server = await startTestServer(name, { CIMD_POLICY: 'open' });
      });
      afterAll(async () => server?.close());

      it.skipIf(!available)('docs/rules.md#outbound-urls: a document host that is or resolves to loopback or a private address is refused, and never fetched', async () => {
        const { challenge } = pkcePair();
        const cases: Array<[string, RegExp]> = [
          ['https://private.example.com/agent.json', /non-public address/], // the test DNS answers 10.1.2.3
          ['https://localhost/agent.json', /loopback/],
          ['https://127.0.0.1/agent.json', /loopback/],
          ['https://metadata.example.com/agent.json', /non-public address/], // 169.254.169.254
        ];
        for (const [clientId, problem] of cases) {
          const page = await fetch(`${server.url}/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`, { redirect: 'manual' });
          expect(page.status, clientId).toBe(400);
          expect(await page.text(), clientId).toMatch(problem);
        }
        // Plain http is no metadata document without OUTBOUND_ALLOW_PRIVATE=1: an unknown client.
        const http = await fetch(`${server.url}/auth/oauth2/authorize?${authorizeQuery(docs.publish('/ssrf/agent.json'), challenge)}`, { redirect: 'manual' });
        expect(await http.text()).toMatch(/is not a known application/);
        expect(docs.reads('/ssrf/agent.json')).toBe(0);
      });
    });

    describe('CIMD_POLICY=review (the default) and gatehouse cimd', () => {
      let server: TestServer;
      let user: TestUser;
      beforeAll(async () => {
        if (!available) return;
        server = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1' });
        user = await server.user();
      });
      afterAll(async () => server?.close());
      const gh = (args: string[]) => runCli(args, { env: { DATABASE_URL: server.database.url, ...server.database.env } });

      it.skipIf(!available)('docs/rules.md#cimd-policy: the first use makes a pending client the user cannot approve; trusting the host (CLI) approves it, and it is not shown as unverified', async () => {
        const clientId = docs.publish('/review/agent.json');
        const browser = server.browser();
        await browser.login(user.email, user.password);
        const { challenge } = pkcePair();
        const first = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`);
        expect(first.status).toBe(400);
        expect(first.body).toMatch(/pending/);
        expect((await server.services.stores.clients.find(clientId))!.state).toBe('pending');

        const trusted = await gh(['cimd', 'trust', docs.host, '--json']);
        expect(trusted.code, trusted.stderr).toBe(0);
        // docs/operating.md#cli-reference: --json has snake_case keys and ISO-8601 times.
        // docs/integrating.md#connect-an-ai-agent-mcp: a decision names the host, not the origin: every port of it.
        expect(JSON.parse(trusted.stdout)).toEqual({ host: '127.0.0.1', decision: 'trusted', changed_clients: [clientId] });
        const listed = await gh(['cimd', 'list', '--json']);
        expect(JSON.parse(listed.stdout)).toEqual([{ host: '127.0.0.1', decision: 'trusted', decided_by: 'cli:operator', decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) }]);
        // The client it approved is audited as the operator's decision.
        const audited = JSON.parse((await gh(['audit', '--client', clientId, '--json'])).stdout) as Array<{ type: string; actor: string | null }>;
        expect(audited.find((e) => e.type === 'client.approved')?.actor).toBe('CLI (operator)');

        const page = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`);
        expect(page.status).toBe(200);
        expect(page.body).not.toContain('unverified-notice');

        // Distrusting it refuses its clients at once.
        expect((await gh(['cimd', 'distrust', docs.host])).code).toBe(0);
        const refused = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`);
        expect(refused.status).toBe(400);
        expect(refused.body).toMatch(/blocked/);
        expect((await gh(['cimd', 'trust', 'not a host'])).code).not.toBe(0);
        for (const notHost of ['-', 'agent-.example.com', `${'a'.repeat(64)}.example.com`, `${'abc.'.repeat(70)}com`]) {
          const refused = await gh(['cimd', 'trust', notHost]);
          expect(refused.code, notHost).toBe(1);
          expect(refused.stderr, notHost).toMatch(/is not a host name: give it as agent\.example\.com/);
        }
      });
    });

    describe('CIMD_POLICY=review: an admin decides in /admin/oauth-clients', () => {
      let server: TestServer;
      let user: TestUser;
      let admin: TestUser;
      beforeAll(async () => {
        if (!available) return;
        server = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1' });
        user = await server.user();
        admin = await server.user({ admin: true });
      });
      afterAll(async () => server?.close());

      /** A document's first use by the user (the client waits for review), and an admin signed in to decide. */
      async function firstUse(...publishArgs: Parameters<DocumentHost['publish']>) {
        const clientId = docs.publish(...publishArgs);
        const browser = server.browser();
        await browser.login(user.email, user.password);
        const { challenge } = pkcePair();
        expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`)).status).toBe(400);
        const adminBrowser = server.browser();
        await adminBrowser.login(admin.email, admin.password);
        return { clientId, browser, challenge, adminBrowser };
      }

      /** Approves a pending client on its admin review page, as an admin would; returns the page's path. */
      async function approveOnAdminPage(adminBrowser: ReturnType<TestServer['browser']>, clientId: string, decision: 'approve' | 'approve-changes' = 'approve') {
        const path = `/admin/oauth-clients/${encodeURIComponent(clientId)}`;
        const page = await adminBrowser.get(path);
        expect(page.status).toBe(200);
        const decided = await adminBrowser.post(`${path}/review`, { ...formWith(page.body, 'decision', decision), reason: '' });
        expect(decided.status).toBe(303);
        return path;
      }

      it.skipIf(!available)('docs/rules.md#cimd-policy: the pending client is on the admin\'s review page; approving it there lets the user authorize it', async () => {
        const { clientId, browser, challenge, adminBrowser } = await firstUse('/admin-review/agent.json', { client_name: 'Reviewed Agent' });
        expect((await adminBrowser.get(`/admin/oauth-clients/${encodeURIComponent(clientId)}`)).body).toContain('Reviewed Agent');
        await approveOnAdminPage(adminBrowser, clientId);

        const consent = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`);
        expect(consent.status).toBe(200);
        expect(consent.body).toContain('Reviewed Agent');
      });

      it.skipIf(!available)('docs/rules.md#client-changes, docs/rules.md#cimd-policy: a re-fetched document that adds a redirect URI to an approved client holds it for review; the approved one keeps working and the new name applies at once', async () => {
        const docPath = '/held/agent.json';
        const { clientId, browser, challenge, adminBrowser } = await firstUse(docPath, { client_name: 'Held Agent' });
        const reviewPath = await approveOnAdminPage(adminBrowser, clientId);

        // The attacker, in control of the document's host, adds an address the admin never saw.
        docs.publish(docPath, { client_name: 'Held Agent Two', redirect_uris: ['http://127.0.0.1:45123/callback', 'https://attacker.example/cb'] });
        server.advance(601); // past the document's max-age=600
        const toAttacker = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: 'https://attacker.example/cb' })}`);
        expect(docs.reads(docPath)).toBe(2);
        expect(toAttacker.status).toBe(400);
        expect(toAttacker.body).toContain('is not registered for this application');
        const approved = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`);
        expect(approved.status).toBe(200);
        expect(approved.body).toContain('Held Agent Two');

        // The admin sees it among the changes awaiting review, and approving it lets it work.
        const queue = (await adminBrowser.get('/admin/oauth-clients')).body;
        expect(queue.slice(queue.indexOf('id="held"'))).toContain(`data-client="${clientId}"`);
        const review = await adminBrowser.get(reviewPath);
        expect(review.body).toContain('https://attacker.example/cb');
        // Fetching the same document again changes nothing, so the admin's page is not made stale.
        server.advance(601);
        expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`)).status).toBe(200);
        expect(docs.reads(docPath)).toBe(3);
        const decided = await adminBrowser.post(`${reviewPath}/review`, { ...formWith(review.body, 'decision', 'approve-changes'), reason: '' });
        expect(decided.status).toBe(303);
        expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: 'https://attacker.example/cb' })}`)).status).toBe(200);
      });

      it.skipIf(!available)('docs/rules.md#bad-input: ten first uses of one document at once make one client and answer every user alike, never a 500', async () => {
        const clientId = docs.publish('/first-use/agent.json', { client_name: 'Raced Agent' });
        docs.answerTogether('/first-use/agent.json', 10);
        const { challenge } = pkcePair();
        const browsers = await Promise.all(Array.from({ length: 10 }, async () => {
          const b = server.browser();
          await b.login(user.email, user.password);
          return b;
        }));
        const answers = await Promise.all(browsers.map((b) => b.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`)));
        expect(answers.map((a) => a.status)).toEqual(Array(10).fill(400));
        expect((await server.services.stores.clients.find(clientId))?.state).toBe('pending');
      });

      it.skipIf(!available)('docs/rules.md#client-states, docs/rules.md#client-metadata-documents: a rejected document client stays rejected when its document changes: a re-fetch is no resubmission', async () => {
        const docPath = '/rejected/agent.json';
        const { clientId, browser, challenge, adminBrowser } = await firstUse(docPath, { client_name: 'Rejected Agent' });
        const path = `/admin/oauth-clients/${encodeURIComponent(clientId)}`;
        const page = await adminBrowser.get(path);
        expect((await adminBrowser.post(`${path}/review`, { ...formWith(page.body, 'decision', 'reject'), reason: 'not an agent we know' })).status).toBe(303);

        docs.publish(docPath, { client_name: 'Rejected Agent, renamed' });
        server.advance(601);
        expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`)).status).toBe(400);
        expect(docs.reads(docPath)).toBe(2);
        expect(await server.services.stores.clients.find(clientId)).toMatchObject({ state: 'rejected', name: 'Rejected Agent, renamed', reviewNote: 'not an agent we know' });
      });

      it.skipIf(!available)('docs/rules.md#cimd-policy: a client id of 1,000 characters is reviewed on the admin page, and its user revokes it on the authorized-apps page', async () => {
        const { clientId, browser, challenge, adminBrowser } = await firstUse(`/long/${'a'.repeat(1000)}/agent.json`, { client_name: 'Long Agent' });
        expect(clientId.length).toBeGreaterThan(1000);
        await approveOnAdminPage(adminBrowser, clientId);

        const consent = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge)}`);
        expect(consent.status).toBe(200);
        const allowed = await browser.post('/auth/oauth2/authorize', { ...formFields(consent.body), decision: 'allow' });
        expect(allowed.status).toBe(303);
        // Revoke access links to a confirmation page, whose form revokes.
        const apps = await browser.get('/settings/authorized-apps');
        const card = apps.body.slice(apps.body.indexOf(`data-client="${clientId}"`));
        const confirmLink = /href="([^"]+\/revoke)"/.exec(card)![1]!;
        expect(confirmLink).toBeDefined();
        const confirm = await browser.get(confirmLink);
        expect(confirm.status).toBe(200);
        const revokeForm = [...confirm.body.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes('Revoke access for Long Agent'))!;
        expect(revokeForm).toBeDefined();
        const action = /action="([^"]+)"/.exec(revokeForm)![1]!.replaceAll('&amp;', '&');
        const revoked = await browser.post(action, formFields(revokeForm));
        expect(revoked.status).toBe(303);
        expect((await browser.get(revoked.location!)).body).toContain('You revoked the access <strong>Long Agent</strong> had for you.');
      });

      it.skipIf(!available)('docs/rules.md#client-metadata-documents: a client id is at most 2,000 characters: a longer one in a page\'s path is no client, not the client whose id it begins with', async () => {
        const prefix = `${docs.origin}/exact/`;
        const { clientId, adminBrowser } = await firstUse(`/exact/${'a'.repeat(2000 - prefix.length)}`);
        expect(clientId.length).toBe(2000);
        expect((await adminBrowser.get(`/admin/oauth-clients/${encodeURIComponent(clientId)}`)).status).toBe(200);
        const longer = encodeURIComponent(`${clientId}b`);
        expect((await adminBrowser.get(`/admin/oauth-clients/${longer}`)).status).toBe(404);
        expect((await fetch(`${server.url}/oauth-clients/${longer}/logo`)).status).toBe(404);
      });

      // Trusts the document host on this server: keep it the last tests but one of this describe.
      it.skipIf(!available)('docs/rules.md#cimd-policy: once an admin trusts the host, the next fetch applies what its document held for review', async () => {
        const docPath = '/trusted-later/agent.json';
        const { clientId, browser, challenge, adminBrowser } = await firstUse(docPath);
        await approveOnAdminPage(adminBrowser, clientId);
        const added = { redirect_uri: 'http://127.0.0.1:45126/callback' };
        docs.publish(docPath, { redirect_uris: ['http://127.0.0.1:45123/callback', added.redirect_uri] });
        server.advance(601);
        expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, added)}`)).status).toBe(400);

        const trusted = await runCli(['cimd', 'trust', docs.host], { env: { DATABASE_URL: server.database.url, ...server.database.env } });
        expect(trusted.stderr).toBe('');
        expect(trusted.code).toBe(0);
        // Trust approves what waits; the client an admin rejected above stays rejected.
        expect((await server.services.stores.clients.list({})).find((c) => c.name === 'Rejected Agent, renamed')!.state).toBe('rejected');
        server.advance(601);
        expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, added)}`)).status).toBe(200);
        expect((await server.services.stores.clients.find(clientId))!.proposedRedirectUris).toEqual([]);
      });

      it.skipIf(!available)('docs/rules.md#cimd-policy: an admin trusts a host in the web app; a document first used after that is approved at once', async () => {
        const adminBrowser = server.browser();
        await adminBrowser.login(admin.email, admin.password);
        const queue = await adminBrowser.get('/admin/oauth-clients');
        const form = formFields([...queue.body.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes('/admin/oauth-clients/hosts'))!);
        const trusted = await adminBrowser.post('/admin/oauth-clients/hosts', { ...form, host: docs.host, decision: 'trusted' });
        expect(trusted.status).toBe(303);
        expect((await adminBrowser.get('/admin/oauth-clients')).body).toContain('<li data-host="127.0.0.1"><strong>127.0.0.1</strong>: trusted');
        const clientId = docs.publish('/admin-trusted/agent.json');
        const browser = server.browser();
        await browser.login(user.email, user.password);
        const page = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`);
        expect(page.status).toBe(200);
        expect(page.body).not.toContain('unverified-notice');
      });
    });

    describe('CIMD_POLICY=review on two instances over one database', () => {
      let a: TestServer;
      let b: TestServer;
      let user: TestUser;
      let admin: TestUser;
      beforeAll(async () => {
        if (!available) return;
        a = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1' });
        b = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1' }, a);
        user = await a.user();
        admin = await a.user({ admin: true });
      });
      afterAll(async () => {
        await b?.close();
        await a?.close();
      });

      it.skipIf(!available)('docs/rules.md#client-changes: an instance still serving an older cached copy of a document does not write it back over the newer one another instance fetched', async () => {
        const docPath = '/two-instances/agent.json';
        const clientId = docs.publish(docPath, { client_name: 'Shared Agent' });
        const { challenge } = pkcePair();
        const query = (extra: Record<string, string> = {}) => `/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, extra)}`;
        const onA = a.browser();
        await onA.login(user.email, user.password);
        expect((await onA.get(query())).status).toBe(400); // pending: A fetched the first copy
        const adminBrowser = a.browser();
        await adminBrowser.login(admin.email, admin.password);
        const reviewPath = `/admin/oauth-clients/${encodeURIComponent(clientId)}`;
        const review = await adminBrowser.get(reviewPath);
        expect((await adminBrowser.post(`${reviewPath}/review`, { ...formWith(review.body, 'decision', 'approve'), reason: '' })).status).toBe(303);
        const onB = b.browser();
        await onB.login(user.email, user.password);
        expect((await onB.get(query())).status).toBe(200); // B caches the first copy
        expect(docs.reads(docPath)).toBe(2);

        // The document adds a URI; A's copy expires and A holds the new URI for review.
        docs.publish(docPath, { client_name: 'Shared Agent', redirect_uris: ['http://127.0.0.1:45123/callback', 'http://127.0.0.1:45125/callback'] });
        a.advance(601);
        expect((await onA.get(query({ redirect_uri: 'http://127.0.0.1:45125/callback' }))).status).toBe(400);
        expect(docs.reads(docPath)).toBe(3);
        const held = async () => {
          const { proposedRedirectUris, version } = (await a.services.stores.clients.find(clientId))!;
          return { proposedRedirectUris, version };
        };
        const before = await held();
        expect(before.proposedRedirectUris.join(' ')).toContain('45125');

        // B, still within its copy's lifetime, answers from the database, and writes nothing.
        expect((await onB.get(query())).status).toBe(200);
        expect(docs.reads(docPath)).toBe(3);
        expect(await held()).toEqual(before);
      });
    });

    describe('CIMD_POLICY=off', () => {
      let server: TestServer;
      beforeAll(async () => {
        if (available) server = await startTestServer(name, { CIMD_POLICY: 'off', OUTBOUND_ALLOW_PRIVATE: '1' });
      });
      afterAll(async () => server?.close());

      it.skipIf(!available)('docs/rules.md#cimd-policy, docs/rules.md#server-metadata: URL client ids are unknown clients, and the metadata says documents are not supported', async () => {
        const clientId = docs.publish('/off/agent.json');
        const page = await fetch(`${server.url}/auth/oauth2/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`, { redirect: 'manual' });
        expect(page.status).toBe(400);
        expect(await page.text()).toMatch(/is not a known application/);
        expect(docs.reads('/off/agent.json')).toBe(0);
        const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
        expect(metadata.client_id_metadata_document_supported).toBe(false);
      });
    });
  });
}
