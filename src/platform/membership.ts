// Team and organization role decisions of the /v2 platform API (docs/rules.md#membership-rules):
//: given what one storage read told about the path's team or organization, may the
// token's user act there? Pure: no framework, no SQL, no token.
import { isAdmin, type Role } from './authorization-server.ts';
import type { ApiRoute } from './route-table.ts';

export type { Role };

/** What a storage read tells about the team or organization named by the path. */
export interface AccessFacts {
  /** Present when a team was asked for; null when no such team exists. */
  team?: { id: string; organizationId: string | null; role: Role | null; organizationRole: Role | null } | null;
  /** Present when an organization was asked for; null when no such organization exists. */
  organization?: { id: string; role: Role | null } | null;
}

export { isAdmin };

/** A refusal, as the API answers it (status, envelope code, message). */
/** RFC 9449 §7.1: the error of a DPoP challenge, and the nonce a new proof must carry (§9). */
export interface DpopChallenge {
  error: 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce';
  nonce?: string;
}

export type AccessDenial =
  | { status: 401; code: 'unauthorized'; message: string }
  /** `dpop`: the token was presented under the DPoP scheme, or is DPoP-bound (RFC 9449 §7.1): a DPoP challenge answers. */
  | { status: 401; code: 'invalid_token'; message: string; dpop?: DpopChallenge }
  | { status: 403; code: 'insufficient_scope'; message: string; scope: string }
  | { status: 403; code: 'forbidden'; message: string }
  | { status: 404; code: 'not_found'; message: string };

/**
 * docs/rules.md#membership-rules: a legacy grant passes the scope check but gets no bypass
 * here: its user's real memberships decide. ORG_<X> stands in for TEAM_<X> only for an
 * admin or owner of the team's organization.
 */
export function decideMembership(route: Pick<ApiRoute, 'membership'>, facts: AccessFacts, pathOrgId: string | undefined): AccessDenial | null {
  switch (route.membership) {
    case 'none':
    case 'self':
      return null;
    case 'org-admin':
    case 'org-member': {
      const org = facts.organization;
      if (!org) return { status: 404, code: 'not_found', message: 'no such organization' };
      if (route.membership === 'org-member' ? org.role === null : !isAdmin(org.role)) {
        return { status: 403, code: 'forbidden', message: route.membership === 'org-member' ? 'this needs membership of the organization' : 'this needs an admin or owner of the organization' };
      }
      return null;
    }
    case 'team-member':
    case 'team-admin': {
      const team = facts.team;
      // docs/rules.md#membership-rules: a team that is not in the organization of the path does not exist there.
      if (!team || (pathOrgId !== undefined && team.organizationId !== pathOrgId)) {
        return { status: 404, code: 'not_found', message: pathOrgId === undefined ? 'no such team' : 'no such team in this organization' };
      }
      // docs/rules.md#scope-checks: ORG_<X> satisfies TEAM_<X> as a scope; who may act on the team
      // is then decided by roles alone, whichever scope matched.
      const orgAdmin = team.organizationId !== null && isAdmin(team.organizationRole);
      if (orgAdmin) return null;
      if (route.membership === 'team-member' ? team.role !== null : isAdmin(team.role)) return null;
      return {
        status: 403,
        code: 'forbidden',
        message: route.membership === 'team-member' ? 'this needs membership of the team' : 'this needs an admin or owner of the team',
      };
    }
  }
}

