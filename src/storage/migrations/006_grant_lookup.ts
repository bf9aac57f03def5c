// Silent authorization reuses a grant (docs/rules.md#silent-authorization), so:
// - remembered consent is one indexed read of the user's active grants for a client, and
//   the grant limit counts the same rows (docs/rules.md#bounded-growth): a partial index over active
//   grants, which SQLite, PostgreSQL, CockroachDB and YugabyteDB all build;
// - several codes may share a grant, so each token records the code it descends from and
//   a replayed code revokes exactly its tokens (docs/rules.md#code-replay).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('grants_active')
    .on('grants')
    .columns(['user_id', 'client_id', 'created_at', 'id'])
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();

  for (const table of ['access_tokens', 'refresh_tokens']) {
    await db.schema.alterTable(table).addColumn('code_hash', 'text').execute();
    // Until now every grant had exactly one code: its tokens descend from that code. A
    // code already deleted cannot be replayed, so its tokens may keep a null.
    await db
      .updateTable(table)
      .set({
        code_hash: (eb: any) =>
          eb
            .selectFrom('authorization_codes as c')
            .select('c.code_hash')
            .whereRef('c.grant_id', '=', `${table}.grant_id`)
            .limit(1),
      })
      .execute();
  }
}
