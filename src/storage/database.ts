// Opening the database: SQLite (better-sqlite3, WAL) by default, PostgreSQL for
// postgres:// URLs. Dialect differences live here, in prepared.ts and in the migrations
// (ARCHITECTURE.md#dialects-in-one-module).
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type DatabaseIntrospector } from 'kysely';
import pg from 'pg';
import { BackupRefused, backupSqlite, type BackupOptions } from './backup.ts';
import type { Database } from './schema.ts';
import { groupCommitDialect } from './group-commit.ts';
import { namingStatements } from './named-statements.ts';
import { createOwnerOnlyFile, makeOwnerOnlyFolder, tightenToOwnerOnly } from './owner-only.ts';
import { CurrentSchemaIntrospector } from './schema-introspector.ts';
import { classifyingOutages } from './unavailable.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** docs/rules.md#cli: a consistent copy of a SQLite database in `file`; pages copied. PostgreSQL refuses. */
  backup(file: string, options?: BackupOptions): Promise<number>;
  close(): Promise<void>;
  /** What opening changed that the operator should hear of (SECURITY.md: a file's mode tightened). */
  warnings: string[];
}

export interface OpenOptions {
  /** PostgreSQL schema to use (tests isolate themselves with one schema each). */
  schema?: string;
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
  /** SQLite: refuse a file that does not exist instead of creating an empty database. */
  mustExist?: boolean;
  /**
   * Longest wait for a database connection, in milliseconds: for a free connection of the
   * PostgreSQL pool (connecting included), for SQLite's write lock. Past it the request
   * fails with StoreUnavailable (503) instead of waiting on a database that is gone.
   */
  connectTimeoutMs?: number;
}

/** DATABASE_CONNECT_TIMEOUT_SECONDS' default (config/index.ts), for callers without a config. */
const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

// BIGINT columns hold millisecond times and counts, all far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/**
 * better-sqlite3 compiles every statement Kysely sends; the same few statements run on
 * every token request, so compiled statements are kept and reused (bounded, oldest out).
 */
function statementCache(sqlite: SQLite.Database, max = 256): (sql: string) => SQLite.Statement {
  const cache = new Map<string, SQLite.Statement>();
  return (sql) => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = sqlite.prepare(sql);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(sql, statement);
    }
    return statement;
  };
}

/** PostgreSQL, with the migrator's look-ups confined to our schema (schema-introspector.ts). */
class SchemaScopedPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

export function openDatabase(url: string, options: OpenOptions = {}): DatabaseHandle {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // An idle client's error (server restart) must not crash the process.
    pool.on('error', () => undefined);
    // Nor may the error of a client a request holds between two statements (a transaction
    // waiting on a password hash, say) when the server ends its connection: unheard, it
    // ended the process (test/faults/postgres-outage.test.ts). The request learns of it at
    // its next statement, as StoreUnavailable.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: classifyingOutages(new SchemaScopedPostgresDialect({ pool: namingStatements(pool) })) });
    const backup = () =>
      Promise.reject(new BackupRefused('backup copies a SQLite database; for PostgreSQL use pg_dump, e.g. pg_dump --format=custom --file=FILE "$DATABASE_URL"'));
    return { db, dialect: 'postgres', backup, close: () => db.destroy(), warnings: [] };
  }
  if (url.startsWith('sqlite:')) {
    const location = url.slice('sqlite:'.length);
    const file = location === ':memory:' ? ':memory:' : resolve(location);
    if (options.mustExist && (file === ':memory:' || !existsSync(file))) throw new Error(`there is no SQLite database at ${file}`);
    // docs/rules.md#file-permissions: the database holds signing secrets in plain text. Made 0600 before SQLite
    // opens it (SQLite keeps an existing file's mode, and gives its -wal and -shm files the
    // database file's), in a folder of the owner's when Gatehouse makes the folder.
    const warnings: string[] = [];
    if (file !== ':memory:') {
      makeOwnerOnlyFolder(dirname(file));
      createOwnerOnlyFile(file);
      warnings.push(...tightenToOwnerOnly([file, `${file}-wal`, `${file}-shm`]));
    }
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    // WAL with synchronous=NORMAL: a commit survives a process crash; the fsync happens
    // at checkpoints instead of on every commit.
    sqlite.pragma('synchronous = NORMAL');
    // Checkpoints (the only fsyncs under WAL + NORMAL) every ~40 MB of WAL instead of ~4 MB:
    // measured here, it cut the wall time of a four-insert commit by a third.
    sqlite.pragma('wal_autocheckpoint = 10000');
    // Tokens are keyed by random hashes, so inserts touch pages all over the B-trees;
    // a 64 MiB page cache (default 2 MiB) keeps them in memory instead of re-reading.
    sqlite.pragma('cache_size = -65536');
    sqlite.pragma('mmap_size = 268435456');
    sqlite.pragma(`busy_timeout = ${Math.round(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS)}`);
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<Database>({ dialect: classifyingOutages(groupCommitDialect(sqlite, statementCache(sqlite))) });
    return { db, dialect: 'sqlite', backup: (target, options) => backupSqlite(sqlite, file, target, options), close: () => db.destroy(), warnings };
  }
  throw new Error('DATABASE_URL must start with sqlite:, postgres:// or postgresql://');
}
