// Role questions handlers ask of the guard's facts (no extra query: the guard read them).
import { isAdmin, type AccessFacts } from './membership.ts';

/** An admin or owner of the organization the team belongs to. */
export function isOrgAdminOfTeam(facts: AccessFacts): boolean {
  return facts.team?.organizationId != null && isAdmin(facts.team.organizationRole);
}

/** Owners of the team, and admins of its organization, may do what only owners may. */
export function isTeamOwner(facts: AccessFacts): boolean {
  return facts.team?.role === 'owner' || isOrgAdminOfTeam(facts);
}

export function isOrgOwner(facts: AccessFacts): boolean {
  return facts.organization?.role === 'owner';
}
