// Queries on the hot paths (token endpoint, bearer checks) are built and compiled by Kysely
// once per dialect and then run with new parameter values: a CPU profile of code exchange
// showed Kysely's query building and compiling at ~29% of the request. The query is still
// written with Kysely's typed builder; only the repeated compile is skipped.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Compilable,
  type CompiledQuery,
  type QueryResult,
} from 'kysely';
import type { DialectName } from './database.ts';
import type { Database } from './schema.ts';
import type { Executor } from './repositories/executor.ts';

// Compile-only instances (Kysely's documented DummyDriver pattern): they never connect.
const compilers: Record<DialectName, Kysely<Database>> = {
  sqlite: new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  }),
  postgres: new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  }),
};

const SENTINEL = '\u0000param:';

/** A stand-in for a parameter while the query is compiled; replaced at every run. */
export type Placeholders<P> = { readonly [K in keyof P]: P[K] };

/**
 * Placeholders with real keys, for builders that enumerate them (insert values); each
 * takes the parameter named `${prefix}${key}` (a prefix tells apart rows of one statement).
 */
export function placeholderRow<K extends string>(keys: readonly K[], prefix = ''): Record<K, never> {
  return Object.fromEntries(keys.map((k) => [k, `${SENTINEL}${prefix}${k}`])) as Record<K, never>;
}

export interface PreparedQuery<P, R> {
  run(db: Executor, params: P): Promise<QueryResult<R>>;
}

/**
 * Which dialect an executor (database or transaction) speaks. Kysely exposes the adapter
 * only through getExecutor() (typed, marked internal; kysely is pinned to 0.28).
 */
export function dialectOf(db: Executor): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * The SQL of every prepared query compiled for PostgreSQL, with a statement name each:
 * named-statements.ts has the server keep their plans, one parse per connection.
 */
const postgresStatementNames = new Map<string, string>();

export function statementNameOf(sql: string): string | undefined {
  return postgresStatementNames.get(sql);
}

export function prepare<P extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, p: Placeholders<P>) => Compilable<R>,
): PreparedQuery<P, R> {
  const compiled = new Map<DialectName, { query: CompiledQuery<R>; slots: Array<keyof P | undefined> }>();
  const placeholders = new Proxy({}, { get: (_t, name) => `${SENTINEL}${String(name)}` }) as Placeholders<P>;
  return {
    run(db, params) {
      const dialect = dialectOf(db);
      let entry = compiled.get(dialect);
      if (entry === undefined) {
        const query = build(compilers[dialect], placeholders).compile();
        const slots = query.parameters.map((v) =>
          typeof v === 'string' && v.startsWith(SENTINEL) ? (v.slice(SENTINEL.length) as keyof P) : undefined,
        );
        entry = { query, slots };
        compiled.set(dialect, entry);
        // A statement that selects or returns `*` changes its result type when a migration
        // adds a column, which PostgreSQL refuses for a prepared one (0A000, "cached plan must
        // not change result type") while running instances still use it: those stay unnamed.
        if (dialect === 'postgres' && !query.sql.includes('*') && !postgresStatementNames.has(query.sql)) {
          postgresStatementNames.set(query.sql, `gatehouse_${postgresStatementNames.size + 1}`);
        }
      }
      const { query, slots } = entry;
      const parameters: unknown[] = [];
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        const value = slot === undefined ? query.parameters[i] : params[slot];
        // A missing value would be stored as NULL without a word: a renamed column, say.
        if (value === undefined) return Promise.reject(new Error(`prepared query: no value for parameter ${String(slot)}`));
        parameters.push(value);
      }
      return db.executeQuery<R>({ ...query, parameters });
    },
  };
}
