// Reading submitted forms and showing what is wrong next to the field that caused it.
import type { FastifyRequest } from 'fastify';
import { errorTable } from '../http/errors.ts';
import { ServiceError } from '../services/errors.ts';
import { html, type Html } from './html.ts';

export type FormBody = Record<string, unknown>;
/** Field name → message, in the order the fields appear on the page. */
export type FieldErrors = Record<string, string>;

export function formBody(request: FastifyRequest): FormBody {
  const body = request.body;
  return body !== null && typeof body === 'object' ? (body as FormBody) : {};
}

/** One text field; a repeated field counts as its first value. Capped so a huge paste cannot hurt. */
export function textField(body: FormBody, name: string, max = 20_000): string {
  const value = body[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.slice(0, max) : '';
}

/** A field that may repeat (checkboxes). */
export function listField(body: FormBody, name: string): string[] {
  const value = body[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string').slice(0, 200);
}

/** A textarea with one entry per line. */
export function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** Field names as a person reads them, for service messages written for the CLI. */
const readableFields: Record<string, string> = { homepage_url: 'homepage URL', logo_url: 'logo URL' };

/** Service messages are written lower-case for the CLI; a page shows them as sentences. */
export function sentence(message: string): string {
  const readable = message.replace(/\b(homepage_url|logo_url)\b/g, (name) => readableFields[name]!);
  const text = readable.charAt(0).toUpperCase() + readable.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Runs one check and files its message under its field. */
export function collect<T>(errors: FieldErrors, field: string, check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    errors[error.field ?? field] ??= sentence(error.message);
    return undefined;
  }
}

export function fieldError(errors: FieldErrors, field: string): Html | '' {
  const message = errors[field];
  return message === undefined ? '' : html`<p class="field-error" id="${field}-error">${message}</p>`;
}

/** aria attributes tying an input to its error message. */
export function invalid(errors: FieldErrors, field: string): Html | '' {
  return errors[field] === undefined ? '' : html`aria-invalid="true" aria-describedby="${field}-error"`;
}

/** A summary at the top of the form, each message linking to its field. */
export function errorSummary(errors: FieldErrors, labels: Record<string, string>): Html | '' {
  const entries = Object.entries(errors);
  if (entries.length === 0) return '';
  return html`<div class="error-summary" role="alert" tabindex="-1">
<h2>${entries.length === 1 ? 'There is a problem' : `There are ${entries.length} problems`}</h2>
<ul>${entries.map(([field, message]) => html`<li><a href="#${field}">${labels[field] ?? field}</a>: ${message}</li>`)}</ul>
</div>`;
}

/** The status of a form shown again with a service's refusal (the error table's, http/errors.ts). */
export function statusOf(error: ServiceError): number {
  return errorTable[error.kind].status;
}
