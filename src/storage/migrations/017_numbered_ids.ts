// The platform's ids are numbers (docs/rules.md#numbered-ids): users, teams and organizations,
// memberships, event types, schedules, bookings and the rest of what API v2 names by a number
// take theirs from a series, 1, 2, 3 … in the order they were made. The columns stay TEXT, so
// no table is rebuilt and the OAuth wing's ids (clients, grants, tokens) keep their random
// form; the API writes a numbered id as a number.
//
// Existing rows are renumbered here, with every column that refers to them, in the
// migration's one transaction (see 011_canonical_metadata_hosts.ts on why none is opened
// here). Foreign keys cannot hold while a key and its references change one statement at a
// time: SQLite checks them at commit instead (PRAGMA defer_foreign_keys); PostgreSQL's are
// not deferrable, so they are dropped and made again as they were, which checks them anew.
// What was recorded as history (audit events' data, webhook payloads already queued) keeps
// the ids it was written with.
import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

interface Series {
  /** The series' name, also its counter's (id_series.name) or sequence's (id_series_<name>). */
  name: string;
  /** The tables whose id the series numbers; one id space across them. */
  tables: string[];
  /** Columns that hold one of the series' ids. */
  references: Array<[table: string, column: string]>;
}

/** The series as this migration found the schema; later tables join them in their own migration. */
const SERIES: Series[] = [
  {
    name: 'users',
    tables: ['users'],
    references: [
      ['sessions', 'user_id'],
      ['oauth_clients', 'owner_id'],
      ['oauth_clients', 'reviewed_by'],
      ['authorization_requests', 'user_id'],
      ['grants', 'user_id'],
      ['authorization_codes', 'user_id'],
      ['access_tokens', 'user_id'],
      ['refresh_tokens', 'user_id'],
      ['audit_events', 'actor_id'],
      ['audit_events', 'user_id'],
      ['client_metadata_hosts', 'decided_by'],
      ['memberships', 'user_id'],
      ['membership_invitations', 'user_id'],
      ['membership_invitations', 'invited_by'],
      ['event_types', 'user_id'],
      ['bookings', 'user_id'],
      ['schedules', 'user_id'],
      ['connected_apps', 'user_id'],
      ['webhooks', 'user_id'],
      ['verified_resources', 'user_id'],
      ['out_of_office_entries', 'user_id'],
      ['out_of_office_entries', 'to_user_id'],
    ],
  },
  {
    // The platform keeps organizations and teams in one table: a team id never names an
    // organization too.
    name: 'teams',
    tables: ['organizations', 'teams'],
    references: [
      ['users', 'organization_id'],
      ['teams', 'organization_id'],
      ['memberships', 'team_id'],
      ['memberships', 'organization_id'],
      ['membership_invitations', 'team_id'],
      ['membership_invitations', 'organization_id'],
      ['event_types', 'team_id'],
      ['bookings', 'team_id'],
      ['schedules', 'team_id'],
      ['connected_apps', 'team_id'],
      ['webhooks', 'organization_id'],
      ['verified_resources', 'team_id'],
      ['routing_forms', 'team_id'],
      ['routing_forms', 'organization_id'],
      ['workflows', 'team_id'],
    ],
  },
  {
    // A roster lists members and invitees together, and an accepted invitation becomes the
    // membership of the same id (docs/rules.md#membership-invitations).
    name: 'memberships',
    tables: ['memberships', 'membership_invitations'],
    references: [],
  },
  { name: 'event_types', tables: ['event_types'], references: [['private_links', 'event_type_id'], ['bookings', 'event_type_id']] },
  { name: 'schedules', tables: ['schedules'], references: [['users', 'default_schedule_id']] },
  { name: 'bookings', tables: ['bookings'], references: [] },
  { name: 'out_of_office_entries', tables: ['out_of_office_entries'], references: [] },
  { name: 'webhooks', tables: ['webhooks'], references: [['webhook_deliveries', 'webhook_id']] },
  { name: 'verified_resources', tables: ['verified_resources'], references: [] },
  { name: 'workflows', tables: ['workflows'], references: [] },
  { name: 'routing_form_responses', tables: ['routing_form_responses'], references: [] },
  { name: 'connected_apps', tables: ['connected_apps'], references: [] },
];

async function renumber(db: Kysely<any>, series: Series): Promise<number> {
  // Each distinct id once, ordered by when its row was made (the earliest of its rows: a
  // membership keeps the id of the invitation it came from).
  const union = series.tables.map((t) => `select ${t === 'bookings' ? 'uid' : 'id'} as id, created_at from ${t}`).join(' union all ');
  await sql
    .raw(
      `insert into renumbered_ids (series, old_id, new_id)
       select '${series.name}', id, cast(row_number() over (order by created_at, id) as text)
       from (select id, min(created_at) as created_at from (${union}) as every_row group by id) as distinct_ids`,
    )
    .execute(db);
  const mapped = `select new_id from renumbered_ids m where m.series = '${series.name}' and m.old_id = `;
  const known = `in (select old_id from renumbered_ids where series = '${series.name}')`;
  for (const table of series.tables) {
    if (table === 'bookings') {
      // A booking is addressed by its uid; the number is a second key beside it.
      await sql.raw(`update bookings set id = (${mapped}bookings.uid)`).execute(db);
    } else {
      await sql.raw(`update ${table} set id = (${mapped}${table}.id) where id ${known}`).execute(db);
    }
  }
  for (const [table, column] of series.references) {
    await sql.raw(`update ${table} set ${column} = (${mapped}${table}.${column}) where ${column} ${known}`).execute(db);
  }
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from renumbered_ids where series = ${series.name}`.execute(db);
  return Number(rows[0]!.n);
}

/** Workflows name the event types they run on in a JSON array. */
async function renumberWorkflowEventTypes(db: Kysely<any>): Promise<void> {
  const { rows: map } = await sql<{ old_id: string; new_id: string }>`select old_id, new_id from renumbered_ids where series = 'event_types'`.execute(db);
  const newId = new Map(map.map((r) => [r.old_id, r.new_id]));
  const workflows = await db.selectFrom('workflows').select(['id', 'active_on']).execute();
  for (const w of workflows as Array<{ id: string; active_on: string }>) {
    const ids = JSON.parse(w.active_on) as string[];
    const renumbered = ids.map((id) => newId.get(id) ?? id);
    if (renumbered.some((id, i) => id !== ids[i])) {
      await db.updateTable('workflows').set({ active_on: JSON.stringify(renumbered) }).where('id', '=', w.id).execute();
    }
  }
}

interface ForeignKey {
  table: string;
  name: string;
  definition: string;
}

/** PostgreSQL: every foreign key of the schema, to drop and make again around the renumbering. */
async function postgresForeignKeys(db: Kysely<any>): Promise<ForeignKey[]> {
  const { rows } = await sql<ForeignKey>`
    select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c
    where c.contype = 'f' and c.connamespace = current_schema()::regnamespace`.execute(db);
  return rows;
}

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('bookings').addColumn('id', 'text').execute();
  await db.schema
    .createTable('renumbered_ids')
    .temporary()
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('old_id', 'text', (c) => c.notNull())
    .addColumn('new_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('renumbered_ids_key', ['series', 'old_id'])
    .execute();

  let foreignKeys: ForeignKey[] = [];
  if (dialect === 'sqlite') {
    // Inside the migration's transaction (opened by the writes above); reset at its commit.
    await sql`pragma defer_foreign_keys = on`.execute(db);
  } else {
    foreignKeys = await postgresForeignKeys(db);
    for (const fk of foreignKeys) await sql.raw(`alter table ${fk.table} drop constraint "${fk.name}"`).execute(db);
  }

  const counts = new Map<string, number>();
  for (const series of SERIES) counts.set(series.name, await renumber(db, series));
  await renumberWorkflowEventTypes(db);

  for (const fk of foreignKeys) await sql.raw(`alter table ${fk.table} add constraint "${fk.name}" ${fk.definition}`).execute(db);
  await db.schema.dropTable('renumbered_ids').execute();
  await db.schema.createIndex('bookings_id').on('bookings').column('id').unique().execute();
  // Every booking has its number now; PostgreSQL says so in the schema (SQLite cannot add the
  // constraint to a column without rebuilding the table; the store always writes one).
  if (dialect === 'postgres') await sql`alter table bookings alter column id set not null`.execute(db);

  // Where each series goes on: SQLite writes one transaction at a time, so a counter row is
  // enough; PostgreSQL's sequences hand out numbers without holding a lock to commit.
  if (dialect === 'sqlite') {
    await db.schema
      .createTable('id_series')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('last_value', 'bigint', (c) => c.notNull())
      .execute();
    await db.insertInto('id_series').values([...counts].map(([name, last]) => ({ name, last_value: last }))).execute();
  } else {
    for (const [name, last] of counts) await sql.raw(`create sequence id_series_${name} start with ${last + 1}`).execute(db);
  }
}
