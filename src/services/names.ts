// Names people give things (a user, a client, a team, an organization) are shown on pages,
// in admins' review queues and in the CLI's lists, one per line. A control character in one
// (a newline, an escape sequence) could forge a line of `gatehouse clients list`, or clear an
// operator's terminal: a name is one line of text. The URIs and URL client ids listed beside
// the names take the same rule on control characters (docs/rules.md#redirect-uris).
import { validation } from './errors.ts';

/** Unicode Cc: C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F). */
const CONTROL = /\p{Cc}/u;

export const ONE_LINE = 'must be one line of text, without control characters';

export const hasControlCharacters = (name: string): boolean => CONTROL.test(name);

const codePoint = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first control character of `text` as U+XXXX, or undefined when it holds none. */
export function controlCharacterIn(text: string): string | undefined {
  const found = CONTROL.exec(text)?.[0];
  return found === undefined ? undefined : codePoint(found);
}

/**
 * What a URI holding a control character is told, or undefined when it holds none: RFC 3986
 * §2 allows none in a URI, and one kept would reach an operator's terminal as it is.
 * `which` names it as the caller's message does ("redirect URI 2", "it").
 */
export function uriControlProblem(uri: string, which: string): string | undefined {
  const found = controlCharacterIn(uri);
  return found === undefined ? undefined : `${which} holds a control character (${found}), which no URI may hold (RFC 3986 §2): remove it`;
}

/** Refuses a name holding a control character, naming the field. */
export function refuseControlCharacters(name: string, field = 'name'): void {
  if (hasControlCharacters(name)) throw validation(`${field} ${ONE_LINE}`, field);
}

const FORMATTING = /\p{Cf}/u;

/**
 * docs/rules.md#client-record: a name refuses invisible formatting characters (Unicode category Cf:
 * the bidi embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, zero-width
 * characters). Shown on a consent page they make a name read as another: "Calendar
 * \u202Emoc.elgoog" displays as "Calendar google.com". The message names the one found.
 */
export function refuseFormattingCharacters(name: string, field = 'name'): void {
  const found = FORMATTING.exec(name)?.[0];
  if (found === undefined) return;
  throw validation(`${field} must not contain invisible formatting characters (it holds ${codePoint(found)}, which can make a name display as another): remove it`, field);
}

/**
 * docs/rules.md#client-record: the one rule on the characters of a name others read as the
 * name of something (a client's, a team's, an organization's): one line, nothing invisible.
 */
export function refuseHiddenCharacters(name: string, field = 'name'): void {
  refuseControlCharacters(name, field);
  refuseFormattingCharacters(name, field);
}
