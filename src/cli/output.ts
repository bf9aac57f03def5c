// One way to answer: JSON with --json, readable lines otherwise; errors as one line.
export class CliError extends Error {}

export function emit(json: boolean, data: unknown, human: () => string): void {
  process.stdout.write(json ? JSON.stringify(data, null, 2) + '\n' : human() + '\n');
}

/** README: --json keys are snake_case (authorizationCodes → authorization_codes). */
export const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function formatTime(ms: number | null): string {
  return ms === null ? 'never' : new Date(ms).toISOString();
}
