// Application notifications (docs/rules.md#client-events): a developer sets the client's events
// URL in the developer settings and gets a signing secret, shown once and rotatable; then
// Gatehouse tells the application when a user revokes it, when refresh-token reuse revoked a
// grant, and when an admin suspends or approves it — through the outbox, written in the
// transaction of the change. A real receiver on loopback verifies every signature with the
// `standardwebhooks` package; the developer page lists the deliveries. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewClient } from '../../src/services/clients/review.ts';
import { createTeam } from '../../src/services/teams/teams.ts';
import { createDeliveryEngine, type DeliveryEngine } from '../../src/services/webhooks/engine.ts';
import { backends } from '../helpers/backends.ts';
import { runCli } from '../helpers/cli.ts';
import type { Browser } from '../helpers/browser.ts';
import { csrfOf, formAt, loggedIn, open, postForm, textOf, visibleText } from '../helpers/pages.ts';
import { startTestServer, testResolver, type TestClient, type TestServer } from '../helpers/server.ts';
import { grantsOf, refreshTokenOf } from '../helpers/stores.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const DEV = '/settings/developer/oauth-clients';
const APPS = '/settings/authorized-apps';

const secretOnPage = (body: string) => {
  const match = /id="new-events-secret-value" type="text" readonly value="([^"]+)"/.exec(body);
  return match ? match[1]!.replace(/&#x2B;|&#43;/g, '+').replace(/&#x2F;|&#47;/g, '/').replace(/&#x3D;|&#61;/g, '=') : null;
};

describe.each(backends)('application notifications on $name (docs/rules.md#client-events)', ({ name, available }) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let engine: DeliveryEngine;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name, { LOG_LEVEL: 'warn', OUTBOUND_ALLOW_PRIVATE: '1' });
    receiver = await WebhookReceiver.start();
    engine = createDeliveryEngine({ services: server.services, outbound: { allowPrivate: true, resolve: testResolver }, random: () => 0.5 });
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const deliverAll = async () => {
    while ((await engine.deliverDue()) > 0);
  };

  /** A developer's approved client with an events URL set through the page; returns the page's secret. */
  async function clientWithEventsUrl(path: string, scopes?: string[]): Promise<{ client: TestClient; dev: Browser; secret: string }> {
    const { user, browser } = await loggedIn(server, { name: 'Dee Developer' });
    const client = await server.client(user, { name: 'Notified App', ...(scopes === undefined ? {} : { scopes }) });
    const page = await open(browser, `${DEV}/${client.clientId}`);
    expect(textOf(page.body, 'no-deliveries')).toBe('Nothing sent yet.');
    const posted = await postForm(browser, `${DEV}/${client.clientId}/events-url`, { _csrf: csrfOf(page.body), eventsUrl: receiver.url(path) });
    expect(posted.status).toBe(303);
    const saved = await browser.follow(posted);
    const secret = secretOnPage(saved.body);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(visibleText(saved.body)).toContain('Copy it now: it will not be shown again.');
    // Shown once: the page, read again, has the URL but not the secret.
    const again = await open(browser, `${DEV}/${client.clientId}`);
    expect(again.body).not.toContain(secret!);
    expect(again.body).toContain(`value="${receiver.url(path)}"`);
    receiver.expectSecret(path, secret!);
    return { client, dev: browser, secret: secret! };
  }

  it.skipIf(!available)("docs/rules.md#team-authorization: tells the application when a team it acted for is deleted, and which teams a user's revocation ended", async () => {
    const path = '/events/teams';
    const { client } = await clientWithEventsUrl(path, ['TEAM_PROFILE_READ', 'TEAM_PROFILE_WRITE']);
    const { user, browser } = await loggedIn(server);
    const [doomed, kept] = [await createTeam(server.services, { name: 'Doomed Crew', ownerId: user.id }), await createTeam(server.services, { name: 'Kept Crew', ownerId: user.id })];
    const tokenFor = async (slug: string) => (await server.exchange(client, await server.code(client, user, { scope: 'TEAM_PROFILE_READ TEAM_PROFILE_WRITE', team_slug: slug }))).body.access_token as string;
    const doomedToken = await tokenFor(doomed.slug);
    await tokenFor(kept.slug);
    const grants = await grantsOf(server, user.id, client.clientId);
    const [doomedGrantId, keptGrantId] = [doomed, kept].map((t) => grants.find((g) => g.teamId === t.id)!.id);
    expect((await server.api('DELETE', `/v2/teams/${doomed.id}`, doomedToken)).status).toBe(200);
    const confirm = await open(browser, `${APPS}/grants/${keptGrantId}/revoke`);
    expect((await postForm(browser, `${APPS}/grants/${keptGrantId}/revoke`, { _csrf: csrfOf(confirm.body) })).status).toBe(303);

    await deliverAll();
    const events = receiver.at(path).map((r) => r.verified as { type: string; data: Record<string, unknown> });
    expect(events.map((e) => e.data.revokedBy).sort()).toEqual(['team_deleted', 'user']);
    expect(events.find((e) => e.data.revokedBy === 'team_deleted')).toEqual({
      type: 'authorization.revoked',
      timestamp: expect.any(String),
      data: { clientId: client.clientId, teamId: doomed.id, grantIds: [doomedGrantId], revokedBy: 'team_deleted' },
    });
    expect(events.find((e) => e.data.revokedBy === 'user')!.data).toEqual({ clientId: client.clientId, userId: user.id, grantIds: [keptGrantId], teamIds: [kept.id], revokedBy: 'user' });
  });

  it.skipIf(!available)('tells the application of a user revoking it (authorization.revoked) and of suspension and approval, signed; the developer page lists the deliveries', async () => {
    const path = '/events/revoked';
    const { client, dev } = await clientWithEventsUrl(path);
    const { user, browser } = await loggedIn(server);
    const first = await server.exchange(client, await server.code(client, user));
    expect(first.status).toBe(200);
    // Revoke access asks for confirmation on its own page; its form revokes.
    const [grant] = await grantsOf(server, user.id, client.clientId);
    const confirm = await open(browser, `${APPS}/grants/${grant!.id}/revoke`);
    expect((await postForm(browser, `${APPS}/grants/${grant!.id}/revoke`, { _csrf: csrfOf(confirm.body) })).status).toBe(303);
    await reviewClient(server.services, client.clientId, 'suspend', null, 'terms broken');
    await reviewClient(server.services, client.clientId, 'approve', null);
    expect(receiver.at(path)).toHaveLength(0);

    await deliverAll();
    const got = receiver.at(path);
    expect(got.map((r) => r.verifyError)).toEqual([null, null, null]);
    // Found by type: events written in the same millisecond may be delivered in either order
    // (each carries its own timestamp).
    const events = got.map((r) => r.verified as { type: string; data: Record<string, unknown> });
    const [revoked, suspended, approved] = ['authorization.revoked', 'client.suspended', 'client.approved'].map((type) => events.find((e) => e.type === type));
    expect(revoked!.type).toBe('authorization.revoked');
    expect(revoked!.data).toMatchObject({ clientId: client.clientId, userId: user.id, revokedBy: 'user' });
    const grantIds = (await grantsOf(server, user.id, client.clientId)).map((g) => g.id);
    expect(revoked!.data.grantIds).toEqual(grantIds);
    expect(suspended).toMatchObject({ type: 'client.suspended', data: { clientId: client.clientId, state: 'suspended', reason: 'terms broken' } });
    expect(approved).toMatchObject({ type: 'client.approved', data: { clientId: client.clientId, state: 'approved', reason: null } });

    const page = await open(dev, `${DEV}/${client.clientId}`);
    const table = textOf(page.body, 'deliveries');
    expect(table).toMatch(/authorization\.revoked delivered 200 1/);
    expect(table).toMatch(/client\.suspended delivered 200 1/);
    expect(table).toContain('{"received":true}');
  });

  it.skipIf(!available)('tells the application when refresh-token reuse revoked a grant (grant.revoked_reuse)', async () => {
    const path = '/events/reuse';
    const { client } = await clientWithEventsUrl(path);
    const { user } = await loggedIn(server);
    const pair = await server.exchange(client, await server.code(client, user));
    const refresh = { grant_type: 'refresh_token', refresh_token: pair.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! };
    expect((await server.token(refresh)).status).toBe(200);
    server.advance(3600);
    const replayed = await server.token(refresh);
    expect(replayed.body.error).toBe('invalid_grant');

    await deliverAll();
    const [got] = receiver.at(path);
    expect(got!.verifyError).toBeNull();
    const grant = (await server.oauth.findGrant((await refreshTokenOf(server, refresh.refresh_token))!.grantId))!;
    expect(grant.revokedAt).not.toBeNull();
    expect(got!.verified).toMatchObject({ type: 'grant.revoked_reuse', data: { clientId: client.clientId, userId: user.id, grantIds: [grant.id] } });
  });

  it.skipIf(!available)('rotates the signing secret: shown once, and deliveries from then on are signed with the new one only', async () => {
    const path = '/events/rotated';
    const { client, dev, secret } = await clientWithEventsUrl(path);
    const page = await open(dev, `${DEV}/${client.clientId}`);
    const posted = await postForm(dev, `${DEV}/${client.clientId}/events-secret`, formAt(page.body, `${DEV}/${client.clientId}/events-secret`));
    expect(posted.status).toBe(303);
    const fresh = secretOnPage((await dev.follow(posted)).body)!;
    expect(fresh).not.toBe(secret);
    // The Activity table records who set the URL and made each secret, never the secret.
    const activity = visibleText((await open(dev, `${DEV}/${client.clientId}`)).body);
    expect(activity).toContain('Events URL changed');
    expect(activity.match(/Events signing secret made/g)).toHaveLength(2);
    expect(activity).not.toContain(fresh);
    await reviewClient(server.services, client.clientId, 'suspend', null);
    await deliverAll();
    // The receiver still knows the old secret: the delivery does not verify with it...
    expect(receiver.at(path).map((r) => r.verifyError)).toEqual([expect.stringMatching(/signature/i)]);
    // ...and does with the new one.
    receiver.expectSecret(path, fresh);
    await reviewClient(server.services, client.clientId, 'approve', null);
    await deliverAll();
    expect(receiver.at(path)[1]!.verifyError).toBeNull();
  });

  it.skipIf(!available)('refuses an events URL that is not an absolute URL, saying why; an empty one stops the notifications', async () => {
    const path = '/events/removed';
    const { client, dev } = await clientWithEventsUrl(path);
    const page = await open(dev, `${DEV}/${client.clientId}`);
    const bad = await postForm(dev, `${DEV}/${client.clientId}/events-url`, { _csrf: csrfOf(page.body), eventsUrl: 'not a url' });
    expect(bad.status).toBe(400);
    expect(textOf(bad.body, 'events-url-error')).toBe('The events URL must be an absolute URL.');
    const removed = await postForm(dev, `${DEV}/${client.clientId}/events-url`, { _csrf: csrfOf(page.body), eventsUrl: '' });
    expect(removed.status).toBe(303);
    expect(textOf((await dev.follow(removed)).body, 'flash')).toBe('The events URL is removed: the application is no longer notified.');
    await reviewClient(server.services, client.clientId, 'suspend', null);
    await deliverAll();
    expect(receiver.at(path)).toHaveLength(0);
  });

  it.skipIf(!available)('sets the events URL and rotates its secret from the CLI too, printing the secret once', async () => {
    const path = '/events/cli';
    const dev = await server.user();
    const client = await server.client(dev);
    const gh = (args: string[]) => runCli(args, { env: { DATABASE_URL: server.database.url, OUTBOUND_ALLOW_PRIVATE: '1', ...server.database.env } });
    const set = await gh(['clients', 'events-url', client.clientId, receiver.url(path), '--json']);
    expect(set.code, set.stderr).toBe(0);
    const first = JSON.parse(set.stdout) as { events_url: string; signing_secret: string };
    expect(first.events_url).toBe(receiver.url(path));
    expect(first.signing_secret).toMatch(/^whsec_/);
    const rotated = await gh(['clients', 'rotate-events-secret', client.clientId, '--json']);
    expect(rotated.code, rotated.stderr).toBe(0);
    const second = JSON.parse(rotated.stdout) as { signing_secret: string };
    expect(second.signing_secret).not.toBe(first.signing_secret);
    receiver.expectSecret(path, second.signing_secret);
    await reviewClient(server.services, client.clientId, 'suspend', null);
    await deliverAll();
    expect(receiver.at(path).map((r) => r.verifyError)).toEqual([null]);
    const refused = await gh(['clients', 'events-url', client.clientId, 'ftp://files.example.com/x']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/events URL must use https or http/);
    // docs/operating.md#cli-reference: what the CLI does is audited as the operator's, not as the system's.
    const audited = JSON.parse((await gh(['audit', '--client', client.clientId, '--json'])).stdout) as Array<{ type: string; actor: string | null }>;
    const byCli = audited.filter((e) => e.actor === 'CLI (operator)').map((e) => e.type);
    expect(byCli, JSON.stringify(audited)).toEqual(['events_secret.created', 'events_secret.created', 'events_url.changed']);
    // Four CLI processes: seconds each on a busy machine.
  }, 90_000);
});
