// docs/rules.md#retention: expired team invite links (migration 023) are deleted in batches,
// found by expiry as every other pruned row is.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('team_invite_links_expires').on('team_invite_links').column('expires_at').execute();
}
