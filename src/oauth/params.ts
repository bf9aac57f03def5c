// Request parameters as the protocol sees them: one string per name.
import { invalidRequest } from './errors.ts';

export type Params = Record<string, string>;

/**
 * Flattens a parsed query or body. RFC 6749 §3.1: a parameter sent more than once is
 * invalid_request; unknown parameters are kept and ignored by the handlers (§3.2).
 * Values that are not strings (JSON numbers, objects) are refused with the field's name.
 * `multiValued` names the parameters a specification lets repeat (RFC 8707 `resource`):
 * they are left out, for their own reader.
 */
export function readParams(raw: unknown, multiValued: readonly string[] = []): Params {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalidRequest('request body must be a set of named parameters');
  }
  const params: Params = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (multiValued.includes(name)) continue;
    if (Array.isArray(value)) throw invalidRequest(`${name} was sent more than once`);
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw invalidRequest(`${name} must be a string`);
    if (value.length > 4096) throw invalidRequest(`${name} is too long (at most 4096 characters)`);
    params[name] = value;
  }
  return params;
}

/** A parameter that must be present and non-empty. */
export function required(params: Params, name: string): string {
  const value = params[name];
  if (value === undefined || value === '') throw invalidRequest(`${name} is required`);
  return value;
}

/** Empty values count as absent (RFC 6749 §3.1). */
export function optional(params: Params, name: string): string | undefined {
  const value = params[name];
  return value === '' ? undefined : value;
}
