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
  ) {
    super('the database is unavailable', { cause: driverError });
    this.name = 'StoreUnavailable';
  }
}
