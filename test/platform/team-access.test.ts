// Registry-driven: every team route, under /v2/teams/:teamId and under its organization,
// enforces docs/rules.md#membership-rules — membership to read, admin or owner to write, organization admins
// allowed, ORG_<X> standing in for TEAM_<X> (docs/rules.md#scope-checks), legacy grants without bypass, and a
// team outside the organization of the path is 404 — on both databases.
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/platform/route-table.ts';
import { organizationScopesOfTeamRoutes } from '../../src/platform/teams/table.ts';
import { backends } from '../helpers/backends.ts';
import { expectError, expectSuccess, orgCounterpart, resourceParams, useAccessHarness, scopesOf } from './access-harness.ts';

const team = apiRoutes.filter((r) => r.membership === 'team-member' || r.membership === 'team-admin');

describe.each(backends)('team route access on $name', ({ name, available }) => {
  const h = useAccessHarness(name, available);

  describe.each(team)('$method $path', (r) => {
    const viaOrg = orgCounterpart(r.scope);
    // The organization's form of each scope the route needs.
    const viaOrgScopes = viaOrg === undefined ? [] : [viaOrg, ...(r.alsoNeeds === undefined ? [] : [orgCounterpart(r.alsoNeeds) ?? r.alsoNeeds])];
    // The organization form of a team route shares its handler: only what differs is re-run.
    const twin = r.path.startsWith('/v2/organizations/');
    it.skipIf(!available)('a user outside the team → 403 forbidden (docs/rules.md#membership-rules)', async () => {
      expectError(await h.guardCall(r, await h.token(h.w.outsider, scopesOf(r))), 403, 'forbidden');
    });
    it.skipIf(!available)('a user invited as admin who has not accepted → 403 forbidden, as a non-member (docs/rules.md#membership-invitations)', async () => {
      expectError(await h.guardCall(r, await h.token(h.w.invitee, scopesOf(r))), 403, 'forbidden');
    });
    // At the organization's address some team routes take an organization scope (organizationScopesOfTeamRoutes): a plain member holding it is still refused there.
    const scopeOfItsOwn = twin && r.handler in organizationScopesOfTeamRoutes;
    if ((!twin || scopeOfItsOwn) && r.membership === 'team-admin') it.skipIf(!available)('a plain member writing → 403 forbidden (docs/rules.md#membership-rules: admin or owner to write)', async () => {
      expectError(await h.guardCall(r, await h.token(h.w.member, scopesOf(r))), 403, 'forbidden');
    });
    if (viaOrg !== undefined) it.skipIf(!available)(`an organization admin with only ${viaOrg} → success (docs/rules.md#scope-checks)`, async () => {
      expectSuccess(await h.call(r, await h.token(h.w.orgAdmin, viaOrgScopes), { actor: h.w.orgAdmin }));
    });
    if (!twin && viaOrg !== undefined) it.skipIf(!available)(`${viaOrg} satisfies ${r.scope} for the team's own admin; an outsider still gets 403 (docs/rules.md#scope-checks, docs/rules.md#membership-rules)`, async () => {
      const res = await h.guardCall(r, await h.token(h.w.teamAdmin, viaOrgScopes));
      expect(res.status).not.toBe(401);
      expect(res.body?.error?.code).not.toBe('insufficient_scope');
      expectError(await h.guardCall(r, await h.token(h.w.outsider, viaOrgScopes)), 403, 'forbidden');
    });
    if (!twin) it.skipIf(!available)(`an organization admin who is not in the team, with ${r.scope} → success (docs/rules.md#membership-rules)`, async () => {
      expectSuccess(await h.call(r, await h.token(h.w.orgAdmin, scopesOf(r)), { actor: h.w.orgAdmin }));
    });
    if (!twin) it.skipIf(!available)('legacy token: passes the scope check for a member, never the membership check for an outsider (docs/rules.md#membership-rules)', async () => {
      expectSuccess(await h.call(r, await h.token(h.w.owner, null)));
      expectError(await h.guardCall(r, await h.token(h.w.outsider, null)), 403, 'forbidden');
    });
    if (!twin && resourceParams(r).length > 0) it.skipIf(!available)("another team's resource → 404", async () => {
      const res = await h.call(r, await h.token(h.w.owner, scopesOf(r)), { teamId: h.w.otherTeam.id, orgId: h.w.otherOrg.id, override: { teamId: h.w.team.id, orgId: h.w.org.id } });
      expectError(res, 404, 'not_found');
    });
    if (!twin) it.skipIf(!available)('an unknown team → 404', async () => {
      const res = await h.guardCall(r, await h.token(h.w.owner, scopesOf(r)), { teamId: 'noSuchTeam' });
      expectError(res, 404, 'not_found');
      expect(res.body.error.message).toBe('no such team');
    });
    if (twin) it.skipIf(!available)('a team that is not in the organization of the path → 404 (docs/rules.md#membership-rules)', async () => {
      for (const [user, teamId] of [[h.w.outsider, h.w.otherTeam.id], [h.w.owner, h.w.loneTeam.id]] as const) {
        const res = await h.guardCall(r, await h.token(user, scopesOf(r)), { teamId });
        expectError(res, 404, 'not_found');
        expect(res.body.error.message).toBe('no such team in this organization');
      }
    });
  });
});
