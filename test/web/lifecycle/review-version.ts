// Review decisions bind to what was reviewed (docs/rules.md#client-states,
// docs/rules.md#client-changes, docs/rules.md#review-versions). The attack: a developer widens a client after the admin opened its review page,
// and the admin's Approve — pressed on the page that still shows the old configuration —
// must not approve the new one. Everything here goes through real HTTP as the admin's and
// the developer's browsers send it; the decision forms are submitted with the fields the
// page itself put in them.
import { beforeAll, describe, expect, it } from 'vitest';
import { requireClient } from '../../../src/services/clients/view.ts';
import type { Backend } from '../../helpers/backends.ts';
import type { Browser, PageResponse } from '../../helpers/browser.ts';
import { ADMIN_CLIENTS as ADMIN, csrfOf, DEVELOPER_CLIENTS as DEV, developerAndAdmin, formWith, loggedIn, open, postForm, submit, textOf, visibleText } from '../../helpers/pages.ts';
import type { TestClient, TestServer, TestUser } from '../../helpers/server.ts';

const A = 'https://app.example.com/callback';
const B = 'https://second.example.com/callback';
const EVIL = 'https://evil.example/steal';
const STALE = 'The client changed since you opened it: review it again.';

export function reviewBindsToVersion({ available }: Backend, shared: () => TestServer): void {
  describe('review decisions bind to the version reviewed', () => {
    let server: TestServer;
    let dev: TestUser;
    let devBrowser: Browser;
    let admin: TestUser;
    let adminBrowser: Browser;
    let userBrowser: Browser;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      ({ dev, devBrowser, admin, adminBrowser } = await developerAndAdmin(server));
      userBrowser = (await loggedIn(server)).browser;
    });

    /** The developer saves the edit form as the page fills it, changed by `fields`. */
    function edit(client: TestClient, fields: Record<string, string | string[]>) {
      const unchanged = { name: 'Test App', description: '', homepage_url: 'https://app.example.com', logo_url: '' };
      return submit(devBrowser, `${DEV}/${client.clientId}/edit`, `${DEV}/${client.clientId}/edit`, { ...unchanged, ...fields });
    }

    /** The admin presses a decision button on a review page opened earlier. */
    function press(page: PageResponse, client: TestClient, decision: string, reason?: string) {
      const fields = formWith(page.body, 'decision', decision);
      return postForm(adminBrowser, `${ADMIN}/${client.clientId}/review`, { ...fields, ...(reason !== undefined ? { reason } : {}) });
    }

    const reviewPage = (client: TestClient) => open(adminBrowser, `${ADMIN}/${client.clientId}`);

    async function snapshot(client: TestClient) {
      const row = (await server.services.stores.clients.find(client.clientId))!;
      const events = await server.services.stores.auditLog.list({ clientId: client.clientId });
      return { row, events: events.length };
    }

    function authorize(client: TestClient, redirectUri: string, scope: string) {
      const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: redirectUri, response_type: 'code', scope, state: 's1' });
      return userBrowser.get(`/auth/oauth2/authorize?${query}`);
    }

    it.skipIf(!available)('an Approve pressed on a page opened before the developer widened a pending client is refused, and nothing changes (docs/rules.md#review-versions)', async () => {
      const client = await server.client(dev, { state: 'pending', redirectUris: [A], scopes: ['PROFILE_READ'] });
      const opened = await reviewPage(client);
      expect(visibleText(opened.body)).not.toContain('evil.example');

      // After the admin opened the page, the developer points the client elsewhere and asks for more.
      const widened = await edit(client, { redirect_uris: EVIL, scopes: ['PROFILE_READ', 'BOOKING_WRITE', 'PROFILE_WRITE'] });
      expect(widened.status).toBe(303);
      const before = await snapshot(client);

      const res = await press(opened, client, 'approve');
      expect(res.status).toBe(409);
      expect(textOf(res.body, 'decision-error')).toBe(STALE);
      const after = await snapshot(client);
      expect(after.row).toEqual(before.row);
      expect(after.row.state).toBe('pending');
      expect(after.events).toBe(before.events);
      expect((await server.services.stores.auditLog.list({ clientId: client.clientId })).some((e) => e.type === 'client.approved')).toBe(false);
      // Users still cannot authorize it, at the new address or the old one.
      expect((await authorize(client, EVIL, 'PROFILE_READ')).status).toBe(400);

      // The answer already shows what the client asks for now.
      expect(visibleText(res.body)).toContain(EVIL);
      // A fresh review page shows the new configuration, and its decision applies.
      const fresh = await reviewPage(client);
      expect(visibleText(fresh.body)).toMatch(/evil\.example — https:\/\/evil\.example\/steal/);
      expect(textOf(fresh.body, 'asked-scopes')).toContain('BOOKING_WRITE');
      const rejected = await press(fresh, client, 'reject', 'evil.example is not your application');
      expect(rejected.status).toBe(303);
      expect((await requireClient(server.services, client.clientId)).state).toBe('rejected');
    });

    it.skipIf(!available)('accepting a held change from a page opened before the developer replaced it is refused; the approved configuration stays live (docs/rules.md#client-changes, docs/rules.md#review-versions)', async () => {
      const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'] });
      // A harmless addition, held for review: this is what the admin opens and reads.
      expect((await edit(client, { redirect_uris: `${A}\n${B}`, scopes: ['PROFILE_READ'] })).status).toBe(303);
      const opened = await reviewPage(client);
      expect(textOf(opened.body, 'held-changes')).toContain(B);

      // Then the developer replaces the held change with a wider one.
      expect((await edit(client, { redirect_uris: `${A}\n${EVIL}`, scopes: ['PROFILE_READ', 'BOOKING_WRITE'] })).status).toBe(303);
      const before = await snapshot(client);
      expect(before.row.proposedRedirectUris).toEqual([EVIL]);

      const res = await press(opened, client, 'approve-changes');
      expect(res.status).toBe(409);
      expect(textOf(res.body, 'decision-error')).toBe(STALE);
      const after = await snapshot(client);
      expect(after.row).toEqual(before.row);
      expect(after.events).toBe(before.events);
      const live = await requireClient(server.services, client.clientId);
      expect(live).toMatchObject({ state: 'approved', redirectUris: [A], scopes: ['PROFILE_READ'], proposedRedirectUris: [EVIL], proposedScopes: ['BOOKING_WRITE'] });
      // The held addresses and scopes are still refused where it matters.
      expect((await authorize(client, EVIL, 'PROFILE_READ')).status).toBe(400);
      expect(new URL((await authorize(client, A, 'BOOKING_WRITE')).location!).searchParams.get('error')).toBe('invalid_scope');

      // A fresh page shows the replacement; declining it from there works.
      const fresh = await reviewPage(client);
      expect(textOf(fresh.body, 'held-changes')).toContain(EVIL);
      const declined = await press(fresh, client, 'reject-changes', 'evil.example is not your domain');
      expect(declined.status).toBe(303);
      expect(await requireClient(server.services, client.clientId)).toMatchObject({ state: 'approved', redirectUris: [A], scopes: ['PROFILE_READ'], proposedRedirectUris: [] });
    });

    it.skipIf(!available)('reject, suspend and declining a held change bind to the version shown too, and change nothing when it is old (docs/rules.md#review-versions)', async () => {
      const pending = await server.client(dev, { state: 'pending', redirectUris: [A] });
      const pendingPage = await reviewPage(pending);
      await edit(pending, { name: 'Renamed', redirect_uris: A, scopes: ['PROFILE_READ'] });
      const pendingBefore = await snapshot(pending);
      const reject = await press(pendingPage, pending, 'reject', 'no');
      expect(reject.status).toBe(409);
      expect(textOf(reject.body, 'decision-error')).toBe(STALE);
      expect(await snapshot(pending)).toEqual(pendingBefore);

      const approved = await server.client(dev, { redirectUris: [A, B], scopes: ['PROFILE_READ', 'BOOKING_READ'] });
      const approvedPage = await reviewPage(approved);
      // A removal applies at once (docs/rules.md#client-changes): it is a change of the configuration.
      await edit(approved, { redirect_uris: A, scopes: ['PROFILE_READ', 'BOOKING_READ'] });
      const approvedBefore = await snapshot(approved);
      const suspend = await press(approvedPage, approved, 'suspend', 'spam');
      expect(suspend.status).toBe(409);
      expect(textOf(suspend.body, 'decision-error')).toBe(STALE);
      expect(await snapshot(approved)).toEqual(approvedBefore);
      expect(approvedBefore.row.state).toBe('approved');

      await edit(approved, { redirect_uris: `${A}\n${B}`, scopes: ['PROFILE_READ', 'BOOKING_READ'] });
      const heldPage = await reviewPage(approved);
      await edit(approved, { redirect_uris: `${A}\n${EVIL}`, scopes: ['PROFILE_READ', 'BOOKING_READ'] });
      const heldBefore = await snapshot(approved);
      const decline = await press(heldPage, approved, 'reject-changes', 'not this one');
      expect(decline.status).toBe(409);
      expect(textOf(decline.body, 'decision-error')).toBe(STALE);
      expect(await snapshot(approved)).toEqual(heldBefore);
    });

    it.skipIf(!available)('a decision form without a version is refused with a message, and decides nothing', async () => {
      const client = await server.client(dev, { state: 'pending' });
      const page = await reviewPage(client);
      const before = await snapshot(client);
      const missing = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/review`, { _csrf: csrfOf(page.body), decision: 'approve' });
      expect(missing.status).toBe(400);
      expect(textOf(missing.body, 'decision-error')).toBe('This decision does not say which version of the client it is about: decide on the review page.');
      const garbled = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/review`, { ...formWith(page.body, 'decision', 'approve'), version: '1e3' });
      expect(garbled.status).toBe(400);
      expect(await snapshot(client)).toEqual(before);
    });

    it.skipIf(!available)('every change of the configuration or of the held change raises the version shown on the review page; a save that changes nothing does not (docs/rules.md#review-versions)', async () => {
      const client = await server.client(dev, { state: 'pending', redirectUris: [A], scopes: ['PROFILE_READ'] });
      const shown = async () => Number(textOf((await reviewPage(client)).body, 'client-version'));
      const steps: Array<[string, () => Promise<unknown>]> = [
        ['developer edit of a pending client', () => edit(client, { name: 'Renamed', redirect_uris: A, scopes: ['PROFILE_READ'] })],
        ['approval', async () => press(await reviewPage(client), client, 'approve')],
        ['held change created', () => edit(client, { name: 'Renamed', redirect_uris: `${A}\n${B}`, scopes: ['PROFILE_READ'] })],
        ['held change replaced', () => edit(client, { name: 'Renamed', redirect_uris: `${A}\n${EVIL}`, scopes: ['PROFILE_READ'] })],
        ['held change refused', async () => press(await reviewPage(client), client, 'reject-changes', 'no')],
        ['held change created again', () => edit(client, { name: 'Renamed', redirect_uris: `${A}\n${B}`, scopes: ['PROFILE_READ'] })],
        ['held change accepted', async () => press(await reviewPage(client), client, 'approve-changes')],
        ['suspension', async () => press(await reviewPage(client), client, 'suspend', '')],
        ['re-approval', async () => press(await reviewPage(client), client, 'approve')],
      ];
      let version = await shown();
      for (const [step, run] of steps) {
        const res = (await run()) as PageResponse;
        expect(res.status, `${step}: ${visibleText(res.body).slice(0, 200)}`).toBe(303);
        const next = await shown();
        expect(next, step).toBeGreaterThan(version);
        version = next;
      }
      expect((await edit(client, { name: 'Renamed', redirect_uris: `${A}\n${B}`, scopes: ['PROFILE_READ'] })).status).toBe(303);
      expect(await shown()).toBe(version);
      expect((await requireClient(server.services, client.clientId)).version).toBe(version);
    });

    it.skipIf(!available)('saving scopes on a legacy client (its migration) raises the version (docs/rules.md#legacy-clients, docs/rules.md#review-versions)', async () => {
      const client = await server.client(dev, { scopes: null });
      const before = (await requireClient(server.services, client.clientId)).version;
      const migrated = await submit(devBrowser, `${DEV}/${client.clientId}/migrate`, `${DEV}/${client.clientId}/migrate`, { scopes: ['PROFILE_READ'] });
      expect(migrated.status).toBe(303);
      const after = await requireClient(server.services, client.clientId);
      expect(after.legacy).toBe(false);
      expect(after.version).toBeGreaterThan(before);
    });

    it.skipIf(!available)('an Approve racing a developer\'s edit never approves a configuration the admin did not see (docs/rules.md#review-versions)', async () => {
      for (let i = 0; i < 6; i++) {
        const client = await server.client(dev, { state: 'pending', redirectUris: [A], scopes: ['PROFILE_READ'] });
        const page = await reviewPage(client);
        const editForm = await open(devBrowser, `${DEV}/${client.clientId}/edit`);
        const devFields = { _csrf: csrfOf(editForm.body), name: 'Test App', description: '', homepage_url: 'https://app.example.com', logo_url: '', redirect_uris: `${A}\n${EVIL}`, scopes: ['PROFILE_READ', 'BOOKING_WRITE'] };
        const [decision, edited] = await Promise.all([press(page, client, 'approve'), postForm(devBrowser, `${DEV}/${client.clientId}/edit`, devFields)]);
        expect(edited.status).toBe(303);
        const after = await requireClient(server.services, client.clientId);
        if (decision.status === 303) {
          // The approval came first: what is live is what the admin saw; the edit is held for review.
          expect(after).toMatchObject({ state: 'approved', redirectUris: [A], scopes: ['PROFILE_READ'], proposedRedirectUris: [EVIL], proposedScopes: ['BOOKING_WRITE'] });
        } else {
          expect(decision.status).toBe(409);
          expect(textOf(decision.body, 'decision-error')).toBe(STALE);
          expect(after).toMatchObject({ state: 'pending', redirectUris: [A, EVIL], scopes: ['BOOKING_WRITE', 'PROFILE_READ'] });
        }
        const approvals = (await server.services.stores.auditLog.list({ clientId: client.clientId })).filter((e) => e.type === 'client.approved' && e.actorId === admin.id);
        expect(approvals).toHaveLength(decision.status === 303 ? 1 : 0);
      }
    });
  });
}
