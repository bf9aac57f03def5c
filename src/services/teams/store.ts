// The stores of teams: organizations, teams, memberships (docs/rules.md#data) and the invitations that
// become memberships (docs/rules.md#membership-invitations). Implemented in src/storage/stores/teams.ts; every
// method runs in the transaction its store was built over (ServiceStores.transaction).

export type Role = 'member' | 'admin' | 'owner';
/** Where a membership or invitation is: a team or an organization. */
export type MembershipTarget = { teamId: string } | { organizationId: string };

export interface Organization {
  id: string;
  name: string;
  slug: string;
  createdAt: number;
  updatedAt: number;
}

export interface Team {
  id: string;
  organizationId: string | null;
  name: string;
  slug: string;
  bio: string;
  timeZone: string;
  brandColor: string;
  createdAt: number;
  updatedAt: number;
}

/** What a team's profile routes may change. */
export type TeamChanges = Partial<Pick<Team, 'name' | 'slug' | 'bio' | 'timeZone' | 'brandColor'>> & { updatedAt: number };

/** An accepted membership of a team (teamId set) or an organization (organizationId set). */
export interface Membership {
  id: string;
  userId: string;
  teamId: string | null;
  organizationId: string | null;
  role: Role;
  createdAt: number;
  updatedAt: number;
}

/** A membership as its user sees it: what it is of, and how many owners that place has. */
export interface MembershipOfUser extends Membership {
  targetName: string;
  /** The organization of the team, for a team in one. */
  teamOrgName: string | null;
  owners: number;
}

/** An organization as an operator lists it (`gatehouse orgs list`). */
export interface OrganizationSummary extends Organization {
  members: number;
  teams: number;
}

/** A team as an operator lists it (`gatehouse teams list`). */
export interface TeamSummary extends Team {
  /** Its organization's name; null for a team in none. */
  organizationName: string | null;
  members: number;
}

/** An accepted member, with the account's address and name. */
export interface Member extends Membership {
  email: string;
  name: string;
}

export interface TeamStore {
  /** Inserts the organization; a duplicate id or slug rejects. */
  insertOrganization(organization: Organization): Promise<void>;
  /** The organization; undefined when there is none. */
  findOrganization(id: string): Promise<Organization | undefined>;
  /** Inserts the team. Returns false, writing nothing, when its slug is taken. */
  insertTeam(team: Team): Promise<boolean>;
  /** The team; undefined when there is none. */
  findTeam(id: string): Promise<Team | undefined>;
  /** The teams of these ids that exist, in no particular order; unknown ids are left out. */
  findTeams(ids: string[]): Promise<Team[]>;
  /**
   * Changes the team and returns it as stored; undefined when there is no such team,
   * 'slugTaken' (nothing changed) when another team has the new slug.
   */
  updateTeam(id: string, changes: TeamChanges): Promise<Team | 'slugTaken' | undefined>;
  /**
   * Removes the team and everything of it (event types, bookings, forms...), and revokes the
   * grants that acted for it, audited as `actorId`'s doing; false when there was none.
   */
  deleteTeam(id: string, actorId: string, at: number): Promise<boolean>;
  /** The organization's teams, oldest first. */
  listTeamsOfOrganization(organizationId: string, limit: number, offset: number): Promise<Team[]>;
  /** The teams the user is a member of (not invited to), oldest first; with `organizationId`, only that organization's. */
  listTeamsOfUser(userId: string, filter: { organizationId?: string }, limit: number, offset: number): Promise<Team[]>;
  /** At most `limit` organizations, oldest first (then by id), each with its member and team counts. */
  listOrganizations(limit: number): Promise<OrganizationSummary[]>;
  /**
   * At most `limit` teams, oldest first (then by id), each with its member count: every team,
   * or with `organizationId` that organization's (none for an unknown one).
   */
  listTeams(filter: { organizationId?: string }, limit: number): Promise<TeamSummary[]>;
  /** At most `limit` accepted members of the target (not invitations), oldest first (then by id); none for an unknown target. */
  listMembers(target: MembershipTarget, limit: number): Promise<Member[]>;
  /**
   * Of each of these teams, what listMembers answers for it (at most `limit` accepted members,
   * oldest first, then by id), in one read, keyed by team id; a team without members (or
   * unknown) has an empty list.
   */
  listMembersOfTeams(teamIds: string[], limit: number): Promise<Map<string, Member[]>>;
  /** Inserts the membership. Returns false, writing nothing, when the user is already a member there. */
  insertMembership(membership: Membership): Promise<boolean>;
  /** The user's membership of the target; undefined when the user is not a member there. */
  findMembershipOfUser(target: MembershipTarget, userId: string): Promise<Membership | undefined>;
  /** The membership of the target held by the user with this (lower-case) email; undefined when none. */
  findMembershipByEmail(target: MembershipTarget, email: string): Promise<Membership | undefined>;
  /** The membership with this id if it is the user's; undefined otherwise (or when gone). */
  findUsersMembership(membershipId: string, userId: string): Promise<Membership | undefined>;
  /** The user's memberships (at most 500), oldest first. */
  listMembershipsOfUser(userId: string): Promise<MembershipOfUser[]>;
  /**
   * Takes the target's row lock until the transaction ends (a portable SELECT ... FOR
   * UPDATE), serializing changes of one team's members. Meaningful only in a transaction.
   */
  lockTarget(target: MembershipTarget, at: number): Promise<void>;
  /** How many owners the target has. */
  countOwners(target: MembershipTarget): Promise<number>;
  /** Changes a membership's role; an unknown id is no-op. */
  setMembershipRole(id: string, role: Role, at: number): Promise<void>;
  /** Deletes a membership; an unknown id is no-op. */
  deleteMembership(id: string): Promise<void>;
}

/** An open invitation, of an address or of a user id, to a team or an organization. */
export interface Invitation {
  id: string;
  teamId: string | null;
  organizationId: string | null;
  email: string | null;
  userId: string | null;
  role: Role;
  /** Null once the inviting account is gone. */
  invitedBy: string | null;
  createdAt: number;
  updatedAt: number;
}

/** An invitation as its invitee sees it: what it is for and who sent it. */
export interface InvitationForUser extends Invitation {
  targetName: string;
  teamOrgName: string | null;
  inviterName: string | null;
}

/**
 * The account answering an invitation: an invitation is its own when it named the account's
 * id or its (lower-case) address.
 */
export interface Answerer {
  id: string;
  email: string;
}

export interface InvitationStore {
  /** Inserts the invitation. Returns false, writing nothing, when that invitee is already invited there. */
  insert(invitation: Invitation): Promise<boolean>;
  /** The invitations waiting for this account (by id or address), newest first, at most 200. */
  listFor(answerer: Answerer): Promise<InvitationForUser[]>;
  /**
   * Deletes the invitation if it is this account's and returns it; undefined when it is
   * someone else's or already gone. Of two concurrent takes exactly one gets it (ARCHITECTURE.md#single-use-is-atomic).
   */
  take(id: string, answerer: Answerer): Promise<Invitation | undefined>;
  /** Deletes every invitation of this account (by id and by address) to the target. */
  deleteAllFor(target: MembershipTarget, answerer: Answerer): Promise<void>;
}

/** docs/rules.md#membership-invitations: a link anyone signed in may join a team by, until it expires. */
export interface InviteLink {
  /** SHA-256 of the token (hashToken): the token is shown once and never kept. */
  tokenHash: string;
  teamId: string;
  createdBy: string | null;
  expiresAt: number;
  createdAt: number;
}

/** A link with the team it joins, as its page shows it. */
export interface InviteLinkForPage extends InviteLink {
  teamName: string;
  /** The name of the team's organization; null for a team in none. */
  teamOrgName: string | null;
}

export interface InviteLinkStore {
  insert(link: InviteLink): Promise<void>;
  /** The link of that hash with its team, if it has not expired at `now`; undefined otherwise. */
  findLive(tokenHash: string, now: number): Promise<InviteLinkForPage | undefined>;
}
