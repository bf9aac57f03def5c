// Checks that JSON schemas cannot express (time zones, time order, cross-field rules), and
// the errors handlers throw. Every message starts with the field at fault.
import { isTimeZone } from '../services/time-zones.ts';
import { ApiError } from './envelope.ts';

export const invalid = (field: string, message: string) => new ApiError(400, 'validation_error', `${field}: ${message}`);
export const notFound = (what: string) => new ApiError(404, 'not_found', `no such ${what}`);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

export function checkTimeZone(value: string | undefined, field = 'timeZone'): void {
  if (value !== undefined && !isTimeZone(value)) throw invalid(field, `"${value}" is not an IANA time zone such as Europe/Berlin`);
}

/** An ISO 8601 date-time (already checked by the schema) as epoch milliseconds. */
export function toMillis(value: string, field: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalid(field, 'must be a date-time such as 2030-01-31T09:00:00Z');
  return ms;
}

export const iso = (ms: number) => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** Webhook and feed addresses: https, or http to this machine only (as redirect URIs). */
export function checkPublicUrl(value: string, field: string, schemes: string[] = ['https:']): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(field, 'must be an absolute URL');
  }
  const loopback = url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (!schemes.includes(url.protocol) && !loopback) throw invalid(field, `must use ${schemes.map((s) => s.replace(':', '')).join(' or ')} (http only for localhost)`);
  if (url.username !== '' || url.password !== '') throw invalid(field, 'must not carry a user name or password');
  return url;
}

/** JSON text columns, parsed; a row written by this code always holds valid JSON. */
export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}
