// What every command's answer shares: errors as one line (CliError), snake_case keys and ISO
// times, and text a terminal shows rather than acts on; runtime.emit writes it, as JSON with
// --json and readable lines otherwise.
export class CliError extends Error {}

/**
 * What a terminal acts on rather than shows: control characters (Unicode Cc: C0 with the
 * escape that starts a sequence, DEL, and C1 with its one-character sequence introducer
 * U+009B), invisible formatting (Cf: the bidi overrides that turn the rest of a line
 * around), the line and paragraph separators, and a lone surrogate.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const unicodeEscape = (character: string): string => {
  const code = character.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * docs/rules.md#cli: one line of the CLI's human output as a terminal should get it, whatever
 * it quotes: what the terminal would act on is written out (`\u001b`, `\n`), so a name or a URI
 * stored before names and URIs refused control characters cannot erase a line, forge one or
 * turn one around. Every human line goes through here (writeLines).
 */
export function printable(line: string): string {
  return line.replace(UNPRINTABLE, (character) => NAMED[character] ?? unicodeEscape(character));
}

/** Where the CLI writes (a stream, or a test's buffer). */
export interface TextOutput {
  write(text: string): unknown;
}

/** Writes lines a person reads, each made printable and ended by a newline: one string is one line. */
export function writeLines(out: TextOutput, lines: string | readonly string[]): void {
  out.write((typeof lines === 'string' ? [lines] : lines).map((line) => printable(line) + '\n').join(''));
}

/**
 * --json output: the same values, with what JSON.stringify leaves as it is and a terminal
 * would act on (DEL, C1, Cf, the line separators) written as \u escapes, which read back as the
 * same characters.
 */
export function jsonText(data: unknown): string {
  return (
    JSON.stringify(data, null, 2).replace(/[\u007f-\u009f\p{Cf}\u2028\u2029]/gu, (character) =>
      Array.from({ length: character.length }, (_, i) => `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
    ) + '\n'
  );
}

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
