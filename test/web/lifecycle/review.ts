// Admin review (docs/rules.md#client-states, docs/rules.md#audit-events): the queue shows what a client asks
// for in plain words and its redirect hosts; approve, reject with a reason the developer
// reads, suspend (its tokens stop at once) and re-approve; each decision is audited with
// the admin's identity.
import { beforeAll, describe, expect, it } from 'vitest';
import { requireClient } from '../../../src/services/clients/view.ts';
import type { Backend } from '../../helpers/backends.ts';
import type { Browser } from '../../helpers/browser.ts';
import { ADMIN_CLIENTS as ADMIN, csrfOf, DEVELOPER_CLIENTS as DEV, developerAndAdmin, fieldError, formWith, loggedIn, open, postForm, textOf, visibleText } from '../../helpers/pages.ts';
import type { TestClient, TestServer, TestUser } from '../../helpers/server.ts';


export function adminReview({ available }: Backend, shared: () => TestServer): void {
  describe('admin review', () => {
    let server: TestServer;
    let dev: TestUser;
    let devBrowser: Browser;
    let admin: TestUser;
    let adminBrowser: Browser;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      ({ dev, devBrowser, admin, adminBrowser } = await developerAndAdmin(server));
    });

    async function decide(client: TestClient, decision: string, reason = '') {
      const page = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      // The decision's own form, with the version the page shows (docs/rules.md#review-versions).
      return postForm(adminBrowser, `${ADMIN}/${client.clientId}/review`, { ...formWith(page.body, 'decision', decision), reason });
    }

    it.skipIf(!available)('the review page shows the owner, the scopes in plain words grouped by family, and the redirect hosts', async () => {
      const client = await server.client(dev, {
        state: 'pending',
        name: 'Team Planner',
        redirectUris: ['https://planner.example.com/cb', 'http://localhost:3001/cb'],
        scopes: ['PROFILE_READ', 'TEAM_BOOKING_READ', 'ORG_MEMBERSHIP_READ'],
      });
      const queue = await open(adminBrowser, ADMIN);
      expect(textOf(queue.body, 'pending')).toMatch(new RegExp(`Team Planner ${dev.email} Pending review planner\\.example\\.com, localhost:3001`));
      const page = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      const text = visibleText(page.body);
      expect(text).toContain(`Owner Dana Developer (${dev.email})`);
      expect(text).toMatch(/Redirect hosts planner\.example\.com — https:\/\/planner\.example\.com\/cb localhost:3001 — http:\/\/localhost:3001\/cb/);
      expect(textOf(page.body, 'asked-scopes')).toBe(
        'Your account Read the authorized user\'s profile. PROFILE_READ Your teams Read team bookings. TEAM_BOOKING_READ Your organization Read organization memberships and users. ORG_MEMBERSHIP_READ',
      );
      expect(text).toMatch(/Approve client.*Reason \(required, shown to the developer\).*Reject client/);
    });

    it.skipIf(!available)('approving lets users authorize; the decision is in the audit log with the admin\'s identity', async () => {
      const client = await server.client(dev, { state: 'pending' });
      const res = await decide(client, 'approve');
      expect(res.status).toBe(303);
      expect(textOf((await adminBrowser.follow(res)).body, 'flash')).toBe('Approved. Users can now authorize the client.');
      const devPage = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(visibleText(devPage.body)).toContain('Approved');
      expect(textOf(devPage.body, 'state-note')).toBeNull();
      // docs/rules.md#private-records: the developer sees "a platform administrator", never the admin's e-mail.
      expect(visibleText(devPage.body)).toMatch(/Approved by an admin client\.approved a platform administrator/);
      expect(devPage.body).not.toContain(admin.email);
      const [event] = (await server.services.stores.auditLog.list({ clientId: client.clientId })).filter((e) => e.type === 'client.approved');
      expect(event).toMatchObject({ actorId: admin.id });
      expect((await requireClient(server.services, client.clientId)).reviewedBy).toBe(admin.id);
      const { user } = await loggedIn(server);
      expect(await server.code(client, user)).toMatch(/^gac_/);
    });

    it.skipIf(!available)('rejecting needs a reason, shown beside the field when missing, and then to the developer', async () => {
      const client = await server.client(dev, { state: 'pending' });
      const missing = await decide(client, 'reject', ' ');
      expect(missing.status).toBe(400);
      expect(fieldError(missing.body, 'reason-reject')).toBe('A rejection needs a reason for the developer.');
      expect((await requireClient(server.services, client.clientId)).state).toBe('pending');

      expect((await decide(client, 'reject', 'The homepage does not describe the app.')).status).toBe(303);
      const devPage = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(visibleText(devPage.body)).toContain('Rejected');
      expect(textOf(devPage.body, 'review-note')).toBe('The homepage does not describe the app.');
      const [event] = (await server.services.stores.auditLog.list({ clientId: client.clientId })).filter((e) => e.type === 'client.rejected');
      expect(event).toMatchObject({ actorId: admin.id, data: { reason: 'The homepage does not describe the app.' } });
    });

    it.skipIf(!available)('suspending stops the client\'s tokens at once; re-approving brings back those not expired (docs/rules.md#client-states)', async () => {
      const client = await server.client(dev);
      const { user } = await loggedIn(server);
      const tokens = await server.exchange(client, await server.code(client, user));
      const access = tokens.body.access_token as string;
      expect((await server.api('GET', '/v2/me', access)).status).toBe(200);

      const suspended = await decide(client, 'suspend', 'Reported for spam');
      expect(suspended.status).toBe(303);
      expect(textOf((await adminBrowser.follow(suspended)).body, 'flash')).toBe('Suspended. Every token of the client stopped working.');
      expect((await server.api('GET', '/v2/me', access)).status).toBe(401);
      const refresh = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! });
      expect(refresh.status).toBe(400);
      expect(refresh.body.error).toBe('unauthorized_client');
      const devPage = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(textOf(devPage.body, 'state-note')).toMatch(/Suspended by a platform admin: Reported for spam\. Its tokens do not work until an admin approves it again\./);
      const adminPage = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      expect(visibleText(adminPage.body)).toContain('Re-approve client');

      expect((await decide(client, 'approve')).status).toBe(303);
      expect((await server.api('GET', '/v2/me', access)).status).toBe(200);
      const types = (await server.services.stores.auditLog.list({ clientId: client.clientId })).filter((e) => e.actorId === admin.id).map((e) => e.type);
      expect(types).toEqual(['client.approved', 'client.suspended']);
    });

    it.skipIf(!available)('a decision that does not fit the state is refused with a message, not a 500', async () => {
      const client = await server.client(dev);
      const page = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      const res = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/review`, { _csrf: csrfOf(page.body), version: textOf(page.body, 'client-version')!, decision: 'reject', reason: 'too late' });
      expect(res.status).toBe(409);
      expect(textOf(res.body, 'decision-error')).toBe('Cannot reject a client that is approved (allowed from: pending).');
      const unknown = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/review`, { _csrf: csrfOf(page.body), decision: 'delete' });
      expect(unknown.status).toBe(400);
      expect(textOf(unknown.body, 'decision-error')).toBe('Choose one of the decisions on this page.');
      expect((await adminBrowser.get(`${ADMIN}/no-such-client`)).status).toBe(404);
    });

    it.skipIf(!available)('a refused decision always says why: the state before a missing reason, and a reason error even where the form has no reason field', async () => {
      const client = await server.client(dev);
      const post = async (fields: Record<string, string>) => {
        const page = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
        return postForm(adminBrowser, `${ADMIN}/${client.clientId}/review`, { _csrf: csrfOf(page.body), version: textOf(page.body, 'client-version')!, ...fields });
      };
      const rejectApproved = await post({ decision: 'reject', reason: '' });
      expect(rejectApproved.status).toBe(409);
      expect(textOf(rejectApproved.body, 'decision-error')).toBe('Cannot reject a client that is approved (allowed from: pending).');
      const declineNothing = await post({ decision: 'reject-changes', reason: '' });
      expect(declineNothing.status).toBe(409);
      expect(textOf(declineNothing.body, 'decision-error')).toBe('This client has no changes awaiting review.');

      expect((await decide(client, 'suspend')).status).toBe(303);
      // Re-approving has no reason field; a reason sent anyway that is too long is still named.
      const longReason = await post({ decision: 'approve', reason: 'x'.repeat(1001) });
      expect(longReason.status).toBe(400);
      expect(textOf(longReason.body, 'decision-error')).toBe('Reason must be at most 1000 characters.');
      expect((await requireClient(server.services, client.clientId)).state).toBe('suspended');
    });

    it.skipIf(!available)('a stale decision form says it has expired and decides nothing (docs/rules.md#sessions-and-csrf)', async () => {
      const client = await server.client(dev, { state: 'pending' });
      const res = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/review`, { _csrf: 'expired-token', decision: 'approve' });
      expect(res.status).toBe(403);
      expect(visibleText(res.body)).toContain('This form has expired');
      expect((await requireClient(server.services, client.clientId)).state).toBe('pending');
    });
  });
}
