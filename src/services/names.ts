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
