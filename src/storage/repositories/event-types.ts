// event_types and their private links (EVENT_TYPE_*, TEAM_EVENT_TYPE_*, ORG_EVENT_TYPE_* of docs/rules.md#scope-registry).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { EventTypeOwner } from '../../platform/event-types/store.ts';
import type { EventTypesTable, PrivateLinksTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type EventTypeRow = Selectable<EventTypesTable>;
export type PrivateLinkRow = Selectable<PrivateLinksTable>;

const col = (owner: EventTypeOwner) => ('userId' in owner ? (['user_id', owner.userId] as const) : (['team_id', owner.teamId] as const));

export async function insertEventType(db: Executor, row: Insertable<EventTypesTable>): Promise<void> {
  await db.insertInto('event_types').values(row).execute();
}

export async function findEventType(db: Executor, id: string): Promise<EventTypeRow | undefined> {
  return db.selectFrom('event_types').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOwnedEventType(db: Executor, owner: EventTypeOwner, id: string): Promise<EventTypeRow | undefined> {
  const [column, value] = col(owner);
  return db.selectFrom('event_types').selectAll().where('id', '=', id).where(column, '=', value).executeTakeFirst();
}

export async function listEventTypes(db: Executor, owner: EventTypeOwner, limit: number, offset: number): Promise<EventTypeRow[]> {
  const [column, value] = col(owner);
  return db.selectFrom('event_types').selectAll().where(column, '=', value).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}

/** Event types of an organization: its teams' and its members' (ORG_EVENT_TYPE_READ, docs/rules.md#scope-registry). */
function inOrganization(db: Executor, organizationId: string) {
  return db
    .selectFrom('event_types')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('team_id', 'in', eb.selectFrom('teams').select('id').where('organization_id', '=', organizationId)),
        eb('user_id', 'in', eb.selectFrom('memberships').select('user_id').where('organization_id', '=', organizationId)),
      ]),
    );
}

export async function listOrganizationEventTypes(db: Executor, organizationId: string, limit: number, offset: number): Promise<EventTypeRow[]> {
  return inOrganization(db, organizationId).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}

/** Event types of the organization's teams, not of its members (GET /v2/organizations/:orgId/teams/event-types). */
export async function listOrganizationTeamEventTypes(db: Executor, organizationId: string, limit: number, offset: number): Promise<EventTypeRow[]> {
  return db
    .selectFrom('event_types')
    .selectAll()
    .where('team_id', 'in', db.selectFrom('teams').select('id').where('organization_id', '=', organizationId))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function findOrganizationEventType(db: Executor, organizationId: string, id: string): Promise<EventTypeRow | undefined> {
  return inOrganization(db, organizationId).where('id', '=', id).executeTakeFirst();
}

export async function updateEventType(db: Executor, id: string, changes: Updateable<EventTypesTable>): Promise<EventTypeRow | undefined> {
  await db.updateTable('event_types').set(changes).where('id', '=', id).execute();
  return findEventType(db, id);
}

export async function deleteEventType(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('event_types').where('id', '=', id).execute();
}

/** How many of these ids are event types of the team (workflows may only name those). */
export async function countTeamEventTypes(db: Executor, teamId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db.selectFrom('event_types').select((eb) => eb.fn.countAll<number>().as('n')).where('team_id', '=', teamId).where('id', 'in', ids).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertPrivateLink(db: Executor, row: Insertable<PrivateLinksTable>): Promise<void> {
  await db.insertInto('private_links').values(row).execute();
}

export async function listPrivateLinks(db: Executor, eventTypeId: string): Promise<PrivateLinkRow[]> {
  return db.selectFrom('private_links').selectAll().where('event_type_id', '=', eventTypeId).orderBy('created_at').orderBy('id').execute();
}

/** Changes the event type's link of that id and returns it; undefined when it has none. */
export async function updatePrivateLink(db: Executor, eventTypeId: string, id: string, changes: Updateable<PrivateLinksTable>): Promise<PrivateLinkRow | undefined> {
  // No change is a read: an UPDATE must set something.
  if (Object.keys(changes).length > 0) await db.updateTable('private_links').set(changes).where('id', '=', id).where('event_type_id', '=', eventTypeId).execute();
  return db.selectFrom('private_links').selectAll().where('id', '=', id).where('event_type_id', '=', eventTypeId).executeTakeFirst();
}

export async function deletePrivateLink(db: Executor, eventTypeId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('private_links').where('id', '=', id).where('event_type_id', '=', eventTypeId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Spends one use of a private link, atomically (ARCHITECTURE.md#single-use-is-atomic): it must belong to the
 * event type, be unexpired and have uses left; of concurrent bookings only as many as
 * the link allows get through.
 */
export async function usePrivateLink(db: Executor, eventTypeId: string, hash: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('private_links')
    .set((eb) => ({ use_count: eb('use_count', '+', 1) }))
    .where('link_hash', '=', hash)
    .where('event_type_id', '=', eventTypeId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('use_count', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
