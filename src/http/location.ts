// docs/rules.md#security-headers: Location headers are percent-encoded, whatever the input. A redirect target built
// from a request (the `next` of the login page, an authorization response) may hold any
// character; a header may hold only visible ASCII, and Node refuses anything past Latin-1
// (a 500) and sends Latin-1 as raw bytes. Every redirect goes through encodeLocation.
import type { FastifyInstance } from 'fastify';

/** Characters a URI may hold as they are (RFC 3986 §2.2, §2.3), and % when it starts an escape. */
const NEEDS_ENCODING = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu;

/** The target with every character that may not stand in a URI encoded as UTF-8; escapes kept. */
export function encodeLocation(target: string): string {
  return target.replace(NEEDS_ENCODING, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate: U+FFFD, as a browser would send it
    }
  });
}

/** Encodes the Location of every answer, so no route can send one raw. */
export function encodeLocations(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every answer, and needs no promise.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const location = reply.getHeader('location');
    if (typeof location === 'string') reply.header('location', encodeLocation(location));
    done(null, payload);
  });
}
