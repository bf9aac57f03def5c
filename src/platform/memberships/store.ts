// Who belongs to a team or an organization, as the /v2 membership routes read it: accepted
// members and pending invitations (docs/rules.md#membership-invitations). Inviting, removing and keeping an owner
// are services/teams/invitations.ts and services/teams/teams.ts.
import type { MembershipTarget, Role as MembershipRole } from '../authorization-server.ts';
import type { Profile } from '../me/store.ts';

export type { MembershipRole, MembershipTarget };

/** What the roster shows of an account: a member's, or the one an invitation by user id names. */
export interface RosterUser {
  email: string;
  name: string;
  username: string;
}

/** An accepted membership, with what the roster shows of its user (the services' Member is a membership with its user's name and e-mail for the pages). */
export interface RosterMember {
  id: string;
  userId: string;
  teamId: string | null;
  organizationId: string | null;
  role: MembershipRole;
  user: RosterUser;
  createdAt: number;
  updatedAt: number;
}

/**
 * A pending invitation: what the inviter named and, of an invitation by user id, that account
 * as the platform answers a pending membership (docs/rules.md#membership-invitations). An
 * invitation by address shows nothing of any account.
 */
export interface PendingInvitation {
  id: string;
  teamId: string | null;
  organizationId: string | null;
  role: MembershipRole;
  /** Exactly one of invitedEmail (lower-case) and invitedUserId is set. */
  invitedEmail: string | null;
  invitedUserId: string | null;
  /** The account invitedUserId names; null for an invitation by address, or once that account is gone. */
  invitee: RosterUser | null;
  createdAt: number;
  updatedAt: number;
}

export type RosterEntry = ({ state: 'accepted' } & RosterMember) | ({ state: 'invited' } & PendingInvitation);

/** A user of an organization, with their organization role and the membership that makes them one. */
export type OrganizationUser = Omit<Profile, 'defaultScheduleId' | 'organizationId' | 'bio' | 'avatarUrl' | 'locale' | 'metadata'> & { role: MembershipRole; createdAt: number; membershipId: string };

export interface MembershipStore {
  /** The target's members and pending invitations, in the order they were added. */
  listRoster(target: MembershipTarget, limit: number, offset: number): Promise<RosterEntry[]>;
  /** The target's membership of that id; undefined when it belongs elsewhere or is an invitation. */
  findMember(target: MembershipTarget, id: string): Promise<RosterMember | undefined>;
  /** The target's pending invitation of that id; undefined when there is none. */
  findInvitation(target: MembershipTarget, id: string): Promise<PendingInvitation | undefined>;
  /** Whether the user is an accepted member of the target. */
  isMember(target: MembershipTarget, userId: string): Promise<boolean>;
  /** Changes a pending invitation's role; an unknown id changes nothing. */
  setInvitationRole(id: string, role: MembershipRole, at: number): Promise<void>;
  /** Withdraws a pending invitation; an unknown id removes nothing. */
  deleteInvitation(id: string): Promise<void>;
  /** The organization's members as users, in the order they joined. */
  listOrganizationUsers(organizationId: string, limit: number, offset: number): Promise<OrganizationUser[]>;
  /** One user of the organization; undefined when they are not a member of it. */
  findOrganizationUser(organizationId: string, userId: string): Promise<OrganizationUser | undefined>;
}
