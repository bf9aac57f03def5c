// Which driver errors mean "the database cannot take the request now" (StoreUnavailable),
// recognised here once for both dialects (ARCHITECTURE.md#dialects-in-one-module), so that no surface has to know
// a driver's codes and every store throws the same error for an outage.
import type { DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import { StoreTablesMissing, StoreUnavailable } from '../services/store-unavailable.ts';
import { isMissingTable } from './errors.ts';

/** Socket failures on the way to PostgreSQL (Node's system error codes). */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01 admin shutdown, 57P02 crash
 * shutdown, 57P03 cannot connect now (starting or stopping), 53300 too many connections.
 */
const unavailableStates = /^(08...|57P0[123]|53300)$/;

/** node-postgres and pg-pool report a lost or never-made connection only by message. */
const pgConnectionMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (networkCodes.has(code) || unavailableStates.test(code)) return true;
    // better-sqlite3: another connection held the write lock past busy_timeout.
    if (code.startsWith('SQLITE_BUSY')) return true;
  }
  return pgConnectionMessages.some((message) => error.message.startsWith(message));
}

/**
 * The error a store throws for `error`: StoreUnavailable for an outage, StoreTablesMissing
 * for a table that is not there (a restore dropping and making the tables again under running
 * instances, docs/operating.md#backup-and-restore), else the error itself.
 */
function reclassify(error: unknown): unknown {
  if (isDatabaseUnavailable(error)) return new StoreUnavailable(error);
  return isMissingTable(error) ? new StoreTablesMissing(error) : error;
}

const rejectReclassified = (error: unknown): Promise<never> => Promise.reject(reclassify(error));

/** Runs `work` (which may also throw before it returns a promise: better-sqlite3 is synchronous). */
async function classified<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw reclassify(error);
  }
}

/**
 * A connection whose query errors are reclassified. Every query of every request passes
 * here, so it holds its connection as a field (the driver gets it back from `inner`) and
 * allocates no closure per query.
 */
class ClassifyingConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: Parameters<DatabaseConnection['executeQuery']>[0]): Promise<QueryResult<R>> {
    try {
      return this.inner.executeQuery<R>(query).catch(rejectReclassified);
    } catch (error) {
      return Promise.reject(reclassify(error));
    }
  }

  streamQuery<R>(query: Parameters<DatabaseConnection['streamQuery']>[0], chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** The driver's own connection, for a connection the driver handed out through us. */
const original = (connection: DatabaseConnection) => (connection instanceof ClassifyingConnection ? connection.inner : connection);

function classifyingDriver(driver: Driver): Driver {
  return {
    init: () => classified(() => driver.init()),
    acquireConnection: async () => {
      return new ClassifyingConnection(await classified(() => driver.acquireConnection()));
    },
    beginTransaction: (connection, settings) => classified(() => driver.beginTransaction(original(connection), settings)),
    commitTransaction: (connection) => classified(() => driver.commitTransaction(original(connection))),
    rollbackTransaction: (connection) => classified(() => driver.rollbackTransaction(original(connection))),
    ...(driver.savepoint && { savepoint: (connection, name, compile) => classified(() => driver.savepoint!(original(connection), name, compile)) }),
    ...(driver.rollbackToSavepoint && {
      rollbackToSavepoint: (connection, name, compile) => classified(() => driver.rollbackToSavepoint!(original(connection), name, compile)),
    }),
    ...(driver.releaseSavepoint && { releaseSavepoint: (connection, name, compile) => classified(() => driver.releaseSavepoint!(original(connection), name, compile)) }),
    releaseConnection: (connection) => driver.releaseConnection(original(connection)),
    destroy: () => driver.destroy(),
  };
}

/** `dialect` whose every outage error reaches the stores as StoreUnavailable. */
export function classifyingOutages(dialect: Dialect): Dialect {
  return {
    createDriver: () => classifyingDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
