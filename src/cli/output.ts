// What every command's answer shares: errors as one line (CliError), snake_case keys and ISO
// times; runtime.emit writes it, as JSON with --json and readable lines otherwise.
export class CliError extends Error {}

/** docs/operating.md#cli-reference: --json keys are snake_case (authorizationCodes → authorization_codes). */
export const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A value as the CLI's JSON writes it: snake_case keys at every depth. */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeCase(k), snakeKeys(v)]));
}

export function formatTime(ms: number | null): string {
  return ms === null ? 'never' : new Date(ms).toISOString();
}
