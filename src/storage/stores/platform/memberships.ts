// MembershipStore (src/platform/memberships/store.ts) over the organizations and invitations
// repositories.
import type { RosterMember, MembershipStore, OrganizationUser, PendingInvitation, RosterEntry, RosterUser } from '../../../platform/memberships/store.ts';
import type { Executor } from '../../repositories/executor.ts';
import * as invitations from '../../repositories/invitations.ts';
import * as repo from '../../repositories/organizations.ts';
import { publicUserFields } from './profiles.ts';

export const toMember = (m: repo.MemberRow): RosterMember => ({
  id: m.id,
  userId: m.user_id,
  teamId: m.team_id,
  organizationId: m.organization_id,
  role: m.role,
  user: { email: m.email, name: m.name, username: m.username },
  createdAt: m.created_at,
  updatedAt: m.updated_at,
});

/** The account an invitation by user id names, when the join found it. */
const inviteeOf = (email: string | null, name: string | null, username: string | null): RosterUser | null =>
  email === null || name === null || username === null ? null : { email, name, username };

export const toInvitation = (i: invitations.InvitationWithInviteeRow): PendingInvitation => ({
  id: i.id,
  teamId: i.team_id,
  organizationId: i.organization_id,
  role: i.role,
  invitedEmail: i.email,
  invitedUserId: i.user_id,
  invitee: inviteeOf(i.invitee_email, i.invitee_name, i.invitee_username),
  createdAt: i.created_at,
  updatedAt: i.updated_at,
});

const toEntry = (r: repo.RosterRow): RosterEntry => {
  const common = { id: r.id, teamId: r.team_id, organizationId: r.organization_id, role: r.role, createdAt: r.created_at, updatedAt: r.updated_at };
  return r.state === 'accepted'
    ? { state: 'accepted', ...common, userId: r.user_id!, user: { email: r.email!, name: r.name!, username: r.username! } }
    : { state: 'invited', ...common, invitedEmail: r.invited_email, invitedUserId: r.invited_user_id, invitee: inviteeOf(r.email, r.name, r.username) };
};

const toOrganizationUser = (u: Awaited<ReturnType<typeof repo.listOrganizationUsers>>[number]): OrganizationUser => ({
  ...publicUserFields(u),
  role: u.role,
  createdAt: u.created_at,
  membershipId: u.membership_id,
});

export function createMembershipStore(db: Executor): MembershipStore {
  return {
    listRoster: async (target, limit, offset) => (await repo.listRoster(db, target, limit, offset)).map(toEntry),
    findMember: async (target, id) => {
      const row = await repo.findMember(db, target, id);
      return row && toMember(row);
    },
    findInvitation: async (target, id) => {
      const row = await invitations.findInvitation(db, target, id);
      return row && toInvitation(row);
    },
    isMember: async (target, userId) => (await repo.findMemberByUser(db, target, userId)) !== undefined,
    setInvitationRole: (id, role, at) => invitations.setInvitationRole(db, id, role, at),
    deleteInvitation: (id) => invitations.deleteInvitation(db, id),
    listOrganizationUsers: async (organizationId, limit, offset) => (await repo.listOrganizationUsers(db, organizationId, limit, offset)).map(toOrganizationUser),
    findOrganizationUser: async (organizationId, userId) => {
      const [row] = await repo.listOrganizationUsers(db, organizationId, 1, 0, userId);
      return row && toOrganizationUser(row);
    },
  };
}
