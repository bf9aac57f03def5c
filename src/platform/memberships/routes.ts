// Team memberships (TEAM_MEMBERSHIP_*), organization memberships and users (ORG_MEMBERSHIP_*).
// Adding someone creates an invitation (docs/rules.md#membership-invitations): listed with the members as state
// "invited", `accepted: false`, until the invitee accepts in the web app; one by user id shows
// that user as the platform shows a pending membership, one by address shows nothing of any
// account. Only owners grant, change or remove the owner role, and the last owner cannot leave.
import type { PlatformDeps } from '../deps.ts';
import type { AccessFacts } from '../membership.ts';
import { createInviteLink, type Role } from '../authorization-server.ts';
import { route, type HandlerMap } from '../handler.ts';
import { iso } from '../input.ts';
import { arrayOf, bool, email, int, listQuery, nullable, numberedId, numberedIdInput, object, patchOf, str, timeZone, withFields, type JsonSchema, type ListQuery } from '../schemas.ts';
import type { MembershipTarget, OrganizationUser, RosterEntry } from './store.ts';
import { isOrgOwner, isTeamOwner } from '../roles.ts';
import { profile, profileFields, profileFieldsView, userFields, WEEK_DAYS, type ProfilePatch } from '../me/routes.ts';
import {
  changeMembership,
  createOrganizationUser,
  deleteUserOfOrganization,
  addMembership,
  entryOf,
  findMembership,
  listOrganizationUsers,
  listRoster,
  removeMembership,
  updateOrganizationUser,
  type Found,
  type FullOrganizationUser,
  type RosterScope,
} from './service.ts';

const text = { type: 'string' };
/** The platform's spelling of a role in its answers; requests may say either (roleInput). */
const ROLE_OUT = ['MEMBER', 'ADMIN', 'OWNER'] as const;
const membershipView: JsonSchema = object(
  {
    id: { ...numberedId, description: 'Stays the same when the invitee accepts: the invitation becomes the membership' },
    state: { type: 'string', enum: ['invited', 'accepted'], description: 'invited: waiting for the invitee to accept in the web app, and granting nothing until then' },
    accepted: { type: 'boolean', description: 'The platform\'s word for state: true once the invitee accepted' },
    userId: { ...nullable(numberedId), description: 'The member, or the user an invitation names; null for an invitation by e-mail' },
    teamId: { ...nullable(numberedId), description: "The team; of an organization's membership, the organization (the platform's organization is a team)" },
    organizationId: nullable(numberedId),
    role: { type: 'string', enum: [...ROLE_OUT] },
    user: {
      ...nullable(object({ email: text, name: text, username: text }, ['email', 'name', 'username'])),
      description: 'The member, or the user an invitation by user id names; null for an invitation by e-mail (which reveals nothing of any account)',
    },
    invitedEmail: { ...nullable(text), description: 'While invited: the address the inviter named (lower-case), else null' },
    invitedUserId: { ...nullable(numberedId), description: 'While invited: the user id the inviter named, else null' },
    createdAt: text,
    updatedAt: text,
  },
  ['id', 'state', 'accepted', 'userId', 'teamId', 'organizationId', 'role', 'user', 'invitedEmail', 'invitedUserId', 'createdAt', 'updatedAt'],
);
/** An organization's membership also carries the platform's member attributes: Gatehouse keeps none, so always an empty list. */
const orgMembershipView: JsonSchema = withFields(membershipView, { attributes: { ...arrayOf(object({}), 0, 0), description: 'Always empty: Gatehouse keeps no member attributes' } });
const viewSchema = (kind: Kind) => (kind === 'team' ? membershipView : orgMembershipView);
/** The answer of a delete: the membership as it was, as the platform answers, and that it is gone. */
const deletedView = (kind: Kind): JsonSchema => withFields(viewSchema(kind), { deleted: bool });

/**
 * An accepted membership, or an invitation in the platform's shape of a pending membership:
 * the user it names (by id) with `accepted: false`; one by address names no user.
 */
function membership(m: RosterEntry) {
  const accepted = m.state === 'accepted';
  return {
    id: m.id,
    state: m.state,
    accepted,
    userId: accepted ? m.userId : m.invitedUserId,
    teamId: m.teamId ?? m.organizationId,
    organizationId: m.organizationId,
    role: m.role.toUpperCase(),
    user: accepted ? m.user : m.invitee,
    invitedEmail: accepted ? null : m.invitedEmail,
    invitedUserId: accepted ? null : m.invitedUserId,
    // Only organization answers declare it; the team ones' serializer drops it.
    attributes: [],
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
  };
}

/** What the platform shows of a user's place in the organization: their membership there. */
const orgProfile: JsonSchema = object(
  {
    id: { ...numberedId, description: "The user's membership of the organization" },
    organizationId: numberedId,
    userId: numberedId,
    username: text,
  },
  ['id', 'organizationId', 'userId', 'username'],
);
const orgUserFields = {
  role: { type: 'string' },
  hideBranding: { type: 'boolean', description: 'Always false: Gatehouse hides no branding' },
  createdDate: { ...text, format: 'date-time', description: 'When the account was created' },
  profile: orgProfile,
};
const userView: JsonSchema = withFields(object(userFields, Object.keys(userFields)), orgUserFields);
/** An organization user after a change: the list's view and the rest of the profile. */
const changedUserView: JsonSchema = withFields(object(profileFieldsView, Object.keys(profileFieldsView)), orgUserFields);

function orgUser(u: OrganizationUser, organizationId: string) {
  const { createdAt, membershipId, ...user } = u;
  return { ...user, hideBranding: false, createdDate: iso(createdAt), profile: { id: membershipId, organizationId, userId: u.id, username: u.username } };
}

/** The user as an organization's admin sees them in full: the profile and their place in the organization. */
const fullUserView = (found: FullOrganizationUser, organizationId: string) => ({ ...profile(found.profile), ...orgUser(found.user, organizationId) });

/**
 * A role as Cal.com's API v2 writes it (upper-case, as every answer shows it) or as Gatehouse
 * did before (lower-case): both are read, and stored lower-case.
 */
const ROLES = ['member', 'admin', 'owner'] as const;
const roleInput: JsonSchema = { type: 'string', enum: [...ROLES, ...ROLES.map((r) => r.toUpperCase())], description: 'MEMBER, ADMIN or OWNER, as answers write it (member, admin and owner are read alike)' };
const roleOf = (value: string): Role => value.toLowerCase() as Role;

/**
 * The platform's `accepted` and `disableImpersonation`. Gatehouse impersonates no one, so
 * `disableImpersonation` changes nothing either way and is read and ignored. `accepted` is the
 * invitee's word alone (docs/rules.md#membership-invitations): on a new membership, true makes
 * an invitation like false, except for an organization's own account that its admin adds to
 * one of its teams (docs/rules.md#organization-made-accounts); a change never accepts for
 * someone.
 */
const disableImpersonation = { ...bool, description: 'Read and ignored: Gatehouse lets no one act as a member' };
const newMembershipFlags = {
  accepted: {
    ...bool,
    description:
      "Only the invitee accepts, in the web app: true makes an invitation (answered accepted: false), except that an admin of a team's organization adds an account the organization made to the team at once",
  },
  disableImpersonation,
};
const changedMembershipFlags = {
  accepted: { ...bool, description: 'Only the invitee accepts, in the web app: true is refused for an invitation, false for an accepted membership (remove it instead)' },
  disableImpersonation,
};

interface NewMembership {
  userId?: string;
  email?: string;
  role?: string;
  accepted?: boolean;
  disableImpersonation?: boolean;
}

interface MembershipPatch {
  role?: string;
  accepted?: boolean;
  disableImpersonation?: boolean;
}

const newMembership = object({
  userId: { ...numberedIdInput, description: 'The user to add, as the platform names them; the answer shows that user (404 when no user has this id)' },
  email: { ...email, description: "Gatehouse's addition: invite an address instead; the answer is the same whether or not it has an account" },
  role: { ...roleInput, default: 'member' },
  ...newMembershipFlags,
});
const membershipPatch = patchOf({ role: roleInput, ...changedMembershipFlags });

type Kind = 'team' | 'organization';
const targetOf = (kind: Kind, facts: AccessFacts): MembershipTarget =>
  kind === 'team' ? { teamId: facts.team!.id } : { organizationId: facts.organization!.id };
const actsAsOwner = (kind: Kind, facts: AccessFacts) => (kind === 'team' ? isTeamOwner(facts) : isOrgOwner(facts));
const scopeOf = (kind: Kind, facts: AccessFacts): RosterScope => ({ kind, target: targetOf(kind, facts), callerIsOwner: actsAsOwner(kind, facts) });
/** An organization's users routes: the path's organization, and whether the caller owns it. */
const orgScopeOf = (facts: AccessFacts) => ({ organizationId: facts.organization!.id, callerIsOwner: isOrgOwner(facts) });

export function membershipHandlers(deps: PlatformDeps): HandlerMap {
  const team = membershipRoutes(deps, 'team');
  const org = membershipRoutes(deps, 'organization');
  return {
    'teamMemberships.list': team.list,
    'teamMemberships.create': team.create,
    'teamMemberships.get': team.get,
    'teamMemberships.update': team.update,
    'teamMemberships.delete': team.delete,
    'teamInvite.create': inviteLinkRoute(deps),
    'orgMemberships.list': org.list,
    'orgMemberships.create': org.create,
    'orgMemberships.get': org.get,
    'orgMemberships.update': org.update,
    'orgMemberships.delete': org.delete,
    ...organizationUserRoutes(deps),
  };
}

/** The same five routes for a team's and an organization's members and invitations. */
function membershipRoutes(deps: PlatformDeps, kind: Kind) {
  return {
    list: rosterRoute(deps, kind),
    create: inviteRoute(deps, kind),
    get: getMembershipRoute(deps, kind),
    update: changeRoleRoute(deps, kind),
    delete: removeMembershipRoute(deps, kind),
  };
}

const viewOf = (found: Found): ReturnType<typeof membership> => membership(entryOf(found));

/** Members and pending invitations together, so an invitee shows up before accepting. */
function rosterRoute(deps: PlatformDeps, kind: Kind) {
  return route<unknown, ListQuery>({
    query: listQuery(),
    data: arrayOf(viewSchema(kind), 0, 100),
    handle: async ({ facts, query }) => (await listRoster(deps.services, targetOf(kind, facts), query.limit, query.offset)).map(membership),
  });
}

function inviteRoute(deps: PlatformDeps, kind: Kind) {
  return route<NewMembership>({
    body: newMembership,
    data: viewSchema(kind),
    status: 201,
    handle: async ({ userId, facts, body }) => {
      const input = {
        role: roleOf(body.role ?? 'member'),
        ...(body.userId !== undefined ? { userId: body.userId } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.accepted !== undefined ? { accepted: body.accepted } : {}),
      };
      return viewOf(await addMembership(deps.services, scopeOf(kind, facts), input, userId));
    },
  });
}

function getMembershipRoute(deps: PlatformDeps, kind: Kind) {
  return route<unknown, unknown, { membershipId: string }>({
    data: viewSchema(kind),
    handle: async ({ facts, params }) => viewOf(await findMembership(deps.services, targetOf(kind, facts), params.membershipId)),
  });
}

function changeRoleRoute(deps: PlatformDeps, kind: Kind) {
  return route<MembershipPatch, unknown, { membershipId: string }>({
    body: membershipPatch,
    data: viewSchema(kind),
    handle: async ({ facts, params, body }) => {
      const change = {
        ...(body.role !== undefined ? { role: roleOf(body.role) } : {}),
        ...(body.accepted !== undefined ? { accepted: body.accepted } : {}),
      };
      return viewOf(await changeMembership(deps.services, scopeOf(kind, facts), params.membershipId, change));
    },
  });
}

/** Removes a member, or withdraws an invitation; the last owner stays. */
function removeMembershipRoute(deps: PlatformDeps, kind: Kind) {
  return route<unknown, unknown, { membershipId: string }>({
    data: deletedView(kind),
    handle: async ({ userId, facts, params }) => ({ ...viewOf(await removeMembership(deps.services, scopeOf(kind, facts), params.membershipId, userId)), deleted: true }),
  });
}

/**
 * CreateOrganizationUserInput, as far as Gatehouse keeps it. The platform's other fields
 * (brand colours, bio, avatar, theme, locale, metadata...) are not kept and are dropped;
 * `name` is Gatehouse's addition, the platform's request having none.
 */
const newOrgUser = object(
  {
    email,
    username: str(1, 40, { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', description: 'Letters, digits, dots, dashes and underscores; kept lower-case. Generated from the address when left out' }),
    name: { ...str(1, 100), description: "Gatehouse's addition: the display name; the username, else the address's mailbox, when left out" },
    timeZone,
    weekday: { type: 'string', enum: WEEK_DAYS, description: 'The first day of the week (weekStart in answers)' },
    timeFormat: int(12, 24, { enum: [12, 24] }),
    organizationRole: { ...roleInput, default: 'MEMBER' },
    autoAccept: { ...bool, default: true, description: 'The account is the organization\'s member at once: false is refused' },
  },
  ['email'],
);

interface NewOrgUser {
  email: string;
  username?: string;
  name?: string;
  timeZone?: string;
  weekday?: string;
  timeFormat?: number;
  organizationRole?: string;
  autoAccept?: boolean;
}

/** An organization's users, and the profile fields its admins may change (users table). */
function organizationUserRoutes(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  return {
    // docs/rules.md#organization-made-accounts: no password is made, mailed or answered.
    'orgUsers.create': route<NewOrgUser>({
      body: newOrgUser,
      data: changedUserView,
      status: 201,
      handle: async ({ userId, facts, body }) => {
        const scope = orgScopeOf(facts);
        const input = {
          email: body.email,
          role: roleOf(body.organizationRole ?? 'member'),
          ...(body.username !== undefined ? { username: body.username } : {}),
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.timeZone !== undefined ? { timeZone: body.timeZone } : {}),
          ...(body.weekday !== undefined ? { weekStart: body.weekday } : {}),
          ...(body.timeFormat !== undefined ? { timeFormat: body.timeFormat } : {}),
          ...(body.autoAccept !== undefined ? { autoAccept: body.autoAccept } : {}),
        };
        return fullUserView(await createOrganizationUser(ctx, scope, input, userId), scope.organizationId);
      },
    }),
    // docs/rules.md#organization-made-accounts: the account goes only when the organization
    // made it and it belongs nowhere else; `outcome` says which was done.
    'orgUsers.delete': route<unknown, unknown, { userId: string }>({
      data: withFields(changedUserView, {
        outcome: { type: 'string', enum: ['account deleted', 'removed from the organization'], description: "Gatehouse's addition: whether the account was deleted or the user only left the organization" },
      }),
      handle: async ({ userId, facts, params }) => {
        const scope = orgScopeOf(facts);
        const { outcome, ...before } = await deleteUserOfOrganization(ctx, scope, params.userId, userId);
        return { ...fullUserView(before, scope.organizationId), outcome };
      },
    }),
    'orgUsers.list': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(userView, 0, 100),
      handle: async ({ facts, query }) => (await listOrganizationUsers(ctx, facts.organization!.id, query.limit, query.offset)).map((u) => orgUser(u, facts.organization!.id)),
    }),
    // Cal.com's API v2 sends this update with no field at all: an empty body changes nothing
    // and answers the user as they are.
    'orgUsers.update': route<ProfilePatch, unknown, { userId: string }>({
      body: object(profileFields),
      data: changedUserView,
      handle: async ({ facts, params, body }) => {
        const organizationId = facts.organization!.id;
        return fullUserView(await updateOrganizationUser(ctx, organizationId, params.userId, body), organizationId);
      },
    }),
  };
}

/**
 * docs/rules.md#invite-links: an invite link of the path's team. The token is its
 * secret, shown here once (only its hash is kept); the link opens the web app's page where a
 * signed-in user joins the team as a member. Each call makes a new link.
 */
function inviteLinkRoute(deps: PlatformDeps) {
  return route<unknown, unknown, { teamId: string }>({
    data: object(
      {
        token: { type: 'string', description: 'The secret of the link, shown only here: whoever holds it may join the team until it expires' },
        inviteLink: { type: 'string', description: "The web app's page where a signed-in user (or one who logs in first) joins the team with the token" },
        expiresAt: { type: 'string', format: 'date-time', description: 'When the link stops working: 7 days after it was made' },
      },
      ['token', 'inviteLink', 'expiresAt'],
    ),
    noStore: true,
    handle: async (call) => {
      // docs/rules.md#invite-links: the link lives no longer than the grant of the token that made it.
      const made = await createInviteLink(deps.services, { teamId: call.facts.team!.id, createdBy: call.userId, grantId: call.principal?.grantId ?? null }, deps.config.appUrl);
      return { token: made.token, inviteLink: made.inviteLink, expiresAt: iso(made.expiresAt) };
    },
  });
}
