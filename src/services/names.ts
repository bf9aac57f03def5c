// Names people give things (a user, a client, a team, an organization) are shown on pages,
// in admins' review queues and in the CLI's lists, one per line. A control character in one
// (a newline, an escape sequence) could forge a line of `gatehouse clients list`, or clear an
// operator's terminal: a name is one line of text.
import { validation } from './errors.ts';

const CONTROL = /\p{Cc}/u;

export const ONE_LINE = 'must be one line of text, without control characters';

export const hasControlCharacters = (name: string): boolean => CONTROL.test(name);

/** Refuses a name holding a control character, naming the field. */
export function refuseControlCharacters(name: string, field = 'name'): void {
  if (hasControlCharacters(name)) throw validation(`${field} ${ONE_LINE}`, field);
}

const FORMATTING = /\p{Cf}/u;

/**
 * docs/rules.md#client-record: a client's name refuses invisible formatting characters (Unicode category Cf:
 * the bidi embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, zero-width
 * characters). Shown on a consent page they make a name read as another: "Calendar
 * \u202Emoc.elgoog" displays as "Calendar google.com". The message names the one found.
 */
export function refuseFormattingCharacters(name: string, field = 'name'): void {
  const found = FORMATTING.exec(name)?.[0];
  if (found === undefined) return;
  const codePoint = `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  throw validation(`${field} must not contain invisible formatting characters (it holds ${codePoint}, which can make a name display as another): remove it`, field);
}
