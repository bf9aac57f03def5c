// /settings/teams (docs/rules.md#membership-invitations): the invited user accepts or declines there, sees the
// teams and organizations they belong to, and leaves one unless they are its last owner.
// Every form needs the page's CSRF token and answers with a redirect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteMember } from '../../src/services/teams/invitations.ts';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { csrfOf, loggedIn, open, postForm, textOf, visibleText } from '../helpers/pages.ts';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.ts';

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
});
