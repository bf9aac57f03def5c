// PostgreSQL parses and plans every statement it is sent unless it is a named prepared
// statement, whose plan the connection keeps. The token requests run the same few
// statements thousands of times: measured on code exchange, the server's CPU per request
// was as large as Gatehouse's own, much of it parsing and planning. Kysely sends SQL text
// only, so this pool hands it clients that name the statements prepared.ts compiled (a
// bounded set); every other statement goes as it came.
//
// pg names a statement on a connection the first time it runs there, and reuses it after.
// A pooler that moves statements between server connections must keep named statements
// (PgBouncer 1.21+ with max_prepared_statements set, or session pooling).
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { statementNameOf } from './prepared.ts';

export function namingStatements(pool: pg.Pool): PostgresPool {
  // One wrapper per pg client, kept while the client lives (Kysely keys its connections by it).
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = new NamingClient(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/** PostgreSQL's refusal of a prepared statement whose tables changed under it. */
const CACHED_PLAN_CHANGED = '0A000';

class NamingClient implements PostgresPoolClient {
  /** Set when the server refused one of this connection's prepared statements. */
  #stale = false;

  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sql: string | PostgresCursor<R>, parameters: ReadonlyArray<unknown> = []): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Kysely passes a cursor only to stream, which this service's dialect is not set up for.
    if (typeof sql !== 'string') throw new Error('streaming queries are not configured');
    const name = statementNameOf(sql);
    const values = parameters as unknown[];
    if (name === undefined) return this.client.query(sql, values) as unknown as Promise<PostgresQueryResult<R>>;
    const result = this.client.query({ text: sql, values, name });
    // pg keeps using the name it prepared on this connection; only a new connection prepares
    // the statement again, so a connection whose statement a migration outdated is let go.
    result.catch((error: { code?: string }) => {
      if (error?.code === CACHED_PLAN_CHANGED) this.#stale = true;
    });
    return result as unknown as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    // pg's pool closes a client released with an error instead of keeping it.
    this.client.release(this.#stale ? new Error('a prepared statement of this connection is outdated') : undefined);
  }
}
