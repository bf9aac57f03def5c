// cal-api-version (docs/integrating.md#api-versions): Cal.com API v2 answers a family of
// routes in the shape the header names, and in an older one without it. Gatehouse answers
// the documented version's shape to a request that names it, and its own earlier shape,
// which its integrators already read, to one that names none or another: the platform's
// older versions are not described anywhere Gatehouse could follow.
import type { IncomingHttpHeaders } from 'node:http';

/** The version each family documents, as its routes' `cal-api-version` header names it. */
export const DOCUMENTED_VERSIONS = { bookings: '2024-08-13', eventTypes: '2024-06-14', schedules: '2024-06-11' } as const;

export type VersionedFamily = keyof typeof DOCUMENTED_VERSIONS;

/** A call as far as its version goes: its request's headers, or none (a tool call over MCP). */
export interface VersionedCall {
  request?: { headers: IncomingHttpHeaders };
}

/** Whether the call names the family's documented version (a tool call over MCP names none). */
export function namesDocumentedVersion(call: VersionedCall, family: VersionedFamily): boolean {
  return call.request?.headers['cal-api-version'] === DOCUMENTED_VERSIONS[family];
}
