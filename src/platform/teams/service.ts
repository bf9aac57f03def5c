// The rules of a team's profile as the /v2 team routes reach it, and every store call they
// make: a team is made with its owner's membership (createTeam), changed with the checks its
// creation takes (updateTeamProfile), and deleted only by an owner, since it takes every event
// type, booking and form of the team with it. The guard has already found the path's team.
import { createTeam, type Team, updateTeamProfile } from '../authorization-server.ts';
import { forbidden, notFound } from '../input.ts';
import type { PlatformContext } from '../stores.ts';

export type { Team } from '../authorization-server.ts';

/** What a caller may set of a team. */
export interface TeamInput {
  name: string;
  slug?: string;
  bio?: string;
  timeZone?: string;
  brandColor?: string;
}

/** The team, or 404 when it is gone. */
export async function findTeam(ctx: PlatformContext, teamId: string): Promise<Team> {
  const found = await ctx.stores.teams.findTeam(teamId);
  if (found === undefined) throw notFound('team');
  return found;
}

/**
 * A new team owned by the caller, in the organization when one is given; audited as the
 * caller's, through the token's application (docs/rules.md#audit-events).
 */
export function createOwnTeam(ctx: PlatformContext, ownerId: string, organizationId: string | null, input: TeamInput, clientId: string | null): Promise<Team> {
  return createTeam(ctx, { ...input, ownerId, organizationId }, { actorId: ownerId, clientId });
}

/** The teams the user is a member of, only those of the organization when one is given. */
export function listTeamsOfUser(ctx: PlatformContext, userId: string, filter: { organizationId?: string }, limit: number, offset: number): Promise<Team[]> {
  return ctx.stores.teams.listTeamsOfUser(userId, filter, limit, offset);
}

export function listTeamsOfOrganization(ctx: PlatformContext, organizationId: string, limit: number, offset: number): Promise<Team[]> {
  return ctx.stores.teams.listTeamsOfOrganization(organizationId, limit, offset);
}

/** Changes the team's profile with the checks a new team passes (a rename's name check included). */
export function updateTeam(ctx: PlatformContext, teamId: string, input: Partial<TeamInput>): Promise<Team> {
  return updateTeamProfile(ctx, teamId, input);
}

/** Deletes the team, owners only (isTeamOwner of the guard's facts); answers it as it was. */
export async function deleteTeam(ctx: PlatformContext, teamId: string, callerIsOwner: boolean, actorId: string): Promise<Team> {
  if (!callerIsOwner) throw forbidden('only an owner of the team, or an admin of its organization, may delete it');
  const current = await findTeam(ctx, teamId);
  if (!(await ctx.stores.teams.deleteTeam(current.id, actorId, ctx.clock()))) throw notFound('team');
  return current;
}
