// /settings/teams (docs/rules.md#membership-invitations): the invited user accepts or declines there, sees the
// teams and organizations they belong to, and leaves one unless they are its last owner.
// Every form needs the page's CSRF token and answers with a redirect. Below, on the same server,
// the organization's identity providers page, which /settings/teams links to for owners.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthContext } from '../../src/oauth/context.ts';
import { hashToken, timeOrderedId } from '../../src/oauth/token-format.ts';
import { mintAccessToken } from '../../src/oauth/token-response.ts';
import { CLI_OPERATOR } from '../../src/services/actors.ts';
import { addIdentityProvider, type IdentityProvider } from '../../src/services/identity-providers/identity-providers.ts';
import { inviteMember } from '../../src/services/teams/invitations.ts';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';
import { createIdentityAssertionStore } from '../../src/storage/stores/identity-assertions.ts';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { csrfOf, fieldError, loggedIn, open, postForm, textOf, visibleText } from '../helpers/pages.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const TEAMS = '/settings/teams';

describe.each(backends)('teams page on $name', ({ name, available }) => {
  let server: TestServer;
  let owner: TestUser;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    owner = await server.user({ name: 'Olive Owner' });
  });
  afterAll(async () => server?.close());

  const memberships = (userId: string) => server.services.stores.teams.listMembershipsOfUser(userId);
  const invitationsOf = (user: TestUser) => server.services.stores.invitations.listFor({ id: user.id, email: user.email });
  /** The session's CSRF token, from a page that always has a form (the teams page may have none). */
  const csrfFor = async (browser: Parameters<typeof open>[0]) => csrfOf((await open(browser, '/logout')).body);
  const organizationOf = async (userId: string) => (await server.services.stores.users.findById(userId))!.organizationId;

  it.skipIf(!available)('asks a user who is not logged in to log in first', async () => {
    const res = await server.browser().get(TEAMS);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/login?next=${encodeURIComponent(TEAMS)}`);
  });

  it.skipIf(!available)('shows an invitation with what accepting shares; Accept makes the membership, with the invitation’s id (docs/rules.md#membership-invitations)', async () => {
    const org = await createOrganization(server.services, { name: 'Acme Corp', ownerId: owner.id });
    const team = await createTeam(server.services, { name: 'Support Desk', ownerId: owner.id, organizationId: org.id });
    const { user, browser } = await loggedIn(server, { name: 'Ivy Invitee' });
    const invitation = await inviteMember(server.services, { teamId: team.id }, { email: user.email.toUpperCase() }, 'admin', owner.id);

    const page = await open(browser, TEAMS);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(textOf(page.body, `invitation-${invitation.id}`)).toBe('Support Desk');
    expect(visibleText(page.body)).toMatch(
      /Support Desk Team in Acme Corp\. You are invited as admin by Olive Owner, on \d{4}-\d\d-\d\d \d\d:\d\d UTC\. If you accept, you become a host of the team’s bookings .* Accept the invitation to Support Desk Decline the invitation to Support Desk/,
    );
    expect(textOf(page.body, 'no-memberships')).toBe('You are not a member of any team or organization.');
    expect(await memberships(user.id)).toHaveLength(0);

    const res = await postForm(browser, `${TEAMS}/invitations/${invitation.id}/accept`, { _csrf: csrfOf(page.body) });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${TEAMS}?accepted=${invitation.id}`);
    const after = await browser.follow(res);
    expect(textOf(after.body, 'flash')).toBe('You joined Support Desk.');
    expect(textOf(after.body, 'no-invitations')).toBe('No invitations are waiting for you.');
    expect(textOf(after.body, 'memberships')).toMatch(/^Your teams and organizations Support Desk Team in Acme Corp\. Your role: admin, since .* Leave Support Desk$/);
    expect(await memberships(user.id)).toEqual([expect.objectContaining({ id: invitation.id, teamId: team.id, role: 'admin' })]);
    expect(await invitationsOf(user)).toHaveLength(0);

    // Answering twice: the invitation is gone, and the page says so.
    const again = await postForm(browser, `${TEAMS}/invitations/${invitation.id}/accept`, { _csrf: await csrfFor(browser) });
    expect(again.status).toBe(404);
    expect(visibleText(again.body)).toContain('This invitation is no longer open: it was withdrawn, or you already answered it.');
  });

  it.skipIf(!available)('Decline deletes the invitation and grants nothing (docs/rules.md#membership-invitations)', async () => {
    const org = await createOrganization(server.services, { name: 'Nosy Inc', ownerId: owner.id });
    const { user, browser } = await loggedIn(server);
    const invitation = await inviteMember(server.services, { organizationId: org.id }, { userId: user.id }, 'member', owner.id);
    const page = await open(browser, TEAMS);
    expect(visibleText(page.body)).toContain('Nosy Inc Organization. You are invited as member by Olive Owner');
    expect(visibleText(page.body)).toContain('If you accept, the organization’s admins can see and change your profile, event types, schedules and bookings');

    const res = await postForm(browser, `${TEAMS}/invitations/${invitation.id}/decline`, { _csrf: csrfOf(page.body) });
    expect(res.status).toBe(303);
    const after = await browser.follow(res);
    expect(textOf(after.body, 'flash')).toBe('You declined the invitation. Nothing of your account was shared.');
    expect(textOf(after.body, 'no-invitations')).toBe('No invitations are waiting for you.');
    expect(await memberships(user.id)).toHaveLength(0);
    expect((await invitationsOf(user)).map((i) => i.id)).not.toContain(invitation.id);
    expect(await organizationOf(user.id)).toBeNull();
  });

  it.skipIf(!available)('a member leaves a team; the last owner cannot leave and is told why (docs/rules.md#membership-invitations)', async () => {
    const { user, browser } = await loggedIn(server);
    const team = await createTeam(server.services, { name: 'Night Shift', ownerId: user.id });
    const org = await createOrganization(server.services, { name: 'Big Org', ownerId: owner.id });
    const orgMembership = await addMember(server.services, { organizationId: org.id }, user.id, 'member');
    const teamMembership = (await memberships(user.id)).find((m) => m.teamId === team.id)!;

    const page = await open(browser, TEAMS);
    expect(textOf(page.body, `last-owner-${teamMembership.id}`)).toBe('You are its only owner, so you cannot leave it: make another member an owner first.');
    // A form from before (or a hand-made one) is refused all the same, with the reason next to the team.
    const refused = await postForm(browser, `${TEAMS}/memberships/${teamMembership.id}/leave`, { _csrf: await csrfFor(browser) });
    expect(refused.status).toBe(303);
    const shown = await browser.follow(refused);
    expect(textOf(shown.body, 'refused')).toBe('You are the last owner of Night Shift, so you cannot leave it. Make another member an owner first.');
    expect((await memberships(user.id)).map((m) => m.id)).toContain(teamMembership.id);

    // With a second owner, leaving is possible.
    await addMember(server.services, { teamId: team.id }, owner.id, 'owner');
    const leaveTeam = await postForm(browser, `${TEAMS}/memberships/${teamMembership.id}/leave`, { _csrf: await csrfFor(browser) });
    expect(leaveTeam.status).toBe(303);
    expect(textOf((await browser.follow(leaveTeam)).body, 'flash')).toBe('You left the team.');

    const leaveOrg = await postForm(browser, `${TEAMS}/memberships/${orgMembership.id}/leave`, { _csrf: await csrfFor(browser) });
    const after = await browser.follow(leaveOrg);
    expect(textOf(after.body, 'flash')).toBe('You left the organization.');
    expect(textOf(after.body, 'no-memberships')).toBe('You are not a member of any team or organization.');
    expect(await memberships(user.id)).toHaveLength(0);
    // GET /v2/me stops reporting the organization the user left.
    expect(await organizationOf(user.id)).toBeNull();
  });

  it.skipIf(!available)('the page does not promise that nobody can add the user: an operator’s `gatehouse members add` is listed and can be left', async () => {
    const { user, browser } = await loggedIn(server);
    const team = await createTeam(server.services, { name: 'Operators Pick', ownerId: owner.id });
    await addMember(server.services, { teamId: team.id }, user.id, 'member');
    const page = await open(browser, TEAMS);
    const words = textOf(page.body, 'how-you-join')!;
    expect(words).not.toContain('Nobody can add you');
    expect(words).toBe(
      'Teams and organizations can only invite you: an invitation waits here for your answer, and until you accept it they see nothing of your account. A platform operator can also add you directly, without asking you; every team and organization you belong to is listed below however you joined, and you can leave any of them unless you are its last owner.',
    );
    expect(textOf(page.body, 'memberships')).toContain('Operators Pick');
  });

  it.skipIf(!available)('Leave asks for confirmation on a page of its own, then leaves only on its CSRF-checked POST', async () => {
    const { user, browser } = await loggedIn(server);
    const team = await createTeam(server.services, { name: 'Weekend Crew', ownerId: owner.id });
    const membership = await addMember(server.services, { teamId: team.id }, user.id, 'member');
    const page = await open(browser, TEAMS);
    // Leave is a link to the confirmation, not a form that acts at once.
    expect(page.body).toContain(`<a class="button danger" href="${TEAMS}/memberships/${membership.id}/leave">Leave<span class="visually-hidden"> Weekend Crew</span></a>`);
    expect(page.body).not.toContain(`<form method="post" action="${TEAMS}/memberships/${membership.id}/leave">`);

    const confirm = await open(browser, `${TEAMS}/memberships/${membership.id}/leave`);
    expect(confirm.status).toBe(200);
    expect(textOf(confirm.body, 'leave-title')).toBe('Leave Weekend Crew?');
    expect(textOf(confirm.body, 'leave-consequence')).toBe(
      'You stop being a host of its bookings, and applications you authorized lose their access to it through you. To come back you need a new invitation.',
    );
    expect(visibleText(confirm.body)).toContain('Leave Weekend Crew Cancel');
    // Looking at the confirmation changes nothing.
    expect((await memberships(user.id)).map((m) => m.id)).toContain(membership.id);

    expect((await postForm(browser, `${TEAMS}/memberships/${membership.id}/leave`, { _csrf: 'stale' })).status).toBe(403);
    const left = await postForm(browser, `${TEAMS}/memberships/${membership.id}/leave`, { _csrf: csrfOf(confirm.body) });
    expect(left.status).toBe(303);
    expect(textOf((await browser.follow(left)).body, 'flash')).toBe('You left the team.');
    // The confirmation of a membership that is gone, or someone else's, is a 404 page.
    expect((await browser.get(`${TEAMS}/memberships/${membership.id}/leave`)).status).toBe(404);
    const ownerMembership = (await memberships(owner.id)).find((m) => m.teamId === team.id)!;
    expect((await browser.get(`${TEAMS}/memberships/${ownerMembership.id}/leave`)).status).toBe(404);
  });

  it.skipIf(!available)('every form needs the page’s CSRF token, and nobody answers or leaves for someone else', async () => {
    const team = await createTeam(server.services, { name: 'Guarded', ownerId: owner.id });
    const { user, browser } = await loggedIn(server);
    const invitation = await inviteMember(server.services, { teamId: team.id }, { email: user.email }, 'member', owner.id);

    const stale = await postForm(browser, `${TEAMS}/invitations/${invitation.id}/accept`, { _csrf: 'stale' });
    expect(stale.status).toBe(403);
    expect(visibleText(stale.body)).toContain('This form has expired');
    expect(await memberships(user.id)).toHaveLength(0);

    // Another logged-in user cannot accept or decline this invitation, nor leave for the owner.
    const { user: otherUser, browser: other } = await loggedIn(server);
    await addMember(server.services, { teamId: team.id }, otherUser.id, 'member');
    const csrf = await csrfFor(other);
    for (const action of ['accept', 'decline']) {
      const res = await postForm(other, `${TEAMS}/invitations/${invitation.id}/${action}`, { _csrf: csrf });
      expect(res.status).toBe(404);
    }
    const ownerMembership = (await memberships(owner.id)).find((m) => m.teamId === team.id)!;
    expect((await postForm(other, `${TEAMS}/memberships/${ownerMembership.id}/leave`, { _csrf: csrf })).status).toBe(404);
    expect(await invitationsOf(user)).toHaveLength(1);
    expect((await memberships(owner.id)).map((m) => m.id)).toContain(ownerMembership.id);
  });

  // docs/integrating.md#enterprise-managed-agents over real HTTP, what only the pages show: the
  // organization's identity providers page (owners only: the same 404 for its admins, its
  // members, anyone else and an organization that does not exist; its forms need the page's
  // CSRF token and answer with a redirect; a refused form shows each problem beside its field),
  // and the member's authorized-apps card for what a provider granted. The rules behind them
  // (which grants, what a revoke ends, leaving the organization) are
  // test/services/identity-provider-access.test.ts's.
  describe("the organization's identity providers page", () => {
    const pathOf = (organizationId: string) => `/settings/organizations/${organizationId}/identity-providers`;

    let owner: { user: TestUser; browser: Browser };
    let admin: { user: TestUser; browser: Browser };
    let member: { user: TestUser; browser: Browser };
    let stranger: { user: TestUser; browser: Browser };
    let organizationId: string;
    let agent: TestClient;

    beforeAll(async () => {
      if (!available) return;
      owner = await loggedIn(server, { name: 'Olive Owner' });
      admin = await loggedIn(server, { name: 'Adam Admin' });
      member = await loggedIn(server, { name: 'Ada Member' });
      stranger = await loggedIn(server, { name: 'Sam Stranger' });
      organizationId = (await createOrganization(server.services, { name: 'Acme', ownerId: owner.user.id })).id;
      await addMember(server.services, { organizationId }, admin.user.id, 'admin');
      await addMember(server.services, { organizationId }, member.user.id, 'member');
      // The stranger owns an organization of their own.
      await createOrganization(server.services, { name: 'Globex', ownerId: stranger.user.id });
      agent = await server.client(owner.user, { name: 'Scheduling Agent', scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    });

    /** A grant the provider made for the member, with an access token issued now, as the JWT bearer grant writes them. */
    async function granted(provider: IdentityProvider, userId: string, scopes: string[]): Promise<{ grantId: string; token: string }> {
      const store = createIdentityAssertionStore(server.database.handle.db);
      const grant = { id: timeOrderedId(server.clock()), userId, clientId: agent.clientId, scopes, createdAt: server.clock(), revokedAt: null };
      await store.createTrustGrant(grant, provider.id);
      const core = { clock: server.clock, ttl: { accessToken: 3600 } } as unknown as OAuthContext;
      const access = mintAccessToken(core, { grantId: grant.id, codeHash: null, clientId: agent.clientId, userId, scopes, resources: null }, null, null);
      await store.oauth.createAccessToken(access.accessRow);
      return { grantId: grant.id, token: access.accessToken };
    }
    const tokenRevoked = async (token: string) => (await createIdentityAssertionStore(server.database.handle.db).oauth.findAccessToken(hashToken(token)))!.revokedAt !== null;
    const providers = () => server.services.stores.identityProviders.listOfOrganization(organizationId);
    const addProvider = (issuer: string) => addIdentityProvider(server.services, { organizationId, issuer, jwksUri: `${issuer}/keys`, domains: ['acme.example'] }, { actorId: CLI_OPERATOR });

    it.skipIf(!available)('asks a user who is not logged in to log in first', async () => {
      const res = await server.browser().get(pathOf(organizationId));
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/login?next=${encodeURIComponent(pathOf(organizationId))}`);
    });

    it.skipIf(!available)('the owner reaches it from the teams page; its admins, its members, another organization\'s owner and a made-up id get the same 404', async () => {
      const teams = await open(owner.browser, '/settings/teams');
      expect(teams.body).toContain(`href="${pathOf(organizationId)}"`);
      expect(visibleText(teams.body)).toContain('Identity providers of Acme: let your organization’s agents in for its members without a consent page, and see who got access.');
      expect((await open(admin.browser, '/settings/teams')).body).not.toContain(pathOf(organizationId));

      const page = await open(owner.browser, pathOf(organizationId));
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(textOf(page.body, 'identity-providers-title')).toBe('Identity providers of Acme');
      expect(textOf(page.body, 'how-providers-work')).toMatch(/^An identity provider your organization signs its people in with .* Only the organization’s owners see this page\.$/);

      const refusals = await Promise.all([admin, member, stranger].map((who) => who.browser.get(pathOf(organizationId))));
      const missing = await owner.browser.get(pathOf('no-such-organization'));
      for (const res of [...refusals, missing]) {
        expect(res.status).toBe(404);
        expect(visibleText(res.body)).toContain('There is no organization with this id among the organizations you own.');
      }
    });

    it.skipIf(!available)('Add: every problem beside its field, with the values kept; then the provider is added, audited under the owner, and shown with its keys, domains and scopes', async () => {
      const page = await open(owner.browser, pathOf(organizationId));
      const csrf = csrfOf(page.body);
      const bad = await postForm(owner.browser, pathOf(organizationId), { _csrf: csrf, issuer: 'http://idp.acme.example', jwks_uri: 'not a url', domains: 'acme', scopes: 'NOT_A_SCOPE' });
      expect(bad.status).toBe(400);
      expect(fieldError(bad.body, 'issuer')).toBe('Issuer must use https: the identity provider\'s issuer identifier, as its ID-JAGs carry it in iss.');
      expect(fieldError(bad.body, 'jwks_uri')).toMatch(/^Jwks_uri must be an absolute https URL/);
      expect(fieldError(bad.body, 'domains')).toBe('"acme" is not an e-mail domain: give a name like example.com.');
      expect(fieldError(bad.body, 'scopes')).toMatch(/NOT_A_SCOPE/);
      expect(bad.body).toContain('value="http://idp.acme.example"');
      expect(await providers()).toEqual([]);

      // Without the page's CSRF token nothing is added.
      expect((await postForm(owner.browser, pathOf(organizationId), { issuer: 'https://idp.acme.example', jwks_uri: 'https://idp.acme.example/keys', domains: 'acme.example' })).status).toBe(403);
      // Nor by an admin of the organization, with a token of their own session.
      const adminCsrf = csrfOf((await open(admin.browser, '/settings/developer/oauth-clients/new')).body);
      expect((await postForm(admin.browser, pathOf(organizationId), { _csrf: adminCsrf, issuer: 'https://idp.acme.example', jwks_uri: 'https://idp.acme.example/keys', domains: 'acme.example' })).status).toBe(404);
      expect(await providers()).toEqual([]);

      const res = await postForm(owner.browser, pathOf(organizationId), { _csrf: csrf, issuer: 'https://idp.acme.example', jwks_uri: 'https://idp.acme.example/keys', domains: 'Acme.example\nacme.co.example', scopes: ['PROFILE_READ', 'BOOKING_READ'] });
      expect(res.status).toBe(303);
      expect(res.location).toBe(`${pathOf(organizationId)}?added=1`);
      const [added] = await providers();
      expect(added).toMatchObject({ issuer: 'https://idp.acme.example', jwksUri: 'https://idp.acme.example/keys', domains: ['acme.example', 'acme.co.example'], scopes: ['BOOKING_READ', 'PROFILE_READ'], createdBy: owner.user.id });
      const [event] = await server.services.stores.auditLog.list({ limit: 1 });
      expect(event).toMatchObject({ type: 'identity_provider.added', actorId: owner.user.id, data: { organizationId, identityProviderId: added!.id } });

      const after = await owner.browser.follow(res);
      expect(textOf(after.body, 'flash')).toBe('The identity provider was added. Its ID-JAGs are trusted from now on.');
      expect(textOf(after.body, `provider-title-${added!.id}`)).toBe('https://idp.acme.example');
      expect(textOf(after.body, `provider-domains-${added!.id}`)).toBe('Speaks for: acme.example, acme.co.example');
      expect(textOf(after.body, `provider-scopes-${added!.id}`)).toMatch(/^It may grant: .*List bookings.*BOOKING_READ.*PROFILE_READ$/);
      expect(textOf(after.body, `no-agents-${added!.id}`)).toBe('No agent holds access through it.');

      // The same issuer again: refused beside the field, with the reason.
      const again = await postForm(owner.browser, pathOf(organizationId), { _csrf: csrf, issuer: 'https://idp.acme.example', jwks_uri: 'https://idp.acme.example/keys', domains: 'acme.example' });
      expect(again.status).toBe(409);
      expect(fieldError(again.body, 'issuer')).toBe(`Organization ${organizationId} already trusts the issuer https://idp.acme.example.`);
      expect(await providers()).toHaveLength(1);
      await server.services.stores.identityProviders.delete(added!.id);
    });

    it.skipIf(!available)('the agents it granted access, for whom, with scopes and last use; Revoke ends that access\'s tokens; another organization\'s ids are 404', async () => {
      const provider = await addProvider('https://agents.acme.example');
      const access = await granted(provider, member.user.id, ['PROFILE_READ']);
      const page = await open(owner.browser, pathOf(organizationId));
      expect(textOf(page.body, `agent-${access.grantId}`)).toMatch(/^Scheduling Agent Ada Member \S+@\S+ PROFILE_READ \d{4}-\d\d-\d\d \d\d:\d\d UTC \d{4}-\d\d-\d\d \d\d:\d\d UTC Revoke the access of Scheduling Agent for \S+$/);

      const revoke = `${pathOf(organizationId)}/${provider.id}/agents/${access.grantId}/revoke`;
      const csrf = csrfOf(page.body);
      expect((await postForm(owner.browser, revoke, {})).status).toBe(403);
      const adminCsrf = csrfOf((await open(admin.browser, '/settings/developer/oauth-clients/new')).body);
      expect((await postForm(admin.browser, revoke, { _csrf: adminCsrf })).status).toBe(404);
      // Another organization's provider, or a grant it made, named under this organization: 404.
      const globex = await createOrganization(server.services, { name: 'Initech', ownerId: owner.user.id });
      await addMember(server.services, { organizationId: globex.id }, member.user.id, 'member');
      const theirs = await addIdentityProvider(server.services, { organizationId: globex.id, issuer: 'https://idp.initech.example', jwksUri: 'https://idp.initech.example/keys', domains: ['initech.example'] }, { actorId: CLI_OPERATOR });
      const theirAccess = await granted(theirs, member.user.id, ['PROFILE_READ']);
      expect((await postForm(owner.browser, `${pathOf(organizationId)}/${theirs.id}/agents/${theirAccess.grantId}/revoke`, { _csrf: csrf })).status).toBe(404);
      expect((await postForm(owner.browser, `${pathOf(organizationId)}/${provider.id}/agents/${theirAccess.grantId}/revoke`, { _csrf: csrf })).status).toBe(404);
      expect(await tokenRevoked(access.token)).toBe(false);
      expect(await tokenRevoked(theirAccess.token)).toBe(false);

      const res = await postForm(owner.browser, revoke, { _csrf: csrf });
      expect(res.status).toBe(303);
      expect(res.location).toBe(`${pathOf(organizationId)}?revoked=1`);
      expect(await tokenRevoked(access.token)).toBe(true);
      const after = await owner.browser.follow(res);
      expect(textOf(after.body, 'flash')).toMatch(/^The agent’s access was revoked: its tokens stopped working at once\./);
      expect(textOf(after.body, `no-agents-${provider.id}`)).toBe('No agent holds access through it.');
      // Sent again: that access is gone.
      expect((await postForm(owner.browser, revoke, { _csrf: csrf })).status).toBe(404);
      await server.services.stores.identityProviders.delete(provider.id);
    });

    it.skipIf(!available)('Remove asks first, saying what ends; then ends everything the provider granted, audited under the owner', async () => {
      const provider = await addProvider('https://removed.acme.example');
      const access = await granted(provider, member.user.id, ['PROFILE_READ']);
      const removePath = `${pathOf(organizationId)}/${provider.id}/remove`;
      expect((await admin.browser.get(removePath)).status).toBe(404);
      const confirm = await open(owner.browser, removePath);
      expect(textOf(confirm.body, 'remove-title')).toBe('Remove the identity provider https://removed.acme.example?');
      expect(textOf(confirm.body, 'remove-consequence')).toBe('1 agent access for 1 member it granted ends at once, with every token. Its ID-JAGs are no longer trusted; to trust it again, add it again.');
      expect((await postForm(owner.browser, removePath, {})).status).toBe(403);

      const res = await postForm(owner.browser, removePath, { _csrf: csrfOf(confirm.body) });
      expect(res.status).toBe(303);
      expect(res.location).toBe(`${pathOf(organizationId)}?removed=1`);
      expect(await tokenRevoked(access.token)).toBe(true);
      expect(await providers()).toEqual([]);
      const [event] = await server.services.stores.auditLog.list({ limit: 1 });
      expect(event).toMatchObject({ type: 'identity_provider.removed', actorId: owner.user.id, data: { identityProviderId: provider.id, grantsRevoked: 1 } });
      const after = await owner.browser.follow(res);
      expect(textOf(after.body, 'flash')).toMatch(/^The identity provider was removed: everything it granted ended/);
      expect(textOf(after.body, 'no-providers')).toBe('Acme trusts no identity provider.');
      expect((await owner.browser.get(removePath)).status).toBe(404);
    });

    it.skipIf(!available)('the member\'s authorized apps: a card of its own, "granted by your organization\'s identity provider", with its scopes; its Revoke says the provider may grant it again', async () => {
      const provider = await addProvider('https://apps.acme.example');
      const access = await granted(provider, member.user.id, ['BOOKING_READ', 'PROFILE_READ']);
      const apps = await open(member.browser, '/settings/authorized-apps');
      expect(textOf(apps.body, `grant-${access.grantId}`)).toBe('Scheduling Agent for you granted by your organization’s identity provider');
      expect(textOf(apps.body, `granted-by-${access.grantId}`)).toMatch(/^Granted by your organization’s identity provider, not by you: the identity provider of Acme granted it on \d{4}-\d\d-\d\d \d\d:\d\d UTC, as that organization’s policy allows, without asking you\.$/);
      expect(textOf(apps.body, `last-used-${access.grantId}`)).toMatch(/^Last used: \d{4}-\d\d-\d\d \d\d:\d\d UTC, when it last got a token \(with a grant of your organization’s identity provider\)\.$/);
      const card = new RegExp(`<section class="card app"[^>]*data-grant="${access.grantId}"[\\s\\S]*?</section>`).exec(apps.body)![0];
      expect(visibleText(card)).toContain('List bookings');
      expect(visibleText(card)).toContain("Read the authorized user's profile.");

      const confirm = await open(member.browser, `/settings/authorized-apps/grants/${access.grantId}/revoke`);
      expect(textOf(confirm.body, 'revoke-consequence')).toBe(
        'Every token it holds for your account through your organization’s identity provider stops working at once. Your organization’s identity provider may grant it again when the application asks it: ask Acme to stop it for good.',
      );
      const res = await postForm(member.browser, `/settings/authorized-apps/grants/${access.grantId}/revoke`, { _csrf: csrfOf(confirm.body) });
      expect(res.status).toBe(303);
      expect(await tokenRevoked(access.token)).toBe(true);
      const after = await member.browser.follow(res);
      expect(textOf(after.body, 'flash')).toBe('You revoked the access Scheduling Agent had for you through your organization’s identity provider. Its tokens stopped working at once.');
      await server.services.stores.identityProviders.delete(provider.id);
    });
  });
});
