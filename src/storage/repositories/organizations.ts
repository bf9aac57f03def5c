// organizations, teams and memberships (docs/rules.md#data): who belongs where, with which role.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { MembershipsTable, OrganizationsTable, TeamsTable, UsersTable } from '../schema.ts';
import type { MembershipTarget } from '../../services/teams/store.ts';
import type { Executor } from './executor.ts';

export type OrganizationRow = Selectable<OrganizationsTable>;
export type TeamRow = Selectable<TeamsTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type MemberRow = MembershipRow & Pick<Selectable<UsersTable>, 'email' | 'name' | 'username'>;
export type { MembershipTarget };

export async function insertOrganization(db: Executor, row: Insertable<OrganizationsTable>): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

export async function findOrganization(db: Executor, id: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findTeam(db: Executor, id: string): Promise<TeamRow | undefined> {
  return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The teams of these ids that exist, in no particular order; none for no ids. */
export async function findTeams(db: Executor, ids: string[]): Promise<TeamRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('teams').selectAll().where('id', 'in', ids).execute();
}

export async function updateTeam(db: Executor, id: string, changes: Updateable<TeamsTable>): Promise<TeamRow | undefined> {
  await db.updateTable('teams').set(changes).where('id', '=', id).execute();
  return findTeam(db, id);
}

/** Everything of the team goes with it (ON DELETE CASCADE). */
export async function deleteTeam(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('teams').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function listTeamsOfOrganization(db: Executor, organizationId: string, limit: number, offset: number): Promise<TeamRow[]> {
  return db.selectFrom('teams').selectAll().where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}

/** The teams the user is an accepted member of (optionally within one organization), oldest first. */
export async function listTeamsOfUser(db: Executor, userId: string, organizationId: string | undefined, limit: number, offset: number): Promise<TeamRow[]> {
  let query = db.selectFrom('teams as t').innerJoin('memberships as m', 'm.team_id', 't.id').selectAll('t').where('m.user_id', '=', userId);
  if (organizationId !== undefined) query = query.where('t.organization_id', '=', organizationId);
  return query.orderBy('t.created_at').orderBy('t.id').limit(limit).offset(offset).execute();
}

function targetColumn(target: MembershipTarget) {
  return 'teamId' in target ? (['m.team_id', target.teamId] as const) : (['m.organization_id', target.organizationId] as const);
}

const memberColumns = ['m.id', 'm.user_id', 'm.team_id', 'm.organization_id', 'm.role', 'm.created_at', 'm.updated_at', 'u.email', 'u.name', 'u.username'] as const;

/** One membership of the target, or undefined when it belongs elsewhere. */
export async function findMember(db: Executor, target: MembershipTarget, membershipId: string): Promise<MemberRow | undefined> {
  const [column, value] = targetColumn(target);
  return db.selectFrom('memberships as m').innerJoin('users as u', 'u.id', 'm.user_id').select(memberColumns).where('m.id', '=', membershipId).where(column, '=', value).executeTakeFirst();
}

/** The accepted member of the target with this address, if any. */
export async function findMemberByEmail(db: Executor, target: MembershipTarget, email: string): Promise<MembershipRow | undefined> {
  const [column, value] = targetColumn(target);
  return db.selectFrom('memberships as m').innerJoin('users as u', 'u.id', 'm.user_id').selectAll('m').where('u.email', '=', email).where(column, '=', value).executeTakeFirst();
}

/**
 * A team's or organization's roster: its members (state accepted) and its pending
 * invitations (state invited), in the order they were added. An invitation by user id
 * carries that account's email, name and username, as the platform answers a pending
 * membership; one by address carries only the address, never anything of an account
 * (docs/rules.md#membership-invitations).
 */
export type RosterRow = Omit<MemberRow, 'user_id' | 'email' | 'name' | 'username'> & {
  state: 'accepted' | 'invited';
  user_id: string | null;
  email: string | null;
  name: string | null;
  username: string | null;
  invited_email: string | null;
  invited_user_id: string | null;
};

export async function listRoster(db: Executor, target: MembershipTarget, limit: number, offset: number): Promise<RosterRow[]> {
  const [column, value] = targetColumn(target);
  const invitationColumn = 'teamId' in target ? 'i.team_id' : 'i.organization_id';
  const nothing = sql<string | null>`null`;
  const members = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'm.id',
      sql<'accepted' | 'invited'>`'accepted'`.as('state'),
      'm.user_id',
      'm.team_id',
      'm.organization_id',
      'm.role',
      'u.email',
      'u.name',
      'u.username',
      nothing.as('invited_email'),
      nothing.as('invited_user_id'),
      'm.created_at',
      'm.updated_at',
    ])
    .where(column, '=', value)
    .$castTo<RosterRow>();
  // Joined by the invitation's user id only: an invitation by address looks for no account.
  // The columns the union is ordered by are named: SQLite matches a compound's ORDER BY in its
  // last SELECT too, where users' own id and created_at would make a bare name ambiguous.
  const invitations = db
    .selectFrom('membership_invitations as i')
    .leftJoin('users as u', 'u.id', 'i.user_id')
    .select([
      'i.id as id',
      sql<'accepted' | 'invited'>`'invited'`.as('state'),
      nothing.as('user_id'),
      'i.team_id',
      'i.organization_id',
      'i.role',
      'u.email',
      'u.name',
      'u.username',
      'i.email as invited_email',
      'i.user_id as invited_user_id',
      'i.created_at as created_at',
      'i.updated_at',
    ])
    .where(invitationColumn, '=', value)
    .$castTo<RosterRow>();
  return members.unionAll(invitations).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}

/** The user's memberships with what they are of, and how many owners each place has. */
export async function listMembershipsOfUser(db: Executor, userId: string) {
  const rows = await db
    .selectFrom('memberships as m')
    .leftJoin('teams as t', 't.id', 'm.team_id')
    .leftJoin('organizations as o', 'o.id', 'm.organization_id')
    .leftJoin('organizations as team_org', 'team_org.id', 't.organization_id')
    .selectAll('m')
    .select((eb) => [
      sql<string>`coalesce(${sql.ref('t.name')}, ${sql.ref('o.name')})`.as('target_name'),
      'team_org.name as team_org_name',
      't.organization_id as team_org_id',
      eb
        .selectFrom('memberships as x')
        .select((x) => x.fn.countAll<number>().as('n'))
        .where('x.role', '=', 'owner')
        .where((x) => x.or([x('x.team_id', '=', x.ref('m.team_id')), x('x.organization_id', '=', x.ref('m.organization_id'))]))
        .as('owners'),
    ])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .limit(500)
    .execute();
  return rows.map((r) => ({ ...r, owners: Number(r.owners) }));
}

export async function findMemberByUser(db: Executor, target: MembershipTarget, userId: string): Promise<MembershipRow | undefined> {
  const [column, value] = targetColumn(target);
  return db.selectFrom('memberships as m').selectAll().where('m.user_id', '=', userId).where(column, '=', value).executeTakeFirst();
}

/**
 * Takes the team's or organization's row lock for the rest of the transaction, so that
 * concurrent role changes of one team are serialized (a portable SELECT ... FOR UPDATE).
 */
export async function lockMembershipTarget(db: Executor, target: MembershipTarget, at: number): Promise<void> {
  if ('teamId' in target) await db.updateTable('teams').set({ updated_at: at }).where('id', '=', target.teamId).execute();
  else await db.updateTable('organizations').set({ updated_at: at }).where('id', '=', target.organizationId).execute();
}

export async function countOwners(db: Executor, target: MembershipTarget): Promise<number> {
  const [column, value] = targetColumn(target);
  const row = await db.selectFrom('memberships as m').select((eb) => eb.fn.countAll<number>().as('n')).where(column, '=', value).where('m.role', '=', 'owner').executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setMembershipRole(db: Executor, id: string, role: MembershipRow['role'], at: number): Promise<void> {
  await db.updateTable('memberships').set({ role, updated_at: at }).where('id', '=', id).execute();
}

export async function deleteMembership(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('memberships').where('id', '=', id).execute();
}

/** Users of an organization (one of them, when userId is given): its members, with their organization role and membership. */
export async function listOrganizationUsers(db: Executor, organizationId: string, limit: number, offset: number, userId?: string) {
  let query = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'u.username', 'u.time_zone', 'u.week_start', 'u.time_format', 'u.created_at', 'm.role', 'm.id as membership_id'])
    .where('m.organization_id', '=', organizationId);
  if (userId !== undefined) query = query.where('u.id', '=', userId);
  return query
    .orderBy('m.created_at')
    .orderBy('u.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** How many members (accepted memberships) a team or organization has, as a correlated count. */
const memberCount = (column: 'team_id' | 'organization_id', ref: 't.id' | 'o.id') =>
  sql<number>`(select count(*) from memberships as mc where mc.${sql.raw(column)} = ${sql.ref(ref)})`;

/** Every organization, oldest first, with its member and team counts. */
export async function listOrganizations(db: Executor, limit: number) {
  const rows = await db
    .selectFrom('organizations as o')
    .selectAll('o')
    .select([memberCount('organization_id', 'o.id').as('members'), sql<number>`(select count(*) from teams as tc where tc.organization_id = ${sql.ref('o.id')})`.as('teams')])
    .orderBy('o.created_at')
    .orderBy('o.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, members: Number(r.members), teams: Number(r.teams) }));
}

/** Every team, or an organization's, oldest first, with its member count and its organization's name. */
export async function listTeams(db: Executor, organizationId: string | undefined, limit: number) {
  let query = db
    .selectFrom('teams as t')
    .leftJoin('organizations as o', 'o.id', 't.organization_id')
    .selectAll('t')
    .select(['o.name as organization_name', memberCount('team_id', 't.id').as('members')]);
  if (organizationId !== undefined) query = query.where('t.organization_id', '=', organizationId);
  const rows = await query.orderBy('t.created_at').orderBy('t.id').limit(limit).execute();
  return rows.map((r) => ({ ...r, members: Number(r.members) }));
}

/**
 * At most `limit` members of each of these teams, team by team, each team's oldest first (then
 * by id), as listMembers answers one team: one statement for a page of event types, whatever
 * the number of teams it shows. row_number() numbers each team's members (both databases have
 * it), so that the limit holds per team and not for all of them.
 */
export async function listMembersOfTeams(db: Executor, teamIds: string[], limit: number): Promise<MemberRow[]> {
  if (teamIds.length === 0) return [];
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('memberships as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(memberColumns)
        .select((e) => e.fn.agg<number>('row_number').over((ob) => ob.partitionBy('m.team_id').orderBy('m.created_at').orderBy('m.id')).as('place'))
        .where('m.team_id', 'in', teamIds)
        .as('ranked'),
    )
    .selectAll()
    .where('place', '<=', limit)
    .orderBy('team_id')
    .orderBy('place')
    .execute();
  return rows.map(({ place: _place, ...row }) => row);
}

/** The target's members with their accounts' email and name, oldest first. */
export async function listMembers(db: Executor, target: MembershipTarget, limit: number): Promise<MemberRow[]> {
  const [column, value] = targetColumn(target);
  return db.selectFrom('memberships as m').innerJoin('users as u', 'u.id', 'm.user_id').select(memberColumns).where(column, '=', value).orderBy('m.created_at').orderBy('m.id').limit(limit).execute();
}
