// The audit trail as a table (docs/rules.md#audit-events). Developers see who acted on their client
// without other users' identities, and an admin as "a platform administrator" (docs/rules.md#private-records);
// admins see everyone's.
import { CLI_OPERATOR, CLI_OPERATOR_LABEL } from '../services/actors.ts';
import type { ClientEvent } from '../services/clients/events.ts';
import { html, type Html } from './html.ts';
import { time } from './format.ts';

const labels: Record<string, string> = {
  'client.created': 'Client registered',
  'client.approved': 'Approved by an admin',
  'client.rejected': 'Rejected by an admin',
  'client.suspended': 'Suspended by an admin',
  'client.updated': 'Settings changed',
  'client.scopes_changed': 'Scopes changed',
  'client.review_reopened': 'Awaiting review again',
  'client.migrated': 'Migrated from legacy to scopes',
  'client.resource_server_changed': 'Resource-server mark changed',
  'secret.created': 'Secret added',
  'secret.removed': 'Secret removed',
  'events_url.changed': 'Events URL changed',
  'events_secret.created': 'Events signing secret made (any earlier one stopped working)',
  'grant.created': 'A user authorized the application',
  'grant.revoked': 'An authorization was revoked',
  'token.issued': 'Tokens issued',
  'token.refreshed': 'Tokens refreshed',
  'token.revoked': 'A token was revoked',
  'code.replayed': 'An authorization code was used twice (tokens revoked)',
  'refresh_token.reused': 'A spent refresh token was reused (grant revoked)',
  // An event about a user that the application caused, so it is in the client's trail too.
  'team.created': 'A team was created through the application',
};

function detail(e: ClientEvent): string {
  const d = e.data ?? {};
  const parts: string[] = [];
  if (e.type === 'client.resource_server_changed') parts.push(d.resourceServer === true ? 'marked as a resource server: may introspect any token' : 'no longer a resource server');
  if (typeof d.lastFour === 'string') parts.push(`secret …${d.lastFour}`);
  if (typeof d.reason === 'string') parts.push(`reason: ${d.reason}`);
  if (typeof d.from === 'string' && typeof d.to === 'string') parts.push(`${d.from || '(none)'} → ${d.to || '(none)'}`);
  if (e.type === 'client.migrated' && typeof d.scopes === 'string') parts.push(`scopes: ${d.scopes}`);
  if (Array.isArray(d.fields) && d.fields.length > 0) parts.push(`changed: ${d.fields.join(', ')}`);
  const awaiting = d.awaitingReview as { redirectUris?: string[]; scopes?: string[] } | undefined;
  if (awaiting) {
    const items = [...(awaiting.redirectUris ?? []), ...(awaiting.scopes ?? [])];
    parts.push(items.length > 0 ? `awaiting review: ${items.join(', ')}` : 'withdrew changes awaiting review');
  }
  const changes = d.changes as { redirectUris?: string[]; scopes?: string[] } | undefined;
  if (changes) parts.push(`changes: ${[...(changes.redirectUris ?? []), ...(changes.scopes ?? [])].join(', ')}`);
  if (d.resubmitted === true) parts.push('resubmitted for review');
  return parts.join('; ');
}

function actorName(e: ClientEvent, viewer: { id: string; admin: boolean }): string {
  if (e.actorId === CLI_OPERATOR) return CLI_OPERATOR_LABEL;
  // A client acting for itself (RFC 7009 revocation records the client as the actor).
  if (e.actorId !== null && e.actorId === e.clientId) return 'the application';
  if (e.actor === null) return e.actorId === null ? 'system' : 'unknown';
  if (e.actor.id === viewer.id) return 'you';
  if (viewer.admin) return `${e.actor.name} (${e.actor.email})${e.actor.admin ? ', admin' : ''}`;
  return e.actor.admin ? 'a platform administrator' : 'a user';
}

export function eventTable(events: ClientEvent[], viewer: { id: string; admin: boolean }): Html {
  if (events.length === 0) return html`<p class="muted">No events yet.</p>`;
  return html`<div class="table-wrap"><table class="events stack">
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">Details</th></tr></thead>
<tbody>${events.map(
    (e) => html`<tr data-event="${e.type}"><td data-label="When">${time(e.createdAt)}</td><td data-label="What">${labels[e.type] ?? e.type} <code>${e.type}</code></td><td data-label="Who">${actorName(e, viewer)}</td><td data-label="Details">${detail(e)}</td></tr>`,
  )}</tbody></table></div>`;
}
