// A team's profile through its organization's route (GET/PATCH/DELETE
// /v2/organizations/:orgId/teams/:teamId): renaming or deleting a team there needs
// ORG_PROFILE_WRITE, as Cal.com API v2 requires (docs/rules.md#scope-registry), so a team-only
// token changes its team through /v2/teams/:teamId, never through the organization's address.
// Who may act is the team rule: an admin or owner of the team or of its organization.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { mint, type World, useWorld } from './fixtures.ts';

describe.each(backends)("a team through its organization's route on $name", ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started));

  const orgTeam = () => `/v2/organizations/${w.org.id}/teams/${w.team.id}`;

  it.skipIf(!available)("a team admin's TEAM_PROFILE_WRITE token may neither rename nor delete the team there: 403 insufficient_scope naming ORG_PROFILE_WRITE, and the team is as it was", async () => {
    const teamToken = await mint(server, w, w.teamAdmin, ['TEAM_PROFILE_WRITE', 'TEAM_PROFILE_READ']);
    const before = await server.services.stores.teams.findTeam(w.team.id);

    const rename = await server.api('PATCH', orgTeam(), teamToken, { name: 'Renamed by a team token' });
    expect(rename.status).toBe(403);
    expect(rename.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="ORG_PROFILE_WRITE"');
    const remove = await server.api('DELETE', orgTeam(), teamToken);
    expect(remove.status).toBe(403);
    expect(remove.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="ORG_PROFILE_WRITE"');
    expect(await server.services.stores.teams.findTeam(w.team.id)).toEqual(before);

    // Reading through the organization's route stays a team scope, and the team's own route still takes the team token.
    expect((await server.api('GET', orgTeam(), teamToken)).status).toBe(200);
    expect((await server.api('PATCH', `/v2/teams/${w.team.id}`, teamToken, { bio: 'Changed through the team route' })).status).toBe(200);
  });

  it.skipIf(!available)('an organization admin renames the team there with ORG_PROFILE_WRITE; a plain member holding ORG_PROFILE_WRITE is refused (403 forbidden)', async () => {
    const orgToken = await mint(server, w, w.orgAdmin, ['ORG_PROFILE_WRITE']);
    const rename = await server.api('PATCH', orgTeam(), orgToken, { name: 'Sales and Success' });
    expect(rename.status).toBe(200);
    expect(rename.body.data.name).toBe('Sales and Success');

    const memberWithOrgScope = await mint(server, w, w.member, ['ORG_PROFILE_WRITE']);
    const refused = await server.api('PATCH', orgTeam(), memberWithOrgScope, { name: 'Not yours' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await server.services.stores.teams.findTeam(w.team.id))?.name).toBe('Sales and Success');
  });

  it.skipIf(!available)("SECURITY.md: renaming the team at the organization's address takes the same name check: an escape sequence with a newline, or a bidi override, is 400 naming name, and the team keeps its name", async () => {
    const orgToken = await mint(server, w, w.orgAdmin, ['ORG_PROFILE_WRITE']);
    const before = (await server.services.stores.teams.findTeam(w.team.id))!.name;
    for (const name of ['Sales\u001b]0;owned\u0007\nforged', 'Sales \u2067reversed\u2069']) {
      const res = await server.api('PATCH', orgTeam(), orgToken, { name });
      expect(res.status, name).toBe(400);
      expect(res.body.error.code, name).toBe('validation_error');
      expect(res.body.error.message, name).toMatch(/^name must /);
    }
    expect((await server.services.stores.teams.findTeam(w.team.id))!.name).toBe(before);
  });
});
