// Accounts an organization's admin makes and deletes at Cal.com API v2's addresses
// (POST /v2/organizations/{orgId}/users, DELETE …/users/{userId}; docs/rules.md#organization-made-accounts):
// a made account is an accepted member with no password, nothing of a password is answered,
// and it signs in once an operator sets one; a delete removes the account only when the
// organization made it, it belongs nowhere else and it owns no OAuth client and gave no grant;
// any other user only leaves the organization.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetPassword, verifyPassword } from '../../src/services/accounts/users.ts';
import { addMember } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestClient, type TestServer } from '../helpers/server.ts';
import { buildWorld, fixtures, mint, uniq, type World } from './fixtures.ts';

const WRITE = ['ORG_MEMBERSHIP_READ', 'ORG_MEMBERSHIP_WRITE'];

describe.each(backends)('organization-made accounts on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  let admin: string;
  let base: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    w = await buildWorld(server);
    f = fixtures(server);
    admin = await mint(server, w, w.orgAdmin, WRITE);
    base = `/v2/organizations/${w.org.id}/users`;
  });
  afterAll(async () => server?.close());

  const newAddress = () => `made-${uniq().toLowerCase()}@example.com`;
  const create = (body: unknown, token = admin) => server.api('POST', base, token, body);
  const orgUserIds = async () => (await server.services.stores.api.memberships.listOrganizationUsers(w.org.id, 100, 0)).map((u) => u.id);

  it.skipIf(!available)('POST …/users → 201: an accepted member in the platform shape, no password made, mailed or answered; the audit names the admin', async () => {
    const email = newAddress();
    const res = await create({ email, username: 'Made.User-1', timeZone: 'Europe/Berlin', weekday: 'Sunday', timeFormat: 12, organizationRole: 'MEMBER', autoAccept: true, bio: 'not kept' });
    expect(res.status).toBe(201);
    const id = String(res.body.data.id);
    expect(res.body.data).toMatchObject({
      email,
      username: 'made.user-1',
      name: 'Made.User-1',
      timeZone: 'Europe/Berlin',
      weekStart: 'Sunday',
      timeFormat: 12,
      organizationId: Number(w.org.id),
      role: 'member',
      hideBranding: false,
      profile: { organizationId: Number(w.org.id), userId: Number(id), username: 'made.user-1' },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon2|not kept/i);
    expect(await orgUserIds()).toContain(id);
    const listed = await server.api('GET', base, admin);
    expect(listed.body.data.map((u: { id: number }) => String(u.id))).toContain(id);
    const [event] = await server.services.stores.auditLog.list({ userId: id });
    expect(event).toMatchObject({ type: 'user.created_by_organization', actorId: w.orgAdmin.id, userId: id, data: { organizationId: w.org.id, role: 'member' } });
    // No password signs in until an operator sets one; then that one does.
    expect(await verifyPassword(server.services, email, '')).toBeUndefined();
    expect(await verifyPassword(server.services, email, '!no-password')).toBeUndefined();
    await resetPassword(server.services, email, 'a new long password', null);
    expect((await verifyPassword(server.services, email, 'a new long password'))?.id).toBe(id);
  });

  it.skipIf(!available)('POST …/users with only an email → 201: the name is the mailbox, the defaults of a new account', async () => {
    const email = newAddress();
    const res = await create({ email });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ email, name: email.split('@')[0], timeZone: 'UTC', weekStart: 'Monday', timeFormat: 24, role: 'member' });
  });

  it.skipIf(!available)('POST …/users refusals: a taken address or username → 409, an admin making an owner → 403, bad fields → 400 naming them; nothing is made', async () => {
    const before = await orgUserIds();
    const taken = await create({ email: w.outsider.email });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toMatch(/already exists/);
    const username = `u-${uniq().toLowerCase()}`;
    expect((await create({ email: newAddress(), username })).status).toBe(201);
    const sameName = await create({ email: newAddress(), username });
    expect(sameName.status).toBe(409);
    expect(sameName.body.error.message).toMatch(/username/);
    const owner = await create({ email: newAddress(), organizationRole: 'OWNER' });
    expect(owner.status).toBe(403);
    const cases: Array<[unknown, RegExp]> = [
      [{}, /email/],
      [{ email: 'not an address' }, /email/],
      [{ email: newAddress(), autoAccept: false }, /^autoAccept: /],
      [{ email: newAddress(), timeZone: 'Mars/Olympus' }, /^timeZone: /],
      [{ email: newAddress(), weekday: 'Someday' }, /weekday/],
      [{ email: newAddress(), timeFormat: 13 }, /timeFormat/],
      [{ email: newAddress(), username: '-bad name' }, /username/],
      [{ email: newAddress(), organizationRole: 'KING' }, /organizationRole/],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await orgUserIds()).length).toBe(before.length + 1);
  });

  it.skipIf(!available)('DELETE …/users/{id} of an account the organization made and that belongs nowhere else → 200 "account deleted": the account is gone, audited', async () => {
    const made = await create({ email: newAddress() });
    const id = String(made.body.data.id);
    const res = await server.api('DELETE', `${base}/${id}`, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: Number(id), email: made.body.data.email, outcome: 'account deleted' });
    expect(await server.services.stores.users.findById(id)).toBeUndefined();
    expect(await orgUserIds()).not.toContain(id);
    const [event] = await server.services.stores.auditLog.list({ userId: id });
    expect(event).toMatchObject({ type: 'user.deleted_by_organization', actorId: w.orgAdmin.id, data: { organizationId: w.org.id, userId: id, email: made.body.data.email } });
  });

  it.skipIf(!available)('DELETE …/users/{id} of a user who signed up on their own, or of a made account that joined elsewhere → 200 "removed from the organization": the account stays', async () => {
    const { user } = await f.membership({ organizationId: w.org.id });
    const res = await server.api('DELETE', `${base}/${user.id}`, admin);
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('removed from the organization');
    expect(await server.services.stores.users.findById(user.id)).toBeDefined();
    expect(await orgUserIds()).not.toContain(user.id);
    const [event] = await server.services.stores.auditLog.list({ userId: user.id });
    expect(event).toMatchObject({ type: 'membership.removed', actorId: w.orgAdmin.id, data: { organizationId: w.org.id, role: 'member' } });

    const made = await create({ email: newAddress() });
    const madeId = String(made.body.data.id);
    await addMember(server.services, { organizationId: w.otherOrg.id }, madeId, 'member');
    const joined = await server.api('DELETE', `${base}/${madeId}`, admin);
    expect(joined.status).toBe(200);
    expect(joined.body.data.outcome).toBe('removed from the organization');
    expect(await server.services.stores.users.findById(madeId)).toBeDefined();
    expect(await server.services.stores.api.memberships.isMember({ organizationId: w.otherOrg.id }, madeId)).toBe(true);
  });

  /** An account the organization made, also in a team of the organization: all its memberships are the organization's. */
  async function madeAccount(): Promise<{ id: string; email: string; password: string }> {
    const email = newAddress();
    const made = await create({ email });
    expect(made.status).toBe(201);
    const id = String(made.body.data.id);
    await addMember(server.services, { teamId: w.team.id }, id, 'member');
    const password = `pw-${uniq()}-long enough`;
    await resetPassword(server.services, email, password, null);
    return { id, email, password };
  }

  /** The DELETE answer when the account is kept: the user as they were, only removed from the organization. */
  async function expectOnlyRemoved(account: { id: string; email: string }): Promise<void> {
    const res = await server.api('DELETE', `${base}/${account.id}`, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: Number(account.id), email: account.email, outcome: 'removed from the organization' });
    expect(await server.services.stores.users.findById(account.id)).toMatchObject({ id: account.id, email: account.email });
    expect(await orgUserIds()).not.toContain(account.id);
    const [event] = await server.services.stores.auditLog.list({ userId: account.id });
    expect(event).toMatchObject({ type: 'membership.removed', actorId: w.orgAdmin.id, data: { organizationId: w.org.id, role: 'member' } });
  }

  const introspect = (client: TestClient, token: string) =>
    server.post('/v2/auth/oauth2/introspect', new URLSearchParams({ token, client_id: client.clientId, client_secret: client.secret! }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });

  it.skipIf(!available)('docs/rules.md#organization-made-accounts: DELETE …/users/{id} of a made account that owns an OAuth client → 200 "removed from the organization": the account and its client stay, and the client still authenticates', async () => {
    const account = await madeAccount();
    const app = await server.client(account);
    await expectOnlyRemoved(account);
    expect(await server.services.stores.clients.find(app.clientId)).toMatchObject({ id: app.clientId, ownerId: account.id, state: 'approved' });
    const answer = await introspect(app, 'gat_x');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ active: false });
  });

  it.skipIf(!available)('docs/rules.md#organization-made-accounts: DELETE …/users/{id} of a made account that gave a grant → 200 "removed from the organization": the account stays, and so do the grant and its tokens, which still reach the API and refresh', async () => {
    const account = await madeAccount();
    const app = await server.client(await server.user());
    const tokens = await server.exchange(app, await server.code(app, account));
    expect(tokens.status).toBe(200);
    const access = tokens.body.access_token as string;
    await expectOnlyRemoved(account);
    const me = await server.api('GET', '/v2/me', access);
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(account.email);
    expect((await introspect(app, access)).body).toMatchObject({ active: true, client_id: app.clientId });
    const refreshed = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: app.clientId, client_secret: app.secret! });
    expect(refreshed.status).toBe(200);

    // "Gave no grant": a grant revoked since was still given, and its row stays with the tokens that point at it.
    const revoker = await madeAccount();
    const given = await server.exchange(app, await server.code(app, revoker));
    const revoked = await server.post('/v2/auth/oauth2/revoke', new URLSearchParams({ token: given.body.refresh_token as string, client_id: app.clientId, client_secret: app.secret! }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(revoked.status).toBe(200);
    expect((await server.api('GET', '/v2/me', given.body.access_token as string)).status).toBe(401);
    await expectOnlyRemoved(revoker);
  });

  it.skipIf(!available)('docs/rules.md#organization-made-accounts: a made account like those, in the same organization and team and signed in, that owns no client and gave no grant is deleted: "account deleted", its memberships gone', async () => {
    const account = await madeAccount();
    const browser = server.browser();
    expect((await browser.login(account.email, account.password)).status).toBe(303);
    expect((await browser.get('/settings/webhooks')).status).toBe(200);
    const res = await server.api('DELETE', `${base}/${account.id}`, admin);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: Number(account.id), email: account.email, outcome: 'account deleted' });
    expect(await server.services.stores.users.findById(account.id)).toBeUndefined();
    expect(await server.services.stores.teams.listMembershipsOfUser(account.id)).toEqual([]);
    expect(await orgUserIds()).not.toContain(account.id);
    // Its session ended with it.
    expect((await browser.get('/settings/webhooks')).status).toBe(303);
  });

  it.skipIf(!available)("DELETE of another organization's user or of no member → 404, and they stay; the last owner stays (409); only an owner removes an owner (403)", async () => {
    for (const id of [w.outsider.id, w.member.id, '999999']) {
      const res = await server.api('DELETE', `${base}/${id}`, admin);
      expect(res.status, id).toBe(404);
    }
    expect(await server.services.stores.users.findById(w.outsider.id)).toBeDefined();
    const byAdmin = await server.api('DELETE', `${base}/${w.owner.id}`, admin);
    expect(byAdmin.status).toBe(403);
    const ownerToken = await mint(server, w, w.owner, WRITE);
    const last = await server.api('DELETE', `${base}/${w.owner.id}`, ownerToken);
    expect(last.status).toBe(409);
    expect(last.body.error.message).toMatch(/at least one owner/);
    expect(await orgUserIds()).toContain(w.owner.id);
  });

  it.skipIf(!available)('a token without ORG_MEMBERSHIP_WRITE is 403 insufficient_scope naming it; a member who is not an admin, or an admin of another organization, is 403', async () => {
    const readOnly = await mint(server, w, w.orgAdmin, ['ORG_MEMBERSHIP_READ']);
    const { user } = await f.membership({ organizationId: w.org.id });
    for (const [method, path, body] of [['POST', base, { email: newAddress() }], ['DELETE', `${base}/${user.id}`, undefined]] as const) {
      const res = await server.api(method, path, readOnly, body);
      expect(res.status, method).toBe(403);
      expect(res.body.error.code).toBe('insufficient_scope');
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="ORG_MEMBERSHIP_WRITE"');
    }
    const memberToken = await mint(server, w, user, WRITE);
    const byMember = await server.api('POST', base, memberToken, { email: newAddress() });
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.message).toMatch(/admin or owner of the organization/);
    const elsewhere = await server.api('POST', `/v2/organizations/${w.otherOrg.id}/users`, admin, { email: newAddress() });
    expect(elsewhere.status).toBe(403);
    expect(await orgUserIds()).toContain(user.id);
  });
});
