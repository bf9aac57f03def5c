// Recognising database errors across dialects (ARCHITECTURE.md#dialects-in-one-module): a unique-constraint
// violation is "23505" on PostgreSQL and SQLITE_CONSTRAINT_UNIQUE (or _PRIMARYKEY) on SQLite.
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
