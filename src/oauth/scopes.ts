// The scope registry (docs/rules.md#scope-registry): every scope with its family and plain-words description,
// in the order of docs/rules.md#scope-registry, which is also the order of scopes in every response (docs/rules.md#scope-syntax).
import { unknownScopesMessage } from './scope-suggestions.ts';
import { invalidScope } from './errors.ts';

export type ScopeFamily = 'identity' | 'personal' | 'team' | 'organization';

export interface ScopeDefinition {
  name: string;
  family: ScopeFamily;
  /** What the user is agreeing to, shown on the consent page. */
  description: string;
}

// OpenID Connect Core §3.1.2.1, §5.4 (docs/integrating.md#sign-in-with-gatehouse): who the user is,
// for signing in with Gatehouse. They guard UserInfo and what the ID token tells, no /v2 route.
const identity: Array<[string, string]> = [
  ['openid', 'Know who you are: sign you in with your Gatehouse account.'],
  ['profile', 'See your name.'],
  ['email', 'See your email address, and whether it is verified.'],
];

/**
 * OpenID Connect Core §11: offline_access asks for a refresh token, which every code exchange
 * issues anyway; it may always be sent, by any client, and changes nothing: it is dropped
 * from the request and never granted.
 */
export const OFFLINE_ACCESS = 'offline_access';

const personal: Array<[string, string]> = [
  ['EVENT_TYPE_READ', 'Read event types and their private links.'],
  ['EVENT_TYPE_WRITE', 'Create, change, delete event types; manage private links.'],
  ['BOOKING_READ', 'List bookings; read recordings, transcripts, calendar links, references.'],
  ['BOOKING_WRITE', 'Add guests, change locations, confirm, decline, reassign bookings.'],
  ['SCHEDULE_READ', 'List and read schedules (availability).'],
  ['SCHEDULE_WRITE', 'Create, change, delete schedules.'],
  ['APPS_READ', 'List connected calendars, check busy times, check ICS feeds, verify calendar connections.'],
  ['APPS_WRITE', 'Save ICS feeds, connect calendars by OAuth, save Apple calendar credentials, disconnect calendars.'],
  ['PROFILE_READ', "Read the authorized user's profile."],
  ['PROFILE_WRITE', "Update the authorized user's profile."],
  ['WEBHOOK_READ', 'List and read webhooks.'],
  ['WEBHOOK_WRITE', 'Create, update, delete webhooks.'],
  ['VERIFIED_RESOURCES_READ', 'List verified email addresses and phone numbers.'],
  ['VERIFIED_RESOURCES_WRITE', 'Request verification codes; verify emails and phone numbers.'],
];

const team: Array<[string, string]> = [
  ['TEAM_EVENT_TYPE_READ', 'Read team event types.'],
  ['TEAM_EVENT_TYPE_WRITE', 'Create, change, delete team event types.'],
  ['TEAM_BOOKING_READ', 'Read team bookings.'],
  ['TEAM_BOOKING_WRITE', 'Create, change, delete team bookings.'],
  ['TEAM_SCHEDULE_READ', 'Read team schedules.'],
  ['TEAM_SCHEDULE_WRITE', 'Create, change, delete team schedules.'],
  ['TEAM_PROFILE_READ', 'Read team profiles.'],
  ['TEAM_PROFILE_WRITE', 'Create, change, delete teams.'],
  ['TEAM_MEMBERSHIP_READ', 'Read team memberships.'],
  ['TEAM_MEMBERSHIP_WRITE', 'Create, change, delete team memberships.'],
  ['TEAM_APPS_READ', 'Read team connected apps.'],
  ['TEAM_APPS_WRITE', 'Connect and disconnect team apps.'],
  ['TEAM_ROUTING_FORM_READ', 'Read team routing forms.'],
  ['TEAM_ROUTING_FORM_WRITE', 'Create, change, delete team routing form responses.'],
  ['TEAM_WORKFLOW_READ', 'Read team workflows.'],
  ['TEAM_WORKFLOW_WRITE', 'Create, change, delete team workflows.'],
  ['TEAM_VERIFIED_RESOURCES_READ', 'Read team verified emails and phone numbers.'],
  ['TEAM_VERIFIED_RESOURCES_WRITE', 'Verify emails and phone numbers for teams.'],
];

const organization: Array<[string, string]> = [
  ['ORG_EVENT_TYPE_READ', 'Read every event type in the organization.'],
  ['ORG_EVENT_TYPE_WRITE', 'Create, change, delete event types organization-wide.'],
  ['ORG_BOOKING_READ', 'Read every booking in the organization.'],
  ['ORG_BOOKING_WRITE', 'Create, change, delete bookings organization-wide.'],
  ['ORG_SCHEDULE_READ', 'Read schedules in the organization.'],
  ['ORG_SCHEDULE_WRITE', 'Create, change, delete schedules in the organization.'],
  ['ORG_PROFILE_READ', "Read the organization's teams."],
  ['ORG_PROFILE_WRITE', "Create, change, delete the organization's teams."],
  ['ORG_MEMBERSHIP_READ', 'Read organization memberships and users.'],
  ['ORG_MEMBERSHIP_WRITE', 'Create, change, delete organization memberships and users.'],
  ['ORG_ROUTING_FORM_READ', 'Read organization routing forms.'],
  ['ORG_ROUTING_FORM_WRITE', 'Create, change, delete organization routing form responses.'],
  ['ORG_WEBHOOK_READ', 'Read organization webhooks.'],
  ['ORG_WEBHOOK_WRITE', 'Create, change, delete organization webhooks.'],
];

export const scopeRegistry: readonly ScopeDefinition[] = [
  ...identity.map(([name, description]) => ({ name, family: 'identity' as const, description })),
  ...personal.map(([name, description]) => ({ name, family: 'personal' as const, description })),
  ...team.map(([name, description]) => ({ name, family: 'team' as const, description })),
  ...organization.map(([name, description]) => ({ name, family: 'organization' as const, description })),
];

export const familyTitles: Record<ScopeFamily, string> = {
  identity: 'Who you are',
  personal: 'Your account',
  team: 'Your teams',
  organization: 'Your organization',
};

const byName = new Map(scopeRegistry.map((s, index) => [s.name, { ...s, index }]));

export function isKnownScope(name: string): boolean {
  return byName.has(name);
}

/** "unknown scope: …", with the registry names they were probably meant to be. */
export function unknownScopes(names: readonly string[]): string {
  return unknownScopesMessage(names, [...byName.keys()]);
}

export function describeScope(name: string): ScopeDefinition | undefined {
  return byName.get(name);
}

/** Registry order, duplicates folded. */
export function sortScopes(names: Iterable<string>): string[] {
  return [...new Set(names)].sort((a, b) => byName.get(a)!.index - byName.get(b)!.index);
}

/**
 * Parses the `scope` parameter of an authorization request: names separated by spaces
 * and/or commas (docs/rules.md#authorization-request), duplicates folded, unknown names refused (docs/rules.md#scope-syntax).
 */
export function parseScopeParameter(value: string): string[] {
  const sent = value.split(/[\s,]+/).filter((n) => n !== '');
  const names = sent.filter((n) => n !== OFFLINE_ACCESS);
  // RFC 6749 §3.3: a scope that names nothing is an invalid scope, as one left out is.
  if (sent.length === 0) throw invalidScope('scope is empty: name at least one scope, separated by spaces');
  if (names.length === 0) throw invalidScope('offline_access alone grants nothing: name the scopes the application needs (refresh tokens are issued without it)');
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0) throw invalidScope(unknownScopes(unknown));
  return sortScopes(names);
}

/** Response form: registry order joined by single spaces (docs/rules.md#token-response). */
export function formatScopes(scopes: readonly string[] | null): string {
  return scopes === null ? '' : sortScopes(scopes).join(' ');
}

/**
 * Does a grant satisfy a route's required scope? docs/rules.md#scope-checks: ORG_<X> satisfies
 * TEAM_<X>. `null` is a legacy grant, which is exempt from scope checks (docs/rules.md#scope-checks).
 */
export function grantSatisfies(granted: readonly string[] | null, required: string): boolean {
  if (granted === null || granted.includes(required)) return true;
  return required.startsWith('TEAM_') && granted.includes('ORG_' + required.slice('TEAM_'.length));
}

