// Registry-driven: every route of src/platform/route-table.ts, called for real, proves its scope
// (docs/rules.md#api-envelope, docs/rules.md#scope-checks), and the personal, organization and public routes
// their membership rule (docs/rules.md#membership-rules), on both databases. Team routes: team-access.test.ts.
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/platform/route-table.ts';
import { backends } from '../helpers/backends.ts';
import { expectError, expectSuccess, orgCounterpart, resourceParams, useAccessHarness, scopesOf } from './access-harness.ts';
import { ALL_SCOPES } from './fixtures.ts';

const guarded = apiRoutes.filter((r) => r.scope !== 'public');
const personal = apiRoutes.filter((r) => r.membership === 'self');
const organization = apiRoutes.filter((r) => r.membership === 'org-admin');
const organizationMember = apiRoutes.filter((r) => r.membership === 'org-member');
const publicRoutes = apiRoutes.filter((r) => r.scope === 'public');

describe.each(backends)('platform API access on $name', ({ name, available }) => {
  const h = useAccessHarness(name, available);

  describe.each(guarded)('$method $path', (r) => {
    it.skipIf(!available)(`without ${r.scope} → 403 insufficient_scope naming it (docs/rules.md#api-envelope)`, async () => {
      const others = ALL_SCOPES.filter((s) => s !== r.scope && s !== orgCounterpart(r.scope));
      const res = await h.guardCall(r, await h.token(h.w.owner, others));
      expectError(res, 403, 'insufficient_scope');
      expect(res.body.error.message).toContain(r.scope);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${r.scope}"`);
    });

    it.skipIf(!available)(`with ${r.scope} → success (docs/rules.md#scope-checks)`, async () => {
      expectSuccess(await h.call(r, await h.token(h.w.owner, scopesOf(r))));
    });

    it.skipIf(!available)('no token → 401 with WWW-Authenticate and no error code (RFC 6750 §3.1)', async () => {
      const missing = await h.guardCall(r, undefined);
      expectError(missing, 401, 'unauthorized');
      expect(missing.headers.get('www-authenticate')).toBe(`Bearer realm="gatehouse", resource_metadata="${h.server.url}/.well-known/oauth-protected-resource/v2", DPoP algs="ES256 EdDSA Ed25519 RS256 PS256"`); // docs/rules.md#protected-resource-metadata
    });
  });

  it.skipIf(!available)('a malformed or unknown token → 401 invalid_token on every guarded route (RFC 6750 §3.1)', async () => {
    for (const r of guarded) {
      const res = await h.guardCall(r, 'gat_not-a-real-token');
      expectError(res, 401, 'invalid_token');
      expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="gatehouse", error="invalid_token", resource_metadata="${h.server.url}/.well-known/oauth-protected-resource/v2"`); // docs/rules.md#protected-resource-metadata
    }
  });

  describe.each(personal)('personal $method $path', (r) => {
    it.skipIf(!available)('legacy token → passes the scope check (docs/rules.md#scope-checks)', async () => {
      expectSuccess(await h.call(r, await h.token(h.w.owner, null)));
    });
    if (resourceParams(r).length > 0) it.skipIf(!available)("another user's resource → 404 (docs/rules.md#membership-rules: the token's user only)", async () => {
      const res = await h.call(r, await h.token(h.w.owner, scopesOf(r)), { actor: h.w.outsider, teamId: h.w.otherTeam.id, orgId: h.w.otherOrg.id });
      expectError(res, 404, 'not_found');
    });
  });

  describe.each(organization)('organization $method $path', (r) => {
    it.skipIf(!available)('a user outside the organization, or only in one of its teams → 403 forbidden (docs/rules.md#membership-rules)', async () => {
      expectError(await h.guardCall(r, await h.token(h.w.outsider, scopesOf(r))), 403, 'forbidden');
      expectError(await h.guardCall(r, await h.token(h.w.member, scopesOf(r))), 403, 'forbidden');
    });
    it.skipIf(!available)('a user invited as admin who has not accepted → 403 forbidden, as a non-member (docs/rules.md#membership-invitations)', async () => {
      expectError(await h.guardCall(r, await h.token(h.w.invitee, scopesOf(r))), 403, 'forbidden');
    });
    it.skipIf(!available)('an organization admin (not owner) → success', async () => {
      expectSuccess(await h.call(r, await h.token(h.w.orgAdmin, scopesOf(r)), { actor: h.w.orgAdmin }));
    });
    it.skipIf(!available)('legacy token: passes the scope check for an owner, never the membership check for an outsider (docs/rules.md#membership-rules)', async () => {
      expectSuccess(await h.call(r, await h.token(h.w.owner, null)));
      expectError(await h.guardCall(r, await h.token(h.w.outsider, null)), 403, 'forbidden');
    });
    if (resourceParams(r).length > 0) it.skipIf(!available)("another organization's resource → 404", async () => {
      const res = await h.call(r, await h.token(h.w.owner, scopesOf(r)), { teamId: h.w.otherTeam.id, orgId: h.w.otherOrg.id, override: { orgId: h.w.org.id } });
      expectError(res, 404, 'not_found');
    });
    it.skipIf(!available)('an unknown organization → 404', async () => {
      const res = await h.guardCall(r, await h.token(h.w.owner, scopesOf(r)), { orgId: 'noSuchOrg' });
      expectError(res, 404, 'not_found');
      expect(res.body.error.message).toBe('no such organization');
    });
  });

  describe.each(organizationMember)("organization member's own $method $path", (r) => {
    it.skipIf(!available)('a user outside the organization, only in one of its teams, or invited and not yet accepted → 403 forbidden (docs/rules.md#membership-rules)', async () => {
      expectError(await h.guardCall(r, await h.token(h.w.outsider, scopesOf(r))), 403, 'forbidden');
      expectError(await h.guardCall(r, await h.token(h.w.member, scopesOf(r))), 403, 'forbidden');
      expectError(await h.guardCall(r, await h.token(h.w.invitee, scopesOf(r))), 403, 'forbidden');
    });
    it.skipIf(!available)('a member of any role → success', async () => {
      const { user } = await h.f.membership({ organizationId: h.w.org.id }, 'member');
      expectSuccess(await h.call(r, await h.token(user, scopesOf(r)), { actor: user }));
      expectSuccess(await h.call(r, await h.token(h.w.orgAdmin, scopesOf(r)), { actor: h.w.orgAdmin }));
    });
    it.skipIf(!available)('an unknown organization → 404', async () => {
      expectError(await h.guardCall(r, await h.token(h.w.owner, scopesOf(r)), { orgId: 'noSuchOrg' }), 404, 'not_found');
    });
  });

  describe.each(publicRoutes)('public $method $path', (r) => {
    it.skipIf(!available)('without a token → success (docs/rules.md#public-booking)', async () => {
      expectSuccess(await h.call(r, undefined));
    });
    it.skipIf(!available)('with a garbage token → 401 invalid_token: a token, if sent, is validated', async () => {
      const res = await h.call(r, 'gat_garbage');
      expectError(res, 401, 'invalid_token');
      expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="gatehouse", error="invalid_token", resource_metadata="${h.server.url}/.well-known/oauth-protected-resource/v2"`); // docs/rules.md#protected-resource-metadata
    });
    it.skipIf(!available)('with a valid token of no scope at all → success (needs no scope)', async () => {
      expectSuccess(await h.call(r, await h.token(h.w.outsider, [])));
    });
  });
});
