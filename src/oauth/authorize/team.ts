// docs/rules.md#team-authorization: an authorization that acts for a team (`team_slug`): the
// slug read with the request, the scopes such a grant may hold, and whether the signed-in
// user may give it.
import type { OAuthContext } from '../context.ts';
import { invalidRequest, OAuthError } from '../errors.ts';
import { describeScope } from '../scopes.ts';
import { isTeamSlug } from '../team-slug.ts';
import { answerError, type ErrorAnswer } from './error-answers.ts';
import type { AuthorizationRequest } from './request.ts';

/** Step 10, team_slug: null when the grant is to act for the user. */
export function readTeamSlug(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!isTeamSlug(value)) throw invalidRequest('team_slug must be the slug of a team: lower-case letters, digits and single hyphens, at most 64 characters');
  return value;
}

/**
 * A grant that acts for a team holds only the team family's scopes; the others are left out
 * of it (RFC 6749 §3.3: the token response's `scope` says what was granted), since a team has
 * no profile, calendar or organization of a person's. A legacy request (null) stays as it
 * is: the team's routes are still the only ones it reaches.
 */
export function teamScopesOf(scopes: string[] | null): string[] | null {
  if (scopes === null) return null;
  const team = scopes.filter((s) => describeScope(s)?.family === 'team');
  if (team.length === 0) {
    throw new OAuthError('invalid_scope', 'team_slug asks for an authorization that acts for a team, which holds team scopes only (TEAM_…), and the request names none');
  }
  return team;
}

/**
 * Once a user is signed in: the request with the team `team_slug` names, if the user is an
 * owner or admin of it or of its organization; undefined for anyone else and for a slug no
 * team has, alike, so that the caller's answer (refuseTeam, or prompt=none's
 * consent_required) does not tell which teams exist.
 */
export async function resolveTeam(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<AuthorizationRequest | undefined> {
  if (request.teamSlug === null) return request;
  const team = await ctx.store.findTeamAuthority(request.teamSlug, userId);
  if (team === undefined || !team.mayAuthorize) return undefined;
  return { ...request, team: { id: team.id, name: team.name } };
}

/** The one access_denied of a team authorization the user may not give (resolveTeam), where a page may answer. */
export async function refuseTeam(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<ErrorAnswer> {
  const error = new OAuthError('access_denied', `the signed-in user is not an owner or admin of a team with the slug "${request.teamSlug}": only its owners and admins can authorize an application for a team`);
  return answerError(ctx, request, error, userId);
}

/**
 * The team was deleted, or the user's role in it taken away, between resolveTeam and the
 * grant's transaction: nothing was written, and the answer is resolveTeam's (refuseTeam).
 */
export class TeamAuthorityLost extends Error {}
