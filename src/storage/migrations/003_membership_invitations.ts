// Invitations to a team or organization (docs/rules.md#membership-invitations). An invitation is not a
// membership: it lives in its own table, so every query that reads `memberships` counts
// accepted members only, by construction. Accepting moves the row into `memberships`
// (same id) in one transaction; declining or withdrawing deletes it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('membership_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    // Whom the inviter named: an address (lower-case) or a user id, exactly one. Neither is
    // checked against the users table, so an invitation of an address or id that has no
    // account is stored and answered exactly like one that has (docs/rules.md#membership-invitations); an
    // address that registers later finds its invitation waiting.
    .addColumn('email', 'text')
    .addColumn('user_id', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('membership_invitations_one_target', sql`(team_id IS NULL) <> (organization_id IS NULL)`)
    .addCheckConstraint('membership_invitations_one_invitee', sql`(email IS NULL) <> (user_id IS NULL)`)
    .addCheckConstraint('membership_invitations_role', sql`role IN ('member', 'admin', 'owner')`)
    .execute();
  // One pending invitation per invitee and target; the invitee's page looks them up by
  // address and by id.
  await db.schema.createIndex('membership_invitations_team_email').on('membership_invitations').columns(['team_id', 'email']).unique().execute();
  await db.schema.createIndex('membership_invitations_team_user').on('membership_invitations').columns(['team_id', 'user_id']).unique().execute();
  await db.schema.createIndex('membership_invitations_org_email').on('membership_invitations').columns(['organization_id', 'email']).unique().execute();
  await db.schema.createIndex('membership_invitations_org_user').on('membership_invitations').columns(['organization_id', 'user_id']).unique().execute();
  await db.schema.createIndex('membership_invitations_email').on('membership_invitations').column('email').execute();
  await db.schema.createIndex('membership_invitations_user').on('membership_invitations').column('user_id').execute();
}
