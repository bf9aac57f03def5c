// membership_invitations (docs/rules.md#membership-invitations): who was invited where, until they answer. An
// invitee is matched by the id or the address the inviter named; nothing here reads an
// invitation as a membership.
import { sql, type Selectable } from 'kysely';
import type { MembershipInvitationsTable } from '../schema.ts';
import type { Executor } from './executor.ts';
import type { Answerer } from '../../services/teams/store.ts';
import type { MembershipTarget } from '../../services/teams/store.ts';

export type InvitationRow = Selectable<MembershipInvitationsTable>;

/** An invitation as its invitee sees it: what it is for and who sent it. */
export type InvitationForUserRow = InvitationRow & { target_name: string; team_org_name: string | null; inviter_name: string | null };

function targetColumn(target: MembershipTarget) {
  return 'teamId' in target ? (['i.team_id', target.teamId] as const) : (['i.organization_id', target.organizationId] as const);
}

/** An invitation with the account its user id names (nulls for one by address, or when that account is gone). */
export type InvitationWithInviteeRow = InvitationRow & { invitee_email: string | null; invitee_name: string | null; invitee_username: string | null };

/**
 * One invitation of the target, or undefined when it belongs elsewhere. Joined by the
 * invitation's user id only: an invitation by address looks for no account
 * (docs/rules.md#membership-invitations).
 */
export async function findInvitation(db: Executor, target: MembershipTarget, id: string): Promise<InvitationWithInviteeRow | undefined> {
  const [column, value] = targetColumn(target);
  return db
    .selectFrom('membership_invitations as i')
    .leftJoin('users as u', 'u.id', 'i.user_id')
    .selectAll('i')
    .select(['u.email as invitee_email', 'u.name as invitee_name', 'u.username as invitee_username'])
    .where('i.id', '=', id)
    .where(column, '=', value)
    .executeTakeFirst();
}

export async function setInvitationRole(db: Executor, id: string, role: InvitationRow['role'], at: number): Promise<void> {
  await db.updateTable('membership_invitations').set({ role, updated_at: at }).where('id', '=', id).execute();
}

export async function deleteInvitation(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('membership_invitations').where('id', '=', id).execute();
}

/** The invitations waiting for this account, newest first, with what they are for. */
export async function listInvitationsFor(db: Executor, answerer: Answerer): Promise<InvitationForUserRow[]> {
  return db
    .selectFrom('membership_invitations as i')
    .leftJoin('teams as t', 't.id', 'i.team_id')
    .leftJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('organizations as team_org', 'team_org.id', 't.organization_id')
    .leftJoin('users as by', 'by.id', 'i.invited_by')
    .selectAll('i')
    .select([
      sql<string>`coalesce(${sql.ref('t.name')}, ${sql.ref('o.name')})`.as('target_name'),
      'team_org.name as team_org_name',
      'by.name as inviter_name',
    ])
    .where((eb) => eb.or([eb('i.user_id', '=', answerer.id), eb('i.email', '=', answerer.email)]))
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id')
    .limit(200)
    .execute();
}

/**
 * Removes the invitation if it is this account's, and returns it: of two concurrent
 * answers to one invitation exactly one gets the row (ARCHITECTURE.md#single-use-is-atomic).
 */
export async function takeInvitation(db: Executor, id: string, answerer: Answerer): Promise<InvitationRow | undefined> {
  return db
    .deleteFrom('membership_invitations')
    .where('id', '=', id)
    .where((eb) => eb.or([eb('user_id', '=', answerer.id), eb('email', '=', answerer.email)]))
    .returningAll()
    .executeTakeFirst();
}

/** Every other invitation of this account to the same place (by id and by address), once it joined. */
export async function deleteInvitationsFor(db: Executor, target: MembershipTarget, answerer: Answerer): Promise<void> {
  const [column, value] = 'teamId' in target ? (['team_id', target.teamId] as const) : (['organization_id', target.organizationId] as const);
  await db
    .deleteFrom('membership_invitations')
    .where(column, '=', value)
    .where((eb) => eb.or([eb('user_id', '=', answerer.id), eb('email', '=', answerer.email)]))
    .execute();
}
