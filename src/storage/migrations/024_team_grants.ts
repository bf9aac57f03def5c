// Team-owned authorization (docs/rules.md#team-authorization): a grant made with `team_slug`
// acts for that team. team_id is NULL for a grant that acts for its user, as every grant
// made before did. No foreign key: a token of a deleted team's grant reaches nothing (its
// routes answer 404 and it is refused everywhere else), ids are never reused, and deleting
// a team revokes its grants in the same transaction; a cascade would have to delete tokens
// an audit still names, and SET NULL would turn a team's grant into its approver's own.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('grants').addColumn('team_id', 'text').execute();
  // Revoking a deleted team's grants reads them by team.
  await db.schema.createIndex('grants_team').on('grants').column('team_id').where(sql.ref('team_id'), 'is not', null).execute();
}
