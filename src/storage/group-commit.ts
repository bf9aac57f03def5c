// Group commit on SQLite: the transactions that run in one event-loop turn share one
// database transaction and one commit. A CPU profile of code exchange had SQLite's commit
// work (writing the touched pages to the WAL, once per request) as the largest single cost;
// a group writes each touched page once for all of its members.
//
// Each member still stands alone: it runs inside its own SAVEPOINT, so a member that throws
// rolls back only its own writes, and a member's commit returns only after the group's
// COMMIT has succeeded (if that COMMIT fails, every member of the group fails with it).
// A write outside any transaction opens a group or joins the open one, and any statement
// run while a group is open becomes part of it; both are answered after its commit too, so
// nothing a caller sees was not committed.
//
// better-sqlite3 is synchronous and SQLite has one connection per process here, so members
// run one after another (a FIFO lock, as Kysely's own SQLite driver does); the lock is let
// go as soon as a member's savepoint is released, so the next request joins the group while
// earlier members wait for its commit.
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';

/** First come, first served: the connection, or the right to commit the group. */
class FifoLock {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

/** One shared database transaction and the promise its members wait on. */
class Group {
  readonly committed: Promise<void>;
  settle!: (error?: unknown) => void;
  constructor() {
    this.committed = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Members that already failed for their own reasons may never await it.
    this.committed.catch(() => undefined);
  }
}

const SAVEPOINT = 'gatehouse_member';

/** The connection handed out for one acquire: one query, or one transaction. */
class MemberConnection implements DatabaseConnection {
  /** The group this connection's work joined, which it must see committed before answering. */
  group: Group | undefined;
  inSavepoint = false;
  released = false;

  constructor(private readonly driver: GroupCommitDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return Promise.resolve(this.driver.run<R>(this, query));
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on SQLite here');
  }
}

export class GroupCommitDriver implements Driver {
  readonly #lock = new FifoLock();
  #group: Group | undefined;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly prepare: (sql: string) => SQLite.Statement,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.acquire();
    return new MemberConnection(this);
  }

  async beginTransaction(connection: MemberConnection): Promise<void> {
    if (this.#group === undefined) this.#open();
    connection.group = this.#group;
    this.prepare(`savepoint ${SAVEPOINT}`).run();
    connection.inSavepoint = true;
  }

  async commitTransaction(connection: MemberConnection): Promise<void> {
    this.#assertGroupAlive(connection);
    this.prepare(`release ${SAVEPOINT}`).run();
    connection.inSavepoint = false;
    this.#release(connection);
    await connection.group!.committed;
  }

  async rollbackTransaction(connection: MemberConnection): Promise<void> {
    // After a failed group commit there is nothing of this member's left to undo; and an
    // error that made SQLite abandon the whole group has ended the savepoint too.
    if (!connection.inSavepoint || connection.released || connection.group !== this.#group) return;
    this.prepare(`rollback to ${SAVEPOINT}`).run();
    this.prepare(`release ${SAVEPOINT}`).run();
    connection.inSavepoint = false;
  }

  async releaseConnection(connection: MemberConnection): Promise<void> {
    this.#release(connection);
    if (connection.group !== undefined) await connection.group.committed;
  }

  async destroy(): Promise<void> {
    // The group in flight commits before the database closes.
    await this.#group?.committed.catch(() => undefined);
    await this.#lock.acquire();
    this.sqlite.close();
  }

  run<R>(connection: MemberConnection, query: CompiledQuery): QueryResult<R> {
    this.#assertGroupAlive(connection);
    const statement = this.prepare(query.sql);
    // A write on its own opens a group too: it shares the commit of the writes beside it
    // instead of paying for one of its own. A read on its own runs at once. A write that
    // returns rows (UPDATE … RETURNING, as an id series takes its next number) is a reader to
    // better-sqlite3 but writes all the same.
    const writes = !statement.reader || !statement.readonly;
    if (this.#group === undefined && writes && !this.sqlite.inTransaction) this.#open();
    if (connection.group === undefined) connection.group = this.#group;
    try {
      if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
      const { changes, lastInsertRowid } = statement.run(query.parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    } catch (error) {
      // Some errors (disk full, I/O) make SQLite roll back the whole transaction: every
      // member of the group loses its writes, so every member fails.
      if (this.#group !== undefined && !this.sqlite.inTransaction) {
        this.#group.settle(error);
        this.#group = undefined;
      }
      throw error;
    }
  }

  #open(): void {
    // IMMEDIATE: the write lock up front (waiting busy_timeout for another process), so a
    // member that reads and then writes cannot fail on a snapshot another process moved.
    this.prepare('begin immediate').run();
    const group = new Group();
    this.#group = group;
    setImmediate(() => void this.#commit(group));
  }

  /** After the members already queued for the connection; those queued later open a new group. */
  async #commit(group: Group): Promise<void> {
    await this.#lock.acquire();
    try {
      if (this.#group !== group) return; // already failed and abandoned
      this.#group = undefined;
      try {
        this.prepare('commit').run();
        group.settle();
      } catch (error) {
        if (this.sqlite.inTransaction) this.prepare('rollback').run();
        group.settle(error);
      }
    } finally {
      this.#lock.release();
    }
  }

  /** A member whose group SQLite abandoned (see run) must not write on into another one. */
  #assertGroupAlive(connection: MemberConnection): void {
    if (connection.inSavepoint && connection.group !== this.#group) {
      throw new Error('the transaction was rolled back with its group after a database error');
    }
  }

  #release(connection: MemberConnection): void {
    if (connection.released) return;
    connection.released = true;
    this.#lock.release();
  }
}

export function groupCommitDialect(sqlite: SQLite.Database, prepare: (sql: string) => SQLite.Statement): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new GroupCommitDriver(sqlite, prepare),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
