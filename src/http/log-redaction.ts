// Request lines in the log (SPEC §7: no secret or token in logs). Fastify logs each
// request's URL with its query string; a client that puts a secret, token or code in the
// query (where none belongs) must not get it written to the log. The value of any
// sensitive parameter is replaced; everything else is logged as Fastify would.
import type { FastifyRequest } from 'fastify';

// `token$` also covers a booking's `manageToken` (SPEC §2 item 26), should one come in a query.
const SENSITIVE = /^(code|code_verifier|password|assertion|client_assertion)$|secret|token$/i;

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The URL with the values of sensitive query parameters replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .replace(/(^|&)([^=&]*)=([^&]*)/g, (whole, sep: string, name: string) => (SENSITIVE.test(decodeName(name)) ? `${sep}${name}=[redacted]` : whole));
  return `${url.slice(0, q)}?${query}`;
}

/** Fastify's default request serializer, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  const version = request.headers?.['accept-version'];
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: Array.isArray(version) ? version[0] : version,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
