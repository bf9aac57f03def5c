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
  teamOrgId: string | null;
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
  /**
   * docs/rules.md#invite-links: records that this team membership ended (left or removed) at
   * `at`. Kept until retention deletes it; a membership ends once, so its id is never recorded twice.
   */
  recordDeparture(membership: { id: string; teamId: string; userId: string }, at: number): Promise<void>;
  /** Whether a membership of the user in the team ended at or after `since`. */
  departedSince(teamId: string, userId: string, since: number): Promise<boolean>;
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

/** docs/rules.md#invite-links: a link anyone signed in may join a team by, while it lives. */
export interface InviteLink {
  /** Names the link where its team's admins list and revoke it; no secret. */
  id: string;
  /** SHA-256 of the token (hashToken): the token is shown once and never kept. */
  tokenHash: string;
  teamId: string;
  /** Who made it; null once that account is gone. */
  createdBy: string | null;
  /** The grant of the access token that made it through the API; null for a link made otherwise. */
  grantId: string | null;
  expiresAt: number;
  createdAt: number;
}

/** Where a link stands now: what decides whether it still works (invite-links.ts: isHonoured). */
export interface InviteLinkStanding {
  /** Its maker's role in the team now; null when not a member (or the maker is gone). */
  makerTeamRole: Role | null;
  /** Its maker's role in the team's organization now; null when not a member, or the team is in none. */
  makerOrgRole: Role | null;
  /** Whether the grant it was made under has been revoked; false for a link made under none. */
  grantRevoked: boolean;
}

/** A link with its standing and the team it joins, as its page shows it. */
export interface InviteLinkForPage extends InviteLink, InviteLinkStanding {
  teamName: string;
  /** The name of the team's organization; null for a team in none. */
  teamOrgName: string | null;
}

/** A link as its team's admins see it in the list. */
export interface InviteLinkOfTeam extends InviteLink, InviteLinkStanding {
  /** The maker's name; null once the account is gone. */
  makerName: string | null;
  /** The application whose token made it; null for a link made under no grant. */
  clientName: string | null;
}

export interface InviteLinkStore {
  /** Inserts the link; a duplicate id or token hash rejects. */
  insert(link: InviteLink): Promise<void>;
  /**
   * The link of that hash with its team and its standing as of this read, if it has not
   * expired at `now`; undefined otherwise (a revoked link is gone, as is one whose grant was
   * deleted).
   */
  findLive(tokenHash: string, now: number): Promise<InviteLinkForPage | undefined>;
  /** The team's links not expired at `now`, newest first (then by id), at most `limit`; none for an unknown team. */
  listLive(teamId: string, now: number, limit: number): Promise<InviteLinkOfTeam[]>;
  /** Deletes the team's link of this id; false, deleting nothing, when the team has no such link. */
  delete(teamId: string, id: string): Promise<boolean>;
}
