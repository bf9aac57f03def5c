// Checks that JSON schemas cannot express (time zones, time order, cross-field rules), and
// the errors handlers throw. Every message starts with the field at fault.
import { checkOutboundUrl, isTimeZone, type OutboundPolicy, Refusal } from './authorization-server.ts';

export const invalid = (field: string, message: string) => new Refusal('validation', `${field}: ${message}`);
export const notFound = (what: string) => new Refusal('not_found', `no such ${what}`);
export const conflict = (message: string) => new Refusal('conflict', message);
export const forbidden = (message: string) => new Refusal('forbidden', message);

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

/**
 * An address the service will call (webhook subscriber, calendar feed): https on a public
 * address unless OUTBOUND_ALLOW_PRIVATE=1 (docs/rules.md#outbound-urls, docs/rules.md#webhooks); refused as 400 naming the field.
 */
export async function checkOutbound(value: string, field: string, policy: OutboundPolicy): Promise<URL> {
  const result = await checkOutboundUrl(value, policy);
  if (!result.ok) throw invalid(field, result.problem);
  return result.url;
}

/** JSON text columns, parsed; a row written by this code always holds valid JSON. */
export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}
