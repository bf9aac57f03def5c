// The database cannot be reached or cannot take the request now: PostgreSQL stopped,
// restarting or out of connections, or SQLite locked by another writer past its busy
// timeout. Thrown by every store (src/storage classifies the drivers' errors); every
// surface answers it 503 with Retry-After instead of a 500, because trying again later is
// the right thing for the caller to do.
export class StoreUnavailable extends Error {
  /** Seconds a caller is told to wait before trying again (Retry-After). */
  static readonly retryAfterSeconds = 5;

  constructor(
    /** What the driver said, for the log only. */
    readonly driverError: unknown,
    message = 'the database is unavailable',
  ) {
    super(message, { cause: driverError });
    this.name = 'StoreUnavailable';
  }
}

/**
 * A table a request needs is not there: a restore under way (`pg_restore --clean` drops each
 * table and makes it again, docs/operating.md#backup-and-restore), or instances started
 * against a database not yet migrated. It ends on its own as an outage does, so it is one.
 */
export class StoreTablesMissing extends StoreUnavailable {
  constructor(driverError: unknown) {
    super(driverError, 'a table of the database is missing: a restore under way, or migrations not applied');
    this.name = 'StoreTablesMissing';
  }
}
