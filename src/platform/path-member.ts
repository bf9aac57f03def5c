// The user a path names inside a team or an organization (`…/users/:userId/…`,
// docs/rules.md#membership-rules): an accepted member there, or as unknown as a user who does
// not exist. A pending invitee is not a member (docs/rules.md#membership-invitations).
import { notFound } from './input.ts';
import type { AccessFacts } from './membership.ts';
import type { PlatformContext } from './stores.ts';

/** The path's `userId` once it is known to be a member of the path's team, else of its organization. */
export async function memberOfPath(ctx: PlatformContext, call: { params: { userId?: string }; facts: AccessFacts }): Promise<string> {
  const { team, organization } = call.facts;
  const target = team ? { teamId: team.id } : { organizationId: organization!.id };
  const userId = call.params.userId!;
  if (!(await ctx.stores.api.memberships.isMember(target, userId))) throw notFound(team ? 'user in this team' : 'user in this organization');
  return userId;
}
