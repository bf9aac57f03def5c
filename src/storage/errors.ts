// Recognising database errors across dialects (ARCHITECTURE.md#dialects-in-one-module): a unique-constraint
// violation is "23505" on PostgreSQL and SQLITE_CONSTRAINT_UNIQUE (or _PRIMARYKEY) on SQLite;
// a missing table is "42P01" (undefined_table) on PostgreSQL, and on SQLite only its message says so.
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isMissingTable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '42P01' || (code === 'SQLITE_ERROR' && typeof message === 'string' && message.startsWith('no such table: '));
}
