// Editing a client (docs/rules.md#client-states, docs/rules.md#client-changes): on an approved client, name and
// removals apply at once; added redirect URIs and scopes are held for an admin while the
// approved configuration stays live — checked at the authorization endpoint itself.
import { clientKey } from '../../helpers/client-keys.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireClient } from '../../../src/services/clients/view.ts';
import type { Backend } from '../../helpers/backends.ts';
import type { Browser } from '../../helpers/browser.ts';
import { ADMIN_CLIENTS as ADMIN, DEVELOPER_CLIENTS as DEV, developerAndAdmin, fieldError, formWith, loggedIn, open, postForm, submit, textOf, visibleText } from '../../helpers/pages.ts';
import type { TestClient, TestServer, TestUser } from '../../helpers/server.ts';

const A = 'https://app.example.com/callback';
const B = 'https://new-host.example.org/return';

export function editingAClient({ available }: Backend, shared: () => TestServer): void {
  describe('editing a client', () => {
    let server: TestServer;
    let dev: TestUser;
    let devBrowser: Browser;
    let adminBrowser: Browser;
    let userBrowser: Browser;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      ({ dev, devBrowser, adminBrowser } = await developerAndAdmin(server));
      userBrowser = (await loggedIn(server)).browser;
    });

    function authorize(client: TestClient, redirectUri: string, scope: string) {
      const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: redirectUri, response_type: 'code', scope, state: 's1' });
      return userBrowser.get(`/auth/oauth2/authorize?${query}`);
    }

    /** Submits the edit form as the page fills it (the harness client's values), changed by `fields`. */
    function edit(client: TestClient, fields: Record<string, string | string[]>) {
      const unchanged = { name: 'Test App', description: '', homepage_url: 'https://app.example.com', logo_url: '' };
      return submit(devBrowser, `${DEV}/${client.clientId}/edit`, `${DEV}/${client.clientId}/edit`, { ...unchanged, ...fields });
    }

    async function decide(client: TestClient, decision: string, reason = '') {
      const page = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      // The decision's own form, with the version the page shows (docs/rules.md#review-versions).
      return postForm(adminBrowser, `${ADMIN}/${client.clientId}/review`, { ...formWith(page.body, 'decision', decision), reason });
    }

    it.skipIf(!available)('Require PAR on the edit form applies at once, shows on the client page, and an unchecked box clears it (docs/rules.md#pushed-authorization)', async () => {
      const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'] });
      const saved = await edit(client, { redirect_uris: A, scopes: ['PROFILE_READ'], require_par: 'on' });
      expect(saved.status).toBe(303);
      const page = await devBrowser.follow(saved);
      expect(textOf(page.body, 'par')).toMatch(/\/v2\/auth\/oauth2\/par \(RFC 9126; required of this client\)$/);
      expect((await requireClient(server.services, client.clientId)).requirePushedAuthorizationRequests).toBe(true);
      const refused = await authorize(client, A, 'PROFILE_READ');
      expect(new URL(refused.location!).searchParams.get('error_description')).toContain('this client must use pushed authorization requests');
      expect((await edit(client, { redirect_uris: A, scopes: ['PROFILE_READ'] })).status).toBe(303);
      expect((await requireClient(server.services, client.clientId)).requirePushedAuthorizationRequests).toBe(false);
    });

    it.skipIf(!available)('an added redirect URI and scope are held: refused at /auth/oauth2/authorize until an admin approves; the name applies at once (docs/rules.md#client-changes)', async () => {
      const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'], name: 'Old Name' });
      const form = await open(devBrowser, `${DEV}/${client.clientId}/edit`);
      expect(textOf(form.body, 'edit-rules')).toMatch(/Added redirect URIs and scopes wait for a platform admin’s review; until then the approved configuration stays live/);

      const saved = await edit(client, { name: 'New Name', redirect_uris: `${A}\n${B}`, scopes: ['PROFILE_READ', 'BOOKING_READ'] });
      expect(saved.status).toBe(303);
      const page = await devBrowser.follow(saved);
      expect(textOf(page.body, 'flash')).toMatch(/await a platform admin’s review; the approved configuration stays live/);
      expect(textOf(page.body, 'client-title')).toBe('New Name');
      expect(textOf(page.body, 'held-changes')).toMatch(new RegExp(`Awaiting review Changes awaiting review .* ${B.replace(/\./g, '\\.')} Scopes Your account List bookings`));
      expect(textOf(page.body, 'redirect-uris')).toBe(A);
      // The edit form shows the held items as awaiting review.
      expect(visibleText((await open(devBrowser, `${DEV}/${client.clientId}/edit`)).body)).toMatch(/BOOKING_READ List bookings; .*Awaiting review/);

      // The approved configuration is what the authorization endpoint uses.
      const heldUri = await authorize(client, B, 'PROFILE_READ');
      expect(heldUri.status).toBe(400);
      expect(visibleText(heldUri.body)).toContain(`redirect_uri "${B}" is not registered for this application`);
      const heldScope = await authorize(client, A, 'BOOKING_READ');
      expect(heldScope.status).toBe(303);
      expect(new URL(heldScope.location!).searchParams.get('error')).toBe('invalid_scope');
      const consent = await authorize(client, A, 'PROFILE_READ');
      expect(consent.status).toBe(200);
      expect(textOf(consent.body, 'client-name')).toBe('New Name');

      // The admin sees the held change in the queue and on the review page, in plain words.
      expect(textOf((await open(adminBrowser, ADMIN)).body, 'held')).toContain('New Name');
      const review = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      expect(textOf(review.body, 'held-changes')).toMatch(/New redirect hosts new-host\.example\.org — https:\/\/new-host\.example\.org\/return .*New scopes Your account List bookings; read recordings/);

      const approved = await decide(client, 'approve-changes');
      expect(approved.status).toBe(303);
      expect(textOf((await adminBrowser.follow(approved)).body, 'flash')).toMatch(/Changes approved/);
      expect((await authorize(client, B, 'PROFILE_READ BOOKING_READ')).status).toBe(200);
      const after = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(textOf(after.body, 'held-changes')).toBeNull();
      expect(textOf(after.body, 'redirect-uris')).toBe(`${A} ${B}`);

      const events = await server.services.stores.auditLog.list({ clientId: client.clientId });
      const admin = events.find((e) => e.type === 'client.approved' && e.data?.changes !== undefined)!;
      expect(admin.data).toEqual({ changes: { redirectUris: [B], scopes: ['BOOKING_READ'] } });
      expect(events.find((e) => e.type === 'client.updated')).toMatchObject({ actorId: dev.id, data: { fields: ['name'], awaitingReview: { redirectUris: [B], scopes: ['BOOKING_READ'] } } });
      // The developer sees that an admin approved it, never which admin (docs/rules.md#private-records).
      expect(visibleText(after.body)).toMatch(/Approved by an admin client\.approved a platform administrator changes: https:\/\/new-host\.example\.org\/return, BOOKING_READ/);
    });

    it.skipIf(!available)('removing a redirect URI or a scope takes effect at once (docs/rules.md#client-changes)', async () => {
      const client = await server.client(dev, { redirectUris: [A, B], scopes: ['PROFILE_READ', 'BOOKING_READ'] });
      expect((await authorize(client, A, 'BOOKING_READ')).status).toBe(200);
      const saved = await edit(client, { name: 'Test App', redirect_uris: B, scopes: ['PROFILE_READ'] });
      expect(saved.location).toBe(`${DEV}/${client.clientId}?done=saved`);
      expect(textOf((await devBrowser.follow(saved)).body, 'flash')).toBe('Your changes are saved.');
      const removedUri = await authorize({ ...client, redirectUri: A }, A, 'PROFILE_READ');
      expect(removedUri.status).toBe(400);
      const removedScope = await authorize(client, B, 'BOOKING_READ');
      expect(new URL(removedScope.location!).searchParams.get('error')).toBe('invalid_scope');
      const events = await server.services.stores.auditLog.list({ clientId: client.clientId });
      expect(events.find((e) => e.type === 'client.scopes_changed')?.data).toEqual({ from: 'BOOKING_READ PROFILE_READ', to: 'PROFILE_READ' });
    });

    it.skipIf(!available)('RFC 9449 §5.2: ticking Require DPoP applies at once, is shown on the client page, and unticking it undoes it (docs/rules.md#dpop)', async () => {
      const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'] });
      const saved = await edit(client, { redirect_uris: A, scopes: ['PROFILE_READ'], dpop_bound_access_tokens: '1' });
      expect(saved.location).toBe(`${DEV}/${client.clientId}?done=saved`);
      expect((await requireClient(server.services, client.clientId)).dpopBoundAccessTokens).toBe(true);
      const page = await devBrowser.follow(saved);
      expect(textOf(page.body, 'dpop')).toContain('Required');
      expect((await open(devBrowser, `${DEV}/${client.clientId}/edit`)).body).toMatch(/id="dpop_bound_access_tokens" name="dpop_bound_access_tokens" value="1" checked/);
      await edit(client, { redirect_uris: A, scopes: ['PROFILE_READ'] });
      expect((await requireClient(server.services, client.clientId)).dpopBoundAccessTokens).toBe(false);
    });

    it.skipIf(!available)('FAPI 2.0: ticking Follow FAPI 2.0 without private_key_jwt is refused beside the field; with keys and the method it applies at once and is shown on the client page; a public client ticking it is told beside the field, and nothing changes (docs/rules.md#fapi2)', async () => {
      const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'] });
      const withoutKeys = await edit(client, { redirect_uris: A, scopes: ['PROFILE_READ'], fapi2: 'on' });
      expect(withoutKeys.status).toBe(400);
      expect(fieldError(withoutKeys.body, 'fapi2')).toMatch(/requires private_key_jwt client authentication: give jwks/);
      expect((await requireClient(server.services, client.clientId)).fapi2).toBe(false);
      const key = await clientKey();
      const saved = await edit(client, { redirect_uris: A, scopes: ['PROFILE_READ'], fapi2: 'on', token_endpoint_auth_method: 'private_key_jwt', jwks: JSON.stringify(key.jwks) });
      expect(saved.location).toBe(`${DEV}/${client.clientId}?done=saved`);
      expect((await requireClient(server.services, client.clientId)).fapi2).toBe(true);
      expect(textOf((await devBrowser.follow(saved)).body, 'fapi2')).toContain('Follows the Security Profile');
      expect((await open(devBrowser, `${DEV}/${client.clientId}/edit`)).body).toMatch(/id="fapi2-on" name="fapi2" value="on" checked/);
      expect(await requireClient(server.services, client.clientId)).toMatchObject({ tokenEndpointAuthMethod: 'private_key_jwt', jwks: key.jwks });

      const publicClient = await server.client(dev, { kind: 'public', redirectUris: ['http://127.0.0.1:8765/callback'], scopes: ['PROFILE_READ'] });
      const refused = await edit(publicClient, { redirect_uris: 'http://127.0.0.1:8765/callback', scopes: ['PROFILE_READ'], fapi2: 'on' });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('for confidential clients');
      expect((await requireClient(server.services, publicClient.clientId)).fapi2).toBe(false);
    });

    it.skipIf(!available)('client authentication: a pasted private key or text that is not JSON is refused beside the keys field; private_key_jwt without keys is refused; keys and the method are shown on the client page (docs/rules.md#client-authentication)', async () => {
      const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'] });
      const key = await clientKey();
      const pasted = await edit(client, { redirect_uris: A, scopes: ['PROFILE_READ'], jwks: JSON.stringify({ keys: [{ ...key.publicJwk, d: 'c2VjcmV0' }] }) });
      expect(pasted.status).toBe(400);
      expect(fieldError(pasted.body, 'jwks')).toMatch(/holds the private member "d": register the public key only/);
      // A private key is a secret: the page does not show it back.
      expect(pasted.body).not.toContain('c2VjcmV0');
      const notJson = await edit(client, { redirect_uris: A, scopes: ['PROFILE_READ'], jwks: '{keys' });
      expect(fieldError(notJson.body, 'jwks')).toMatch(/^The public keys must be JSON: a JWK Set/);
      const noKeys = await edit(client, { redirect_uris: A, scopes: ['PROFILE_READ'], token_endpoint_auth_method: 'private_key_jwt' });
      expect(noKeys.status).toBe(400);
      expect(fieldError(noKeys.body, 'jwks')).toMatch(/^The method private_key_jwt needs the client's public keys/);
      expect((await requireClient(server.services, client.clientId)).tokenEndpointAuthMethod).toBeNull();
      const saved = await edit(client, { redirect_uris: A, scopes: ['PROFILE_READ'], token_endpoint_auth_method: 'private_key_jwt', jwks: JSON.stringify(key.jwks) });
      expect(saved.location).toBe(`${DEV}/${client.clientId}?done=saved`);
      expect(textOf((await devBrowser.follow(saved)).body, 'token-endpoint-auth-method')).toBe('private_key_jwt (1 public key registered)');
    });

    it.skipIf(!available)('replacing every approved redirect URI at once is refused beside the field, and nothing changes', async () => {
      const client = await server.client(dev, { redirectUris: [A] });
      const res = await edit(client, { name: 'Test App', redirect_uris: B, scopes: ['PROFILE_READ'] });
      expect(res.status).toBe(400);
      expect(fieldError(res.body, 'redirect_uris')).toMatch(/Keep at least one approved redirect URI until an admin approves the new ones/);
      const after = await requireClient(server.services, client.clientId);
      expect(after.redirectUris).toEqual([A]);
      expect(after.proposedRedirectUris).toEqual([]);
    });

    it.skipIf(!available)('an admin declines held changes only with a reason, which the developer then reads (docs/rules.md#client-states)', async () => {
      const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'] });
      await edit(client, { name: 'Test App', redirect_uris: `${A}\n${B}`, scopes: ['PROFILE_READ'] });
      const noReason = await decide(client, 'reject-changes', '  ');
      expect(noReason.status).toBe(400);
      expect(fieldError(noReason.body, 'reason-reject-changes')).toMatch(/Declining changes needs a reason for the developer/);
      expect((await requireClient(server.services, client.clientId)).proposedRedirectUris).toEqual([B]);

      expect((await decide(client, 'reject-changes', 'new-host.example.org is not your domain')).status).toBe(303);
      const page = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(textOf(page.body, 'review-note')).toBe('new-host.example.org is not your domain');
      expect(textOf(page.body, 'held-changes')).toBeNull();
      expect((await authorize(client, B, 'PROFILE_READ')).status).toBe(400);
    });

    it.skipIf(!available)('a rejected client goes back to pending when the developer saves it (docs/rules.md#client-states)', async () => {
      const client = await server.client(dev, { state: 'rejected' });
      const page = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(textOf(page.body, 'state-note')).toMatch(/Rejected by a platform admin: rejected by a test\. Fix what the reviewer asks and save the client/);
      const form = await open(devBrowser, `${DEV}/${client.clientId}/edit`);
      expect(textOf(form.body, 'edit-rules')).toBe('Saving resubmits the client for review.');
      const saved = await edit(client, { name: 'Test App', description: 'Now with a description', redirect_uris: client.redirectUri, scopes: ['PROFILE_READ'] });
      expect(saved.location).toBe(`${DEV}/${client.clientId}?done=resubmitted`);
      const after = await devBrowser.follow(saved);
      expect(visibleText(after.body)).toContain('Pending review');
      expect(textOf(after.body, 'flash')).toBe('Saved and resubmitted for review.');
      expect(textOf((await open(adminBrowser, ADMIN)).body, 'pending')).toContain(client.clientId === '' ? '' : 'Test App');
      expect((await requireClient(server.services, client.clientId)).state).toBe('pending');
    });

    it.skipIf(!available)('on a pending client, additions apply directly: there is no approved configuration to protect yet', async () => {
      const client = await server.client(dev, { state: 'pending', redirectUris: [A] });
      const saved = await edit(client, { name: 'Test App', redirect_uris: `${A}\n${B}`, scopes: ['PROFILE_READ', 'ORG_PROFILE_READ'] });
      expect(saved.location).toBe(`${DEV}/${client.clientId}?done=saved`);
      const after = await requireClient(server.services, client.clientId);
      expect(after.redirectUris).toEqual([A, B]);
      expect(after.scopes).toEqual(['PROFILE_READ', 'ORG_PROFILE_READ']);
      expect(after.proposedRedirectUris).toEqual([]);
    });

    it.skipIf(!available)('edit validation shows each message next to its field', async () => {
      const client = await server.client(dev);
      const res = await edit(client, { name: '', logo_url: 'ftp://x.example/logo.png', redirect_uris: 'https://a.example/cb#frag', scopes: [] });
      expect(res.status).toBe(400);
      expect(fieldError(res.body, 'name')).toBe('Name is required.');
      expect(fieldError(res.body, 'logo_url')).toBe('Logo URL must use https.');
      expect(fieldError(res.body, 'redirect_uris')).toMatch(/must not contain a fragment/);
      expect(fieldError(res.body, 'scopes')).toBe('Choose at least one scope.');
    });
  });
}
