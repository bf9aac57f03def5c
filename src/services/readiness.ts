// Whether the service can answer (GET /readyz): a port of the operations surface, which
// storage implements over the opened database (storage/readiness.ts).

/** The database as the readiness check sees it. */
export interface Readiness {
  /** Resolves when the database answers a trivial query; rejects when it cannot be reached. */
  ping(): Promise<void>;
  /** Whether every known migration has been applied; rejects when the database cannot be reached. */
  migrationsApplied(): Promise<boolean>;
}
