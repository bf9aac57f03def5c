// Team invite links (docs/rules.md#membership-invitations) at the platform's addresses,
// POST /v2/teams/{teamId}/invite and its organization form: a team admin makes a link, the
// token is shown once and kept only as a hash, and whoever opens the link signed in (or logs
// in first) joins the team as an accepted member until it expires. Through real HTTP, on
// both databases.
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/oauth/token-format.ts';
import { listAuthorizedApps } from '../../src/services/clients/authorized-apps.ts';
import { INVITE_LINK_TTL_MS } from '../../src/services/teams/invite-links.ts';
import { inviteMember } from '../../src/services/teams/invitations.ts';
import { addMember } from '../../src/services/teams/teams.ts';
import { auditEvents } from '../helpers/stores.ts';
import { backends } from '../helpers/backends.ts';
import { formFields } from '../helpers/browser.ts';
import { csrfOf, loggedIn, open, postForm, submit, textOf, visibleText } from '../helpers/pages.ts';
import type { TestServer } from '../helpers/server.ts';
import { mint, quickUser, type World, useWorld } from './fixtures.ts';

const SCOPES = ['TEAM_MEMBERSHIP_WRITE'];
/** What a link that no longer works answers, whatever ended it. */
const GONE = 'This invite link does not work: it expired, was revoked, or whoever made it can no longer invite to the team. Ask the team for a new one.';
/** What someone who left or was removed gets from a link made before. */
const LEFT = 'You left this team, or were removed from it, after this link was made: ask its admins for a new invitation.';

describe.each(backends)('team invite links on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started));

  const membershipOf = async (userId: string, teamId: string) => (await server.services.stores.teams.listMembershipsOfUser(userId)).find((m) => m.teamId === teamId);
  const rowsAt = (rows: Array<{ created_at: number | string; expires_at: number | string }>) => ({ created_at: Number(rows[0]!.created_at), expires_at: Number(rows[0]!.expires_at) });
  /** The path and query of an invite link, as the browser opens it. */
  const pathOf = (link: string) => link.slice(server.url.length);

  it.skipIf(!available)('POST /v2/teams/{teamId}/invite answers the platform shape: a token and the link to the web app page, not cached; only the hash is stored', async () => {
    const admin = await mint(server, w, w.teamAdmin, SCOPES);
    const res = await server.api('POST', `/v2/teams/${w.team.id}/invite`, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.status).toBe('success');
    const { token, inviteLink, expiresAt } = res.body.data;
    expect(token).toMatch(/^gti_[0-9A-Za-z]{49}$/);
    expect(inviteLink).toBe(`${server.url}/teams/join?token=${token}`);
    const created = rowsAt(await server.db.selectFrom('team_invite_links').select(['created_at', 'expires_at']).where('token_hash', '=', hashToken(token)).execute());
    expect(Date.parse(expiresAt)).toBe(created.expires_at);
    expect(created.expires_at - created.created_at).toBe(INVITE_LINK_TTL_MS);

    const rows = await server.db.selectFrom('team_invite_links').selectAll().where('team_id', '=', w.team.id).execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    // Each call makes a new link.
    const again = await server.api('POST', `/v2/teams/${w.team.id}/invite`, admin);
    expect(again.body.data.token).not.toBe(token);
  });

  it.skipIf(!available)('the organization form answers for a team of that organization; another organization\'s path is 404', async () => {
    const orgAdmin = await mint(server, w, w.orgAdmin, SCOPES);
    const res = await server.api('POST', `/v2/organizations/${w.org.id}/teams/${w.team.id}/invite`, orgAdmin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.inviteLink).toContain('/teams/join?token=gti_');
    expect((await server.api('POST', `/v2/organizations/${w.otherOrg.id}/teams/${w.team.id}/invite`, orgAdmin)).status).toBe(404);
  });

  it.skipIf(!available)('only a team admin makes a link: a member or an outsider is 403, a token without TEAM_MEMBERSHIP_WRITE 403 insufficient_scope', async () => {
    const member = await server.api('POST', `/v2/teams/${w.team.id}/invite`, await mint(server, w, w.member, SCOPES));
    expect(member.status).toBe(403);
    expect(member.body.error.code).toBe('forbidden');
    const outsider = await server.api('POST', `/v2/teams/${w.team.id}/invite`, await mint(server, w, w.outsider, SCOPES));
    expect(outsider.status).toBe(403);
    const unscoped = await server.api('POST', `/v2/teams/${w.team.id}/invite`, await mint(server, w, w.teamAdmin, ['TEAM_MEMBERSHIP_READ']));
    expect(unscoped.status).toBe(403);
    expect(unscoped.body.error.code).toBe('insufficient_scope');
    expect(unscoped.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="TEAM_MEMBERSHIP_WRITE"');
    expect((await server.api('POST', `/v2/teams/${w.team.id}/invite`)).status).toBe(401);
  });

  it.skipIf(!available)('opening the link signed out asks to log in first and comes back; Join makes an accepted member and takes the pending invitation with it', async () => {
    const made = await server.api('POST', `/v2/teams/${w.team.id}/invite`, await mint(server, w, w.teamAdmin, SCOPES));
    const path = pathOf(made.body.data.inviteLink);
    const { user, browser } = await loggedIn(server, { name: 'Lin Linker' });
    await inviteMember(server.services, { teamId: w.team.id }, { email: user.email }, 'admin', w.owner.id);

    const anonymous = await server.browser().get(path);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    // The token never reaches the log in clear, even inside the login's next.
    expect(server.logs.join('\n')).not.toContain(made.body.data.token);

    const page = await open(browser, path);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(textOf(page.body, 'join-title')).toBe('Join Sales?');
    expect(visibleText(page.body)).toContain('This link makes you a member of the team.');
    expect(textOf(page.body, 'join-consequence')).toContain('If you accept, you become a host of the team’s bookings');
    expect(await membershipOf(user.id, w.team.id)).toBeUndefined();

    const joined = await postForm(browser, '/teams/join', { _csrf: csrfOf(page.body), token: formFields(page.body).token! });
    expect(joined.status).toBe(303);
    const membership = await membershipOf(user.id, w.team.id);
    expect(membership).toMatchObject({ role: 'member', teamId: w.team.id });
    expect(joined.location).toBe(`/settings/teams?accepted=${membership!.id}`);
    expect(textOf((await browser.follow(joined)).body, 'flash')).toBe('You joined Sales.');
    expect(await server.services.stores.invitations.listFor({ id: user.id, email: user.email })).toEqual([]);

    // The team sees an accepted member through the API.
    const listed = await server.api('GET', `/v2/teams/${w.team.id}/memberships`, await mint(server, w, w.teamAdmin, ['TEAM_MEMBERSHIP_READ']));
    expect(listed.body.data).toContainEqual(expect.objectContaining({ userId: Number(user.id), accepted: true, role: 'MEMBER' }));

    // Joining again changes nothing; the link still works for someone else until it expires.
    const twice = await postForm(browser, '/teams/join', { _csrf: csrfOf(page.body), token: formFields(page.body).token! });
    expect(twice.location).toBe(`/settings/teams?accepted=${membership!.id}`);
    const second = await loggedIn(server, { name: 'Sam Second' });
    const secondPage = await open(second.browser, path);
    expect(secondPage.status).toBe(200);
    expect((await postForm(second.browser, '/teams/join', { _csrf: csrfOf(secondPage.body), token: formFields(secondPage.body).token! })).status).toBe(303);
    expect(await membershipOf(second.user.id, w.team.id)).toMatchObject({ role: 'member' });
  });

  it.skipIf(!available)('an expired, unknown or malformed token is 404 with a page saying to ask for a new link, and joins nothing', async () => {
    const made = await server.api('POST', `/v2/teams/${w.loneTeam.id}/invite`, await mint(server, w, w.owner, SCOPES));
    expect(made.status).toBe(200);
    const { user, browser } = await loggedIn(server);
    const page = await open(browser, pathOf(made.body.data.inviteLink));
    expect(page.status).toBe(200);
    const csrf = csrfOf(page.body);

    // Its seven days are over (the clock stays, so the session does too).
    await server.db.updateTable('team_invite_links').set({ expires_at: server.clock() - 1 }).where('token_hash', '=', hashToken(made.body.data.token)).execute();
    const expired = await browser.get(pathOf(made.body.data.inviteLink));
    expect(expired.status).toBe(404);
    expect(visibleText(expired.body)).toContain(GONE);
    expect((await postForm(browser, '/teams/join', { _csrf: csrf, token: made.body.data.token })).status).toBe(404);
    for (const token of ['', 'nope', `gti_${'A'.repeat(49)}`]) {
      expect((await browser.get(`/teams/join?token=${encodeURIComponent(token)}`)).status).toBe(404);
    }
    expect((await browser.get('/teams/join')).status).toBe(404);
    expect(await membershipOf(user.id, w.loneTeam.id)).toBeUndefined();
  });

  /** The link the token's user makes for the team through the API. */
  async function linkBy(token: string, teamId = w.team.id): Promise<{ token: string; inviteLink: string }> {
    const made = await server.api('POST', `/v2/teams/${teamId}/invite`, token);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return made.body.data;
  }

  /** Someone new opens the link signed in: the join page's status. */
  const newcomerOpens = async (link: { inviteLink: string }) => (await (await loggedIn(server)).browser.get(pathOf(link.inviteLink))).status;

  it.skipIf(!available)('docs/rules.md#invite-links: an admin the owner removed opens the link they made while admin and chooses Join: refused, and the team stays closed to them', async () => {
    const { user: ex, browser } = await loggedIn(server, { name: 'Exa Ex-Admin' });
    const adminship = await addMember(server.services, { teamId: w.team.id }, ex.id, 'admin');
    const exToken = await mint(server, w, ex, [...SCOPES, 'TEAM_MEMBERSHIP_READ', 'TEAM_BOOKING_READ']);
    const link = await linkBy(exToken);
    const page = await open(browser, pathOf(link.inviteLink));

    const removed = await server.api('DELETE', `/v2/teams/${w.team.id}/memberships/${adminship.id}`, await mint(server, w, w.owner, SCOPES));
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const again = await browser.get(pathOf(link.inviteLink));
    expect(again.status).toBe(404);
    expect(visibleText(again.body)).toContain(GONE);
    const join = await postForm(browser, '/teams/join', { _csrf: csrfOf(page.body), token: formFields(page.body).token! });
    expect(join.status).toBe(404);
    expect(visibleText(join.body)).toContain(GONE);
    expect(await membershipOf(ex.id, w.team.id)).toBeUndefined();
    for (const path of [`/v2/teams/${w.team.id}/memberships`, `/v2/teams/${w.team.id}/bookings`]) {
      expect((await server.api('GET', path, exToken)).status, path).toBe(403);
    }
    // Nor does anyone else join through it: its maker can no longer invite.
    expect(await newcomerOpens(link)).toBe(404);
  });

  it.skipIf(!available)('docs/rules.md#invite-links: a member removed, or who left, cannot come back through a link made before, though its maker still administers the team; a later link works', async () => {
    const adminToken = await mint(server, w, w.teamAdmin, SCOPES);
    const { user: rex, browser } = await loggedIn(server, { name: 'Rex Removed' });
    const membership = await addMember(server.services, { teamId: w.team.id }, rex.id, 'member');
    const before = await linkBy(adminToken);
    const page = await open(browser, pathOf(before.inviteLink));
    expect((await server.api('DELETE', `/v2/teams/${w.team.id}/memberships/${membership.id}`, adminToken)).status).toBe(200);

    const reopened = await browser.get(pathOf(before.inviteLink));
    expect(reopened.status).toBe(403);
    expect(visibleText(reopened.body)).toContain(LEFT);
    const join = await postForm(browser, '/teams/join', { _csrf: csrfOf(page.body), token: before.token });
    expect(join.status).toBe(403);
    expect(await membershipOf(rex.id, w.team.id)).toBeUndefined();
    // The link itself still works for others.
    expect(await newcomerOpens(before)).toBe(200);

    // A link made after the removal takes them back...
    const after = await linkBy(adminToken);
    const afterPage = await open(browser, pathOf(after.inviteLink));
    expect((await postForm(browser, '/teams/join', { _csrf: csrfOf(afterPage.body), token: after.token })).status).toBe(303);
    const back = await membershipOf(rex.id, w.team.id);
    expect(back).toMatchObject({ role: 'member' });
    // ...until they leave: then it no longer does.
    expect((await submit(browser, `/settings/teams/memberships/${back!.id}/leave`, `/settings/teams/memberships/${back!.id}/leave`, {})).status).toBe(303);
    expect((await browser.get(pathOf(after.inviteLink))).status).toBe(403);
    expect((await postForm(browser, '/teams/join', { _csrf: csrfOf(afterPage.body), token: after.token })).status).toBe(403);
    expect(await membershipOf(rex.id, w.team.id)).toBeUndefined();
  });

  it.skipIf(!available)("docs/rules.md#invite-links: a link works only while its maker administers the team or its organization, and again once they do", async () => {
    const orgAdmin = await quickUser(server, 'Oda Org-Admin');
    const orgRole = await addMember(server.services, { organizationId: w.org.id }, orgAdmin.id, 'admin');
    const teamAdmin = await quickUser(server, 'Tia Team-Admin');
    const teamRole = await addMember(server.services, { teamId: w.team.id }, teamAdmin.id, 'admin');
    const byOrgAdmin = await linkBy(await mint(server, w, orgAdmin, SCOPES));
    const byTeamAdmin = await linkBy(await mint(server, w, teamAdmin, SCOPES));
    expect(await newcomerOpens(byOrgAdmin)).toBe(200);
    expect(await newcomerOpens(byTeamAdmin)).toBe(200);

    const teams = server.services.stores.teams;
    await teams.setMembershipRole(orgRole.id, 'member', server.clock());
    await teams.setMembershipRole(teamRole.id, 'member', server.clock());
    expect(await newcomerOpens(byOrgAdmin)).toBe(404);
    expect(await newcomerOpens(byTeamAdmin)).toBe(404);
    await teams.setMembershipRole(orgRole.id, 'owner', server.clock());
    await teams.setMembershipRole(teamRole.id, 'admin', server.clock());
    expect(await newcomerOpens(byOrgAdmin)).toBe(200);
    expect(await newcomerOpens(byTeamAdmin)).toBe(200);
  });

  it.skipIf(!available)('docs/rules.md#invite-links: a link an application made with a team token dies with that grant when the admin revokes the application', async () => {
    const { user: ann, browser } = await loggedIn(server, { name: 'Ann App-User' });
    await addMember(server.services, { teamId: w.team.id }, ann.id, 'admin');
    const back = await server.authorize(browser, { client_id: w.client.clientId, redirect_uri: w.client.redirectUri, response_type: 'code', scope: 'TEAM_MEMBERSHIP_WRITE', state: 's', team_slug: w.team.slug });
    const exchanged = await server.exchange(w.client, back.searchParams.get('code')!);
    expect(exchanged.status).toBe(200);
    const link = await linkBy(exchanged.body.access_token as string);
    const { browser: newcomer } = await loggedIn(server, { name: 'Nia Newcomer' });
    const page = await open(newcomer, pathOf(link.inviteLink));

    const [grant] = await listAuthorizedApps(server.services, ann.id);
    const revokePath = `/settings/authorized-apps/grants/${grant!.grantId}/revoke`;
    const revoked = await submit(browser, revokePath, revokePath, {});
    expect(revoked.status).toBe(303);
    expect((await newcomer.get(pathOf(link.inviteLink))).status).toBe(404);
    expect((await postForm(newcomer, '/teams/join', { _csrf: csrfOf(page.body), token: link.token })).status).toBe(404);
    // The admin's own standing is untouched: a link they make now works.
    expect(await newcomerOpens(await linkBy(await mint(server, w, ann, SCOPES)))).toBe(200);
  });

  it.skipIf(!available)("docs/rules.md#invite-links: a team's admins list its live links, who made each and through which application, and revoke one; a member cannot", async () => {
    const { user: lia, browser } = await loggedIn(server, { name: 'Lia Lister' });
    await addMember(server.services, { teamId: w.loneTeam.id }, lia.id, 'admin');
    const first = await linkBy(await mint(server, w, lia, SCOPES), w.loneTeam.id);
    const second = await linkBy(await mint(server, w, w.owner, SCOPES), w.loneTeam.id);
    const idOf = async (link: { token: string }) => (await server.services.stores.inviteLinks.findLive(hashToken(link.token), server.clock()))!.id;
    const [firstId, secondId] = [await idOf(first), await idOf(second)];
    const path = `/settings/teams/${w.loneTeam.id}/invite-links`;

    expect((await open(browser, '/settings/teams')).body).toContain(`href="${path}"`);
    const page = await open(browser, path);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(textOf(page.body, 'invite-links-title')).toBe('Invite links of Lone');
    expect(textOf(page.body, `link-${firstId}`)).toContain('Made by Lia Lister through Test App');
    expect(textOf(page.body, `link-${secondId}`)).toContain('Made by Olive Owner through Test App');
    expect(page.body).not.toContain(first.token);

    const revoked = await postForm(browser, `${path}/${firstId}/revoke`, { _csrf: csrfOf(page.body) });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe(`${path}?revoked=1`);
    const after = await browser.follow(revoked);
    expect(textOf(after.body, 'flash')).toBe('The link was revoked: nobody can join through it any more.');
    expect(textOf(after.body, `link-${firstId}`)).toBeNull();
    expect(await newcomerOpens(first)).toBe(404);
    expect(await newcomerOpens(second)).toBe(200);
    const events = (await auditEvents(server, { type: 'invite_link.revoked' })).filter((e) => e.actorId === lia.id);
    expect(events).toEqual([expect.objectContaining({ data: { teamId: w.loneTeam.id, linkId: firstId } })]);

    const { user: mo, browser: memberBrowser } = await loggedIn(server, { name: 'Mo Member' });
    await addMember(server.services, { teamId: w.loneTeam.id }, mo.id, 'member');
    expect((await memberBrowser.get(path)).status).toBe(404);
    expect((await open(memberBrowser, '/settings/teams')).body).not.toContain(`href="${path}"`);
    const refused = await postForm(memberBrowser, `${path}/${secondId}/revoke`, { _csrf: csrfOf((await open(memberBrowser, `/settings/teams/memberships/${(await membershipOf(mo.id, w.loneTeam.id))!.id}/leave`)).body) });
    expect(refused.status).toBe(404);
    expect(await newcomerOpens(second)).toBe(200);
  });
});
