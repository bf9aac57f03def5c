// Request lines in the log (docs/rules.md#private-records: no secret or token in logs). Fastify logs each
// request's URL with its query string; a client that puts a secret, token or code in the
// URL (where none belongs) must not get it written to the log, however it dresses the name
// up. Two rules, both on the decoded text:
// - a parameter whose name has a sensitive stem (code[], "code ", refresh_token\0,
//   user[password]) loses its value;
// - anything shaped like one of our credentials (gac_/gat_/grt_/gcs_/gbm_/gti_/gcr_ and token characters,
//   docs/rules.md#token-formats) is redacted wherever it stands: any parameter's name or value, or the path.
// Everything else is logged as Fastify would.
import type { FastifyRequest } from 'fastify';

// `token$` also covers a booking's `manageToken` (docs/rules.md#public-booking), should one come in a query.
const SENSITIVE_STEM = /^(code|code_verifier|password|assertion|client_assertion)$|secret|token$/i;
const CREDENTIAL = /g(?:ac|at|rt|cs|bm|ti|cr)_[0-9A-Za-z]/i;
const REDACTED = '[redacted]';

/**
 * The text as the server could read it, decoded as many times as it was encoded. Byte-wise:
 * credentials are ASCII, and a malformed escape or broken UTF-8 must not hide one.
 */
function decoded(text: string): string {
  let current = text.replace(/\+/g, ' ');
  for (let i = 0; i < 4; i++) {
    const next = current.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === current) break;
    current = next;
  }
  return current;
}

const holdsCredential = (raw: string) => CREDENTIAL.test(decoded(raw));

/** The name's stems: the words between brackets, spaces, NULs and other non-name characters. */
const hasSensitiveStem = (rawName: string) => decoded(rawName).split(/[^A-Za-z0-9_]+/).some((stem) => SENSITIVE_STEM.test(stem));

function redactParameter(pair: string): string {
  const eq = pair.indexOf('=');
  const name = eq < 0 ? pair : pair.slice(0, eq);
  if (holdsCredential(name)) return REDACTED;
  if (eq < 0) return pair;
  const value = pair.slice(eq + 1);
  return hasSensitiveStem(name) || holdsCredential(value) ? `${name}=${REDACTED}` : pair;
}

/** The URL with every sensitive value replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const safePath = path
    .split('/')
    .map((segment) => (holdsCredential(segment) ? REDACTED : segment))
    .join('/');
  if (q < 0) return safePath;
  return `${safePath}?${url.slice(q + 1).split('&').map(redactParameter).join('&')}`;
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
