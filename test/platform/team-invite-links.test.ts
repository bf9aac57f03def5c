// Team invite links (docs/rules.md#membership-invitations) at the platform's addresses,
// POST /v2/teams/{teamId}/invite and its organization form: a team admin makes a link, the
// token is shown once and kept only as a hash, and whoever opens the link signed in (or logs
// in first) joins the team as an accepted member until it expires. Through real HTTP, on
// both databases.
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/oauth/token-format.ts';
import { INVITE_LINK_TTL_MS } from '../../src/services/teams/invite-links.ts';
import { inviteMember } from '../../src/services/teams/invitations.ts';
import { backends } from '../helpers/backends.ts';
import { formFields } from '../helpers/browser.ts';
import { csrfOf, loggedIn, open, postForm, textOf, visibleText } from '../helpers/pages.ts';
import type { TestServer } from '../helpers/server.ts';
import { mint, type World, useWorld } from './fixtures.ts';

const SCOPES = ['TEAM_MEMBERSHIP_WRITE'];

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
    expect(visibleText(expired.body)).toContain('This invite link does not work: it expired or was never made. Ask the team for a new one.');
    expect((await postForm(browser, '/teams/join', { _csrf: csrf, token: made.body.data.token })).status).toBe(404);
    for (const token of ['', 'nope', `gti_${'A'.repeat(49)}`]) {
      expect((await browser.get(`/teams/join?token=${encodeURIComponent(token)}`)).status).toBe(404);
    }
    expect((await browser.get('/teams/join')).status).toBe(404);
    expect(await membershipOf(user.id, w.loneTeam.id)).toBeUndefined();
  });
});
