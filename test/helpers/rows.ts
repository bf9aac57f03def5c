// The few places where a test outside test/storage must see or break the database itself,
// because no port can show or produce what the test is about: what is at rest, rows nobody
// was handed a token for, consistency across tables after a crash, a broken table. Every
// other read or arrangement goes through the stores (./stores.ts), so a rename of a table
// or a column is one edit here and in the storage contract suite.
import { CompiledQuery, sql } from 'kysely';
import type { DatabaseHandle } from '../../src/storage/database.ts';

type Db = DatabaseHandle['db'];

/**
 * SECURITY.md: secrets are stored only hashed. Every row of these tables as JSON: the
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
 * back with it (SECURITY.md: logs and audit).
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

/**
 * How many sessions the user has: after a login that failed no cookie was set, and a
 * session nobody holds the cookie of would be invisible to the port, which finds a session
 * only by the hash of its token.
 */
export async function sessionCountOfUser(db: Db, userId: string): Promise<number> {
  return (await db.selectFrom('sessions').select('id_hash').where('user_id', '=', userId).execute()).length;
}

/**
 * A one-time notice as it is stored (SECURITY.md: secrets are shown once): what is at
 * rest is the subject, and the port gives the sealed text only by taking the notice away.
 */
export async function storedNotice(db: Db, id: string): Promise<{ sealed: string } | undefined> {
  return db.selectFrom('session_notices').select('sealed').where('id', '=', id).executeTakeFirst();
}

/**
 * A column gone for as long as fn runs (renamed away, then back): every statement naming it
 * fails as no outage does, a fault of the code or the schema, which no port can be asked to be.
 */
export async function withColumnGone<T>(db: Db, table: 'sessions', column: 'user_id', fn: () => Promise<T>): Promise<T> {
  await sql.raw(`ALTER TABLE ${table} RENAME COLUMN ${column} TO ${column}_gone`).execute(db);
  try {
    return await fn();
  } finally {
    await sql.raw(`ALTER TABLE ${table} RENAME COLUMN ${column}_gone TO ${column}`).execute(db);
  }
}

/**
 * A database that refuses one answer, for as long as fn runs: every update of a delivery
 * whose recorded answer holds `marker` fails (a trigger), as PostgreSQL refused a NUL byte,
 * so a test can show that the delivery engine records the rest and goes on.
 */
export async function withDeliveryAnswerRefused<T>(db: Db, backend: 'sqlite' | 'postgres', marker: string, fn: () => Promise<T>): Promise<T> {
  if (!/^[\w ,]+$/.test(marker)) throw new Error(`not a plain marker: ${marker}`);
  const refuse =
    backend === 'postgres'
      ? [
          `CREATE FUNCTION refuse_marked_answer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.response_body LIKE '%${marker}%' THEN RAISE EXCEPTION 'this answer is refused'; END IF; RETURN NEW; END $$`,
          'CREATE TRIGGER refuse_marked_answer BEFORE UPDATE ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION refuse_marked_answer()',
        ]
      : [`CREATE TRIGGER refuse_marked_answer BEFORE UPDATE ON webhook_deliveries WHEN NEW.response_body LIKE '%${marker}%' BEGIN SELECT RAISE(ABORT, 'this answer is refused'); END`];
  const allow = backend === 'postgres' ? ['DROP TRIGGER refuse_marked_answer ON webhook_deliveries', 'DROP FUNCTION refuse_marked_answer()'] : ['DROP TRIGGER refuse_marked_answer'];
  for (const statement of refuse) await sql.raw(statement).execute(db);
  try {
    return await fn();
  } finally {
    for (const statement of allow) await sql.raw(statement).execute(db);
  }
}

/**
 * A table gone for as long as fn runs, as while a restore (`pg_restore --clean`) drops it and
 * makes it again under a running server: no port can take a table away. It is renamed away
 * and back, so that its rows return with it.
 */
export async function withTableMissing<T>(db: Db, table: 'webhook_deliveries' | 'sessions', fn: () => Promise<T>): Promise<T> {
  await sql.raw(`ALTER TABLE ${table} RENAME TO ${table}_away`).execute(db);
  try {
    return await fn();
  } finally {
    await sql.raw(`ALTER TABLE ${table}_away RENAME TO ${table}`).execute(db);
  }
}

/**
 * The rows that break an invariant of the token tables, by invariant: after a crash, a kill
 * mid-request or a backup taken under load, what matters is every row, handed to someone or
 * not, and no port lists rows it was not asked for by value. Each list is empty when the
 * database holds nothing half-written.
 */
export async function halfWritten(db: Db): Promise<{
  /** A grant and its code are written together. */
  grantsWithoutCode: unknown[];
  /** A consumed code has exactly one first pair; an unconsumed one has none. */
  codesWithoutOneFirstPair: unknown[];
  /** Pairs are written together: as many access tokens as refresh tokens in every grant. */
  grantsWithUnpairedTokens: unknown[];
  /** A refresh token is spent exactly when its one successor exists, and keeps a successor box only then. */
  refreshTokensWithBrokenSuccession: unknown[];
  /** Every rotated refresh token's parent is stored. */
  refreshTokensWithoutParent: unknown[];
}> {
  const rows = async (query: string) => (await sql.raw(query).execute(db)).rows;
  const [grantsWithoutCode, codesWithoutOneFirstPair, grantsWithUnpairedTokens, refreshTokensWithBrokenSuccession, refreshTokensWithoutParent] = await Promise.all([
    rows('select g.id from grants g where not exists (select 1 from authorization_codes c where c.grant_id = g.id)'),
    rows(`select c.code_hash from authorization_codes c
      where (c.consumed_at is not null) <> ((select count(*) from refresh_tokens r where r.code_hash = c.code_hash and r.parent_id is null) = 1)
         or (select count(*) from refresh_tokens r where r.code_hash = c.code_hash and r.parent_id is null) > 1`),
    rows(`select g.id from grants g
      where (select count(*) from access_tokens a where a.grant_id = g.id) <> (select count(*) from refresh_tokens r where r.grant_id = g.id)`),
    rows(`select r.id from refresh_tokens r
      where (r.spent_at is not null) <> exists (select 1 from refresh_tokens s where s.parent_id = r.id)
         or (select count(*) from refresh_tokens s where s.parent_id = r.id) > 1
         or (r.successor_box is not null and r.spent_at is null)`),
    rows('select s.id from refresh_tokens s where s.parent_id is not null and not exists (select 1 from refresh_tokens r where r.id = s.parent_id)'),
  ]);
  return { grantsWithoutCode, codesWithoutOneFirstPair, grantsWithUnpairedTokens, refreshTokensWithBrokenSuccession, refreshTokensWithoutParent };
}

/** SQLite's own check of a database file: 'ok' when its pages and indexes are whole. */
export async function sqliteIntegrity(db: Db): Promise<string> {
  const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
  return rows.map((r) => r.integrity_check).join('\n');
}

/**
 * The hashes of the successors stored for a refresh token: a successor that a request
 * committed and whose answer was lost was handed to nobody, so no port can find it by value.
 */
export async function successorHashesOf(db: Db, refreshTokenId: string): Promise<string[]> {
  return (await db.selectFrom('refresh_tokens').select('token_hash').where('parent_id', '=', refreshTokenId).execute()).map((r) => r.token_hash);
}

/** The Gatehouse tables of the database (on PostgreSQL, its schema's only: other suites' schemas share the database). */
export async function tablesOf(db: Db, backend: 'sqlite' | 'postgres'): Promise<string[]> {
  const schema = backend === 'sqlite' ? undefined : (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s;
  return (await db.introspection.getTables()).filter((t) => (schema === undefined || t.schema === schema) && !t.name.startsWith('kysely_')).map((t) => t.name);
}

/**
 * Every row of the tables (tablesOf), per table, whatever its columns: a refused request must
 * leave the whole database as it was, including rows no port would be asked for. On
 * PostgreSQL in one round trip, as the fuzz suites take one per case.
 */
export async function everyRow(db: Db, backend: 'sqlite' | 'postgres', tables: readonly string[]): Promise<Record<string, unknown>[][]> {
  if (backend === 'sqlite') return Promise.all(tables.map((t) => sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(db).then((r) => r.rows)));
  const parts = tables.map((t) => sql`(select coalesce(json_agg(t), '[]'::json) from ${sql.table(t)} t)`);
  return (await sql<{ all: Record<string, unknown>[][] }>`select json_build_array(${sql.join(parts)}) as all`.execute(db)).rows[0]!.all;
}

/** The tables retention deletes from by age. */
export type DatedTable = 'authorization_codes' | 'access_tokens' | 'refresh_tokens' | 'sessions' | 'authorization_requests' | 'audit_events';

/**
 * How many rows of the table were created in the range (before: strictly earlier; after:
 * strictly later): retention deletes by age whoever holds a row, and no port lists rows by age.
 */
export async function rowsCreated(db: Db, table: DatedTable, range: { before?: number; after?: number }): Promise<number> {
  let query = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  if (range.before !== undefined) query = query.where('created_at', '<', range.before);
  if (range.after !== undefined) query = query.where('created_at', '>', range.after);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/**
 * docs/operating.md#signing-keys: the signing keys as they are stored, every column as text:
 * what is at rest is the subject (the private parts sealed, never in clear), which the port
 * gives only as records.
 */
export async function signingKeyRows(db: Db): Promise<string[]> {
  return (await db.selectFrom('signing_keys').selectAll().execute()).map((row) => JSON.stringify(row));
}
