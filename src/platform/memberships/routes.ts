// Team memberships (TEAM_MEMBERSHIP_*), organization memberships and users (ORG_MEMBERSHIP_*).
// Adding someone creates an invitation (docs/rules.md#membership-invitations): listed with the members as state
// "invited", carrying only what the inviter named, until the invitee accepts in the web app.
// Only owners grant, change or remove the owner role, and the last owner cannot leave.
import type { PlatformDeps } from '../deps.ts';
import type { AccessFacts } from '../membership.ts';
import { createInviteLink, createOrganizationAccount, deleteOrganizationUser, hasControlCharacters, inviteMember, keepingAnOwner, ONE_LINE, removeMember, type Role } from '../authorization-server.ts';
import { route, type HandlerMap } from '../handler.ts';
import { memberOfPath } from '../path-member.ts';
import { checkTimeZone, forbidden, invalid, iso, notFound } from '../input.ts';
import { arrayOf, bool, email, int, listQuery, nullable, numberedId, numberedIdInput, object, patchOf, str, timeZone, withFields, type JsonSchema, type ListQuery } from '../schemas.ts';
import type { RosterMember, MembershipTarget, OrganizationUser, PendingInvitation, RosterEntry } from './store.ts';
import { isOrgOwner, isTeamOwner } from '../roles.ts';
import { profile, profileChanges, profileFields, profileFieldsView, userFields, WEEK_DAYS, type ProfilePatch } from '../me/routes.ts';

const text = { type: 'string' };
/** The platform's spelling of a role in its answers; requests may say either (roleInput). */
const ROLE_OUT = ['MEMBER', 'ADMIN', 'OWNER'] as const;
const membershipView: JsonSchema = object(
  {
    id: { ...numberedId, description: 'Stays the same when the invitee accepts: the invitation becomes the membership' },
    state: { type: 'string', enum: ['invited', 'accepted'], description: 'invited: waiting for the invitee to accept in the web app, and granting nothing until then' },
    accepted: { type: 'boolean', description: 'The platform\'s word for state: true once the invitee accepted' },
    userId: { ...nullable(numberedId), description: 'The member; null while invited' },
    teamId: { ...nullable(numberedId), description: "The team; of an organization's membership, the organization (the platform's organization is a team)" },
    organizationId: nullable(numberedId),
    role: { type: 'string', enum: [...ROLE_OUT] },
    user: { ...nullable(object({ email: text, name: text, username: text }, ['email', 'name', 'username'])), description: 'The member; null while invited' },
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

/** An accepted membership, or an invitation that shows nothing but what the inviter named. */
function membership(m: RosterEntry) {
  const accepted = m.state === 'accepted';
  return {
    id: m.id,
    state: m.state,
    accepted,
    userId: accepted ? m.userId : null,
    teamId: m.teamId ?? m.organizationId,
    organizationId: m.organizationId,
    role: m.role.toUpperCase(),
    user: accepted ? m.user : null,
    invitedEmail: accepted ? null : m.invitedEmail,
    invitedUserId: accepted ? null : m.invitedUserId,
    // Only organization answers declare it; the team ones' serializer drops it.
    attributes: [],
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
  };
}

/** The invitation inviteMember answers with, as the store's record. */
const fromService = (i: Awaited<ReturnType<typeof inviteMember>>): PendingInvitation => ({
  id: i.id,
  teamId: i.teamId,
  organizationId: i.organizationId,
  role: i.role,
  invitedEmail: i.email,
  invitedUserId: i.userId,
  createdAt: i.createdAt,
  updatedAt: i.updatedAt,
});

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
 * invitee's word alone (docs/rules.md#membership-invitations): an inviter may say false (an
 * invitation, which is what the API makes anyway) or, of a membership already accepted, true;
 * never accept for someone.
 */
const platformFlags = {
  accepted: { ...bool, description: 'Only the invitee accepts, in the web app: true is refused for an invitation, false for an accepted membership (remove it instead)' },
  disableImpersonation: { ...bool, description: 'Read and ignored: Gatehouse lets no one act as a member' },
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

const newMembership = object({ userId: numberedIdInput, email, role: { ...roleInput, default: 'member' }, ...platformFlags });
const membershipPatch = patchOf({ role: roleInput, ...platformFlags });

const ACCEPT_IN_WEB_APP = 'only the invitee accepts an invitation, in the web app (/settings/teams)';

type Kind = 'team' | 'organization';
const targetOf = (kind: Kind, facts: AccessFacts): MembershipTarget =>
  kind === 'team' ? { teamId: facts.team!.id } : { organizationId: facts.organization!.id };
const actsAsOwner = (kind: Kind, facts: AccessFacts) => (kind === 'team' ? isTeamOwner(facts) : isOrgOwner(facts));

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

type Found = { member: RosterMember } | { invitation: PendingInvitation };

/** A member, or a pending invitation, of the target. */
async function findMembership(deps: PlatformDeps, target: MembershipTarget, id: string): Promise<Found> {
  const memberships = deps.services.stores.api.memberships;
  const member = await memberships.findMember(target, id);
  if (member !== undefined) return { member };
  const invitation = await memberships.findInvitation(target, id);
  if (invitation !== undefined) return { invitation };
  throw notFound('membership');
}

const viewOf = (found: Found): ReturnType<typeof membership> =>
  membership('member' in found ? { state: 'accepted', ...found.member } : { state: 'invited', ...found.invitation });

function requireOwnerFor(kind: Kind, facts: AccessFacts, touchesOwner: boolean): void {
  if (touchesOwner && !actsAsOwner(kind, facts)) throw forbidden(`only an owner of the ${kind} may grant, change or remove the owner role`);
}

const lastOwner = (kind: Kind) => `the ${kind} must keep at least one owner: make someone else owner first`;

/** Members and pending invitations together, so an invitee shows up before accepting. */
function rosterRoute(deps: PlatformDeps, kind: Kind) {
  const memberships = deps.services.stores.api.memberships;
  return route<unknown, ListQuery>({
    query: listQuery(),
    data: arrayOf(viewSchema(kind), 0, 100),
    handle: async ({ facts, query }) => (await memberships.listRoster(targetOf(kind, facts), query.limit, query.offset)).map(membership),
  });
}

function inviteRoute(deps: PlatformDeps, kind: Kind) {
  return route<NewMembership>({
    body: newMembership,
    data: viewSchema(kind),
    status: 201,
    handle: async ({ userId, facts, body }) => {
      if ((body.userId === undefined) === (body.email === undefined)) throw invalid('userId', 'give exactly one of userId and email');
      if (body.accepted === true) throw invalid('accepted', `must be false or left out: ${ACCEPT_IN_WEB_APP}`);
      const role = roleOf(body.role ?? 'member');
      requireOwnerFor(kind, facts, role === 'owner');
      // docs/rules.md#membership-invitations: an invitation, answered alike whether or not an account is named.
      const invitee = body.email !== undefined ? { email: body.email } : { userId: body.userId! };
      return membership({ state: 'invited', ...fromService(await inviteMember(deps.services, targetOf(kind, facts), invitee, role, userId)) });
    },
  });
}

function getMembershipRoute(deps: PlatformDeps, kind: Kind) {
  return route<unknown, unknown, { membershipId: string }>({
    data: viewSchema(kind),
    handle: async ({ facts, params }) => viewOf(await findMembership(deps, targetOf(kind, facts), params.membershipId)),
  });
}

function changeRoleRoute(deps: PlatformDeps, kind: Kind) {
  const { clock } = deps.services;
  const memberships = deps.services.stores.api.memberships;
  return route<MembershipPatch, unknown, { membershipId: string }>({
    body: membershipPatch,
    data: viewSchema(kind),
    handle: async ({ facts, params, body }) => {
      const target = targetOf(kind, facts);
      const found = await findMembership(deps, target, params.membershipId);
      const role = body.role === undefined ? undefined : roleOf(body.role);
      if ('invitation' in found) {
        if (body.accepted === true) throw invalid('accepted', `cannot be set to true: ${ACCEPT_IN_WEB_APP}`);
        if (role === undefined) return viewOf(found);
        // An invitation's role changes freely: it holds no owner yet.
        requireOwnerFor(kind, facts, found.invitation.role === 'owner' || role === 'owner');
        await memberships.setInvitationRole(found.invitation.id, role, clock());
        return viewOf(await findMembership(deps, target, found.invitation.id));
      }
      const current = found.member;
      if (body.accepted === false) throw invalid('accepted', 'cannot be set to false: the membership is accepted; remove it (DELETE) instead');
      if (role === undefined) return viewOf(found);
      requireOwnerFor(kind, facts, current.role === 'owner' || role === 'owner');
      await keepingAnOwner(deps.services, target, current.role === 'owner' && role !== 'owner', lastOwner(kind), (tx) =>
        tx.teams.setMembershipRole(current.id, role, clock()),
      );
      return viewOf(await findMembership(deps, target, current.id));
    },
  });
}

/** Removes a member, or withdraws an invitation; the last owner stays. */
function removeMembershipRoute(deps: PlatformDeps, kind: Kind) {
  const { clock } = deps.services;
  const memberships = deps.services.stores.api.memberships;
  return route<unknown, unknown, { membershipId: string }>({
    data: deletedView(kind),
    handle: async ({ facts, params }) => {
      const target = targetOf(kind, facts);
      const found = await findMembership(deps, target, params.membershipId);
      const gone = { ...viewOf(found), deleted: true };
      if ('invitation' in found) {
        requireOwnerFor(kind, facts, found.invitation.role === 'owner');
        await memberships.deleteInvitation(found.invitation.id);
        return gone;
      }
      const current = found.member;
      requireOwnerFor(kind, facts, current.role === 'owner');
      await keepingAnOwner(deps.services, target, current.role === 'owner', lastOwner(kind), (tx) =>
        removeMember(tx, { id: current.id, userId: current.userId, teamId: current.teamId, organizationId: current.organizationId }, clock()),
      );
      return gone;
    },
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
  const { clock } = deps.services;
  const memberships = deps.services.stores.api.memberships;
  const profiles = deps.services.stores.api.profiles;
  /** The user as an organization's admin sees them in full: the profile and their place in the organization. */
  const fullUser = async (organizationId: string, userId: string) => {
    const user = await memberships.findOrganizationUser(organizationId, userId);
    const found = await profiles.find(userId);
    if (user === undefined || found === undefined) throw notFound('user in this organization');
    return { ...profile(found), ...orgUser(user, organizationId) };
  };
  return {
    // docs/rules.md#organization-made-accounts: no password is made, mailed or answered.
    'orgUsers.create': route<NewOrgUser>({
      body: newOrgUser,
      data: changedUserView,
      status: 201,
      handle: async ({ userId, facts, body }) => {
        if (body.autoAccept === false) throw invalid('autoAccept', 'must be true or left out: the account is made a member of the organization at once; to invite an existing user, POST /v2/organizations/{orgId}/memberships');
        checkTimeZone(body.timeZone);
        const role = roleOf(body.organizationRole ?? 'member');
        requireOwnerFor('organization', facts, role === 'owner');
        const address = body.email.trim().toLowerCase();
        const name = (body.name ?? body.username ?? address.split('@')[0]!).trim();
        if (name === '') throw invalid('name', 'must not be blank');
        if (hasControlCharacters(name)) throw invalid('name', ONE_LINE);
        const organizationId = facts.organization!.id;
        const { user } = await createOrganizationAccount(
          deps.services,
          organizationId,
          {
            email: address,
            name,
            role,
            ...(body.username !== undefined ? { username: body.username.toLowerCase() } : {}),
            ...(body.timeZone !== undefined ? { timeZone: body.timeZone } : {}),
            ...(body.weekday !== undefined ? { weekStart: body.weekday } : {}),
            ...(body.timeFormat !== undefined ? { timeFormat: body.timeFormat } : {}),
          },
          userId,
        );
        return fullUser(organizationId, user.id);
      },
    }),
    // docs/rules.md#organization-made-accounts: the account goes only when the organization
    // made it and it belongs nowhere else; `outcome` says which was done.
    'orgUsers.delete': route<unknown, unknown, { userId: string }>({
      data: withFields(changedUserView, {
        outcome: { type: 'string', enum: ['account deleted', 'removed from the organization'], description: "Gatehouse's addition: whether the account was deleted or the user only left the organization" },
      }),
      handle: async ({ userId, facts, params }) => {
        const organizationId = facts.organization!.id;
        // fullUser is 404 for anyone who is not an accepted member here (docs/rules.md#membership-invitations).
        const before = await fullUser(organizationId, params.userId);
        requireOwnerFor('organization', facts, before.role === 'owner');
        const outcome = await deleteOrganizationUser(deps.services, organizationId, params.userId, userId, lastOwner('organization'));
        return { ...before, outcome };
      },
    }),
    'orgUsers.list': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(userView, 0, 100),
      handle: async ({ facts, query }) => (await memberships.listOrganizationUsers(facts.organization!.id, query.limit, query.offset)).map((u) => orgUser(u, facts.organization!.id)),
    }),
    // Cal.com's API v2 sends this update with no field at all: an empty body changes nothing
    // and answers the user as they are.
    'orgUsers.update': route<ProfilePatch, unknown, { userId: string }>({
      body: object(profileFields),
      data: changedUserView,
      handle: async ({ facts, params, body }) => {
        await memberOfPath(deps.services, { params, facts });
        const changes = profileChanges(body);
        if (Object.keys(changes).length > 0) await deps.services.stores.users.updateProfile(params.userId, changes, clock());
        const organizationId = facts.organization!.id;
        const user = await memberships.findOrganizationUser(organizationId, params.userId);
        if (user === undefined) throw notFound('user in this organization');
        return { ...profile((await profiles.find(params.userId))!), ...orgUser(user, organizationId) };
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
