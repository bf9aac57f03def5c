// The few places where a test outside test/storage must see or break the database itself,
// because no port can show or produce what the test is about: what is at rest, rows nobody
// was handed a token for, consistency across tables after a crash, a broken table. Every
// other read or arrangement goes through the stores (./stores.ts), so a rename of a table
// or a column is one edit here and in the storage contract suite.
import { CompiledQuery, sql } from 'kysely';
import type { DatabaseHandle } from '../../src/storage/database.ts';

type Db = DatabaseHandle['db'];

/**
 * README, Security: secrets are stored only hashed. Every row of these tables as JSON: the
 * subject is what is at rest, which no port returns as it is stored.
 */
export async function tableDumps(db: Db, tables: readonly ('access_tokens' | 'refresh_tokens' | 'authorization_codes' | 'client_secrets' | 'audit_events' | 'grants')[]): Promise<Record<string, string>> {
  const dumps = await Promise.all(tables.map(async (table) => [table, JSON.stringify(await db.selectFrom(table).selectAll().execute())] as const));
  return Object.fromEntries(dumps);
}

/**
 * How many access and refresh tokens the client has, whoever holds them: after a request
 * that failed, tokens nobody was handed would be invisible to a port, which finds a token
 * only by the hash of its value.
 */
export async function tokenCountsOfClient(db: Db, clientId: string): Promise<{ access: number; refresh: number }> {
  const [access, refresh] = await Promise.all([
    db.selectFrom('access_tokens').select('token_hash').where('client_id', '=', clientId).execute(),
    db.selectFrom('refresh_tokens').select('id').where('client_id', '=', clientId).execute(),
  ]);
  return { access: access.length, refresh: refresh.length };
}

/**
 * A broken audit store, for as long as fn runs: every insert of this event type into the
 * audit table fails (a trigger), so a test can show that the change the event records rolls
 * back with it (README, Security: logs and audit).
 */
export async function withAuditFailing<T>(db: Db, backend: 'sqlite' | 'postgres', type: string, fn: () => Promise<T>): Promise<T> {
  if (!/^[a-z_.]+$/.test(type)) throw new Error(`not an event type: ${type}`);
  if (backend === 'sqlite') {
    await sql.raw(`CREATE TRIGGER audit_fail BEFORE INSERT ON audit_events WHEN NEW.type = '${type}' BEGIN SELECT RAISE(ABORT, 'audit store unavailable'); END`).execute(db);
  } else {
    await sql
      .raw(`CREATE FUNCTION audit_fail() RETURNS trigger AS $$ BEGIN IF NEW.type = '${type}' THEN RAISE EXCEPTION 'audit store unavailable'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`)
      .execute(db);
    await sql.raw('CREATE TRIGGER audit_fail BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_fail()').execute(db);
  }
  try {
    return await fn();
  } finally {
    if (backend === 'sqlite') {
      await sql.raw('DROP TRIGGER audit_fail').execute(db);
    } else {
      await sql.raw('DROP TRIGGER audit_fail ON audit_events').execute(db);
      await sql.raw('DROP FUNCTION audit_fail()').execute(db);
    }
  }
}

/**
 * How many authorization codes the user has, whoever holds them: a code issued but never
 * handed over would be invisible to a port, which finds a code only by the hash of its value.
 */
export async function codeCountOfUser(db: Db, userId: string): Promise<number> {
  return (await db.selectFrom('authorization_codes').select('code_hash').where('user_id', '=', userId).execute()).length;
}

/**
 * The plan the database makes for a query, after fresh statistics of the table: whether a
 * read is one indexed range is the database's own answer, which no port gives.
 */
export async function queryPlan(db: Db, backend: 'sqlite' | 'postgres', table: 'grants', query: CompiledQuery): Promise<string> {
  await sql`analyze ${sql.table(table)}`.execute(db);
  const sqlite = backend === 'sqlite';
  const explained = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${sqlite ? 'explain query plan' : 'explain'} ${query.sql}`, [...query.parameters]));
  return explained.rows.map((r) => (sqlite ? r.detail : r['QUERY PLAN'])).join('\n');
}
