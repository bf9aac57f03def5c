// docs/integrating.md#connect-an-ai-agent-mcp: CIMD_POLICY applies to every URL client at each use, not only
// to new ones. Each test serves one database first under one policy (the client is made and
// authorized there) and then, as after the operator's restart, under another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../helpers/backends.ts';
import { formFields } from '../../helpers/browser.ts';
import { runCli } from '../../helpers/cli.ts';
import { authorizeQuery, startDocumentHost, type DocumentHost } from '../../helpers/document-host.ts';
import { startTestServer, type TestServer, type TestUser } from '../../helpers/server.ts';
import { auditEvents } from '../../helpers/stores.ts';
import { pkcePair } from '../token-endpoint/setup.ts';
import { reviewClient } from '../../../src/services/clients/review.ts';

const REDIRECT_URI = 'http://127.0.0.1:45123/callback';
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1' } } });

/** What an agent holds after the user allowed it: an access token for /v2 and one for /mcp (each with its refresh token). */
async function authorizeAgent(server: TestServer, user: TestUser, clientId: string) {
  const browser = server.browser();
  await browser.login(user.email, user.password);
  const tokens = [];
  for (const resource of ['v2', 'mcp']) {
    const { verifier, challenge } = pkcePair();
    const page = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, challenge, { resource: `${server.url}/${resource}` })}`);
    expect(page.status, page.body.slice(0, 300)).toBe(200);
    const consent = await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
    const code = new URL(consent.location!).searchParams.get('code')!;
    const res = await server.token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier });
    expect(res.status).toBe(200);
    tokens.push(res.body);
  }
  return { access: tokens[0]!.access_token as string, refresh: tokens[0]!.refresh_token as string, mcpAccess: tokens[1]!.access_token as string };
}

const callMcp = (server: TestServer, token: string) => fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...mcpHeaders, authorization: `Bearer ${token}` }, body: initialize });
const stateOf = async (server: TestServer, clientId: string) => (await server.services.stores.clients.find(clientId))!.state;

export function policyAtEachUse({ name, available }: Backend): void {
  describe('CIMD_POLICY at each use', () => {
    let docs: DocumentHost;
    beforeAll(async () => {
      docs = await startDocumentHost();
    });
    afterAll(async () => docs?.close());

    describe('a URL client made under open, served under off', () => {
      let open: TestServer;
      let user: TestUser;
      beforeAll(async () => {
        if (!available) return;
        open = await startTestServer(name, { CIMD_POLICY: 'open', OUTBOUND_ALLOW_PRIVATE: '1' });
        user = await open.user();
      });
      afterAll(async () => open?.close());

      it.skipIf(!available)('docs/integrating.md#connect-an-ai-agent-mcp: cannot authorize, refresh, or call /v2 or /mcp, and each refusal says why; back under open it works again', async () => {
        const clientId = docs.publish('/off-later/agent.json');
        const tokens = await authorizeAgent(open, user, clientId);
        const off = await startTestServer(name, { CIMD_POLICY: 'off', OUTBOUND_ALLOW_PRIVATE: '1' }, open);
        try {
          const reason = /this server does not accept applications identified by a client metadata document \(a URL client id\)/;
          const browser = off.browser();
          await browser.login(user.email, user.password);
          const page = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`);
          expect(page.status).toBe(400);
          expect(page.body).toMatch(reason);

          const refreshed = await off.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh, client_id: clientId });
          expect(refreshed.status).toBe(401);
          expect(refreshed.body).toEqual({ error: 'invalid_client', error_description: expect.stringMatching(reason) });

          const api = await off.api('GET', '/v2/me', tokens.access);
          expect(api.status).toBe(401);
          expect(api.body.error.message).toMatch(reason);
          expect(api.headers.get('www-authenticate')).toBe(`Bearer realm="gatehouse", error="invalid_token", resource_metadata="${off.url}/.well-known/oauth-protected-resource/v2"`);

          const mcp = await callMcp(off, tokens.mcpAccess);
          expect(mcp.status).toBe(401);
          expect(mcp.headers.get('www-authenticate')).toContain('error="invalid_token"');
          expect(mcp.headers.get('www-authenticate')).toContain(`resource_metadata="${off.url}/.well-known/oauth-protected-resource/mcp"`);
          expect(((await mcp.json()) as { error: { message: string } }).error.message).toMatch(reason);
        } finally {
          await off.close();
        }
        // Nothing was written: the policy, not the client, refused it.
        expect(await stateOf(open, clientId)).toBe('approved');
        const back = await open.api('GET', '/v2/me', tokens.access);
        expect(back.status, JSON.stringify(back.body)).toBe(200);
        expect((await callMcp(open, tokens.mcpAccess)).status).toBe(200);
      });
    });

    describe('URL clients approved under open, served under review', () => {
      let review: TestServer;
      let user: TestUser;
      let admin: TestUser;
      let trustedDocs: DocumentHost;
      beforeAll(async () => {
        if (!available) return;
        // Another host than docs' (127.0.0.1): an address of the loopback network.
        trustedDocs = await startDocumentHost('127.0.0.2');
        review = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1' });
        user = await review.user();
        admin = await review.user({ admin: true });
      });
      afterAll(async () => {
        await review?.close();
        await trustedDocs?.close();
      });

      it.skipIf(!available)('docs/integrating.md#connect-an-ai-agent-mcp: a client approved only because the policy was open awaits review again (user page, admin queue, refresh, /v2, /mcp); an admin\'s or a trusted host\'s approval stands', async () => {
        // An admin approved this one while the policy was review.
        const reviewed = docs.publish('/reopen/reviewed.json', { client_name: 'Reviewed Agent' });
        const first = review.browser();
        await first.login(user.email, user.password);
        expect((await first.get(`/auth/oauth2/authorize?${authorizeQuery(reviewed, pkcePair().challenge)}`)).status).toBe(400);
        await reviewClient(review.services, reviewed, 'approve', admin.id);
        // The operator trusts this host.
        expect((await runCli(['cimd', 'trust', trustedDocs.host], { env: { DATABASE_URL: review.database.url, ...review.database.env } })).code).toBe(0);

        const open = await startTestServer(name, { CIMD_POLICY: 'open', OUTBOUND_ALLOW_PRIVATE: '1' }, review);
        const unreviewed = docs.publish('/reopen/unreviewed.json', { client_name: 'Unreviewed Agent' });
        const trusted = trustedDocs.publish('/reopen/trusted.json', { client_name: 'Trusted Agent' });
        const alsoUnreviewed = docs.publish('/reopen/also-unreviewed.json', { client_name: 'Also Unreviewed Agent' });
        let tokens: Awaited<ReturnType<typeof authorizeAgent>>;
        try {
          tokens = await authorizeAgent(open, user, unreviewed);
          await authorizeAgent(open, user, alsoUnreviewed);
          await authorizeAgent(open, user, trusted);
          await authorizeAgent(open, user, reviewed);
          expect(await stateOf(open, unreviewed)).toBe('approved');
        } finally {
          await open.close();
        }

        // An instance that was serving under review all along makes it wait at its next use.
        const meanwhile = await first.get(`/auth/oauth2/authorize?${authorizeQuery(alsoUnreviewed, pkcePair().challenge)}`);
        expect(meanwhile.status).toBe(400);
        expect(meanwhile.body).toMatch(/this application is pending/);
        expect(await stateOf(review, alsoUnreviewed)).toBe('pending');

        // The operator serves the database under review again.
        const again = await startTestServer(name, { OUTBOUND_ALLOW_PRIVATE: '1' }, review);
        try {
          expect(await stateOf(again, unreviewed)).toBe('pending');
          const browser = again.browser();
          await browser.login(user.email, user.password);
          const page = await browser.get(`/auth/oauth2/authorize?${authorizeQuery(unreviewed, pkcePair().challenge)}`);
          expect(page.status).toBe(400);
          expect(page.body).toContain('This application cannot be used right now');
          expect(page.body).toMatch(/this application is pending and cannot be authorized until a platform admin approves it/);

          const adminBrowser = again.browser();
          await adminBrowser.login(admin.email, admin.password);
          const queue = await adminBrowser.get('/admin/oauth-clients');
          const waiting = /<section aria-labelledby="pending-title"[\s\S]*?<\/section>/.exec(queue.body)![0];
          expect(waiting).toContain('Unreviewed Agent');
          expect(waiting).not.toContain('>Reviewed Agent<');
          expect(waiting).not.toContain('Trusted Agent');

          const refreshed = await again.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh, client_id: unreviewed });
          expect(refreshed.status).toBe(400);
          expect(refreshed.body).toEqual({ error: 'unauthorized_client', error_description: expect.stringMatching(/is pending: only approved clients may request tokens/) });
          const api = await again.api('GET', '/v2/me', tokens.access);
          expect(api.status).toBe(401);
          expect(api.headers.get('www-authenticate')).toContain('error="invalid_token"');
          expect((await callMcp(again, tokens.mcpAccess)).status).toBe(401);

          // The audit trail says why it waits again.
          const events = await auditEvents(again, { clientId: unreviewed, type: 'client.review_reopened' });
          expect(events.map((e) => e.data)).toEqual([{ reason: 'approved only because CIMD_POLICY was open; CIMD_POLICY is now review' }]);

          for (const standing of [reviewed, trusted]) {
            expect(await stateOf(again, standing)).toBe('approved');
            expect((await browser.get(`/auth/oauth2/authorize?${authorizeQuery(standing, pkcePair().challenge)}`)).status, standing).toBe(200);
          }
        } finally {
          await again.close();
        }
      });
    });
  });
}
