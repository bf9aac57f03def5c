// docs/rules.md#invite-links: a team invite link works only while its maker may still
// administer the team and, when an application made it, while the grant of that token stands;
// and it does not bring back someone who left the team, or was removed, after it was made.
//
// team_invite_links is made again (023's rows are dropped): its links named neither the grant
// they were made under nor an id to list and revoke them by, so none of them could be held to
// these rules. Their teams' admins make new ones. A link goes with its grant (a grant deleted
// with its client or user), and is named by a random id that is no secret.
//
// team_departures: one row per team membership that ended (left or removed), keyed by the
// membership's id, which is never reused; kept only as long as a link made before it could
// still live (docs/rules.md#retention). Times are millisecond BIGINTs, as in 002.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('team_invite_links').execute();
  await db.schema
    .createTable('team_invite_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('grant_id', 'text', (c) => c.references('grants.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A team's links, newest first, for its admins; those of a grant, for the cascade.
  await db.schema.createIndex('team_invite_links_team').on('team_invite_links').columns(['team_id', 'created_at']).execute();
  await db.schema.createIndex('team_invite_links_grant').on('team_invite_links').column('grant_id').where(sql.ref('grant_id'), 'is not', null).execute();
  // docs/rules.md#retention: expired links are deleted by expiry (as 027 made it).
  await db.schema.createIndex('team_invite_links_expires').on('team_invite_links').column('expires_at').execute();

  await db.schema
    .createTable('team_departures')
    .addColumn('membership_id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('left_at', 'bigint', (c) => c.notNull())
    .execute();
  // Whether a user left a team since a link was made: one indexed read at each join.
  await db.schema.createIndex('team_departures_member').on('team_departures').columns(['team_id', 'user_id', 'left_at']).execute();
  await db.schema.createIndex('team_departures_user').on('team_departures').column('user_id').execute();
  await db.schema.createIndex('team_departures_left').on('team_departures').column('left_at').execute();
}
