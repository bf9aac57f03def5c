// The scope registry (docs/rules.md#scope-registry) and scope syntax (docs/rules.md#scope-syntax).
import { describe, expect, it } from 'vitest';
import { OAuthError } from '../../src/oauth/errors.ts';
import {
  describeScope,
  formatScopes,
  grantSatisfies,
  isKnownScope,
  parseScopeParameter,
  scopeRegistry,
} from '../../src/oauth/scopes.ts';

// Copied by hand from the four scope families of docs/rules.md#scope-registry, in their order.
const SEED_IDENTITY = ['openid', 'profile', 'email'];
const SEED_PERSONAL = [
  'EVENT_TYPE_READ', 'EVENT_TYPE_WRITE', 'BOOKING_READ', 'BOOKING_WRITE', 'SCHEDULE_READ', 'SCHEDULE_WRITE',
  'APPS_READ', 'APPS_WRITE', 'PROFILE_READ', 'PROFILE_WRITE', 'WEBHOOK_READ', 'WEBHOOK_WRITE',
  'VERIFIED_RESOURCES_READ', 'VERIFIED_RESOURCES_WRITE',
];
const SEED_TEAM = [
  'TEAM_EVENT_TYPE_READ', 'TEAM_EVENT_TYPE_WRITE', 'TEAM_BOOKING_READ', 'TEAM_BOOKING_WRITE', 'TEAM_SCHEDULE_READ',
  'TEAM_SCHEDULE_WRITE', 'TEAM_PROFILE_READ', 'TEAM_PROFILE_WRITE', 'TEAM_MEMBERSHIP_READ', 'TEAM_MEMBERSHIP_WRITE',
  'TEAM_APPS_READ', 'TEAM_APPS_WRITE', 'TEAM_ROUTING_FORM_READ', 'TEAM_ROUTING_FORM_WRITE', 'TEAM_WORKFLOW_READ',
  'TEAM_WORKFLOW_WRITE', 'TEAM_VERIFIED_RESOURCES_READ', 'TEAM_VERIFIED_RESOURCES_WRITE',
];
const SEED_ORG = [
  'ORG_EVENT_TYPE_READ', 'ORG_EVENT_TYPE_WRITE', 'ORG_BOOKING_READ', 'ORG_BOOKING_WRITE', 'ORG_SCHEDULE_READ',
  'ORG_SCHEDULE_WRITE', 'ORG_PROFILE_READ', 'ORG_PROFILE_WRITE', 'ORG_MEMBERSHIP_READ', 'ORG_MEMBERSHIP_WRITE',
  'ORG_ROUTING_FORM_READ', 'ORG_ROUTING_FORM_WRITE', 'ORG_WEBHOOK_READ', 'ORG_WEBHOOK_WRITE',
];
const SEED_ORDER = [...SEED_IDENTITY, ...SEED_PERSONAL, ...SEED_TEAM, ...SEED_ORG];

function oauthErrorOf(fn: () => unknown): OAuthError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthError);
    return error as OAuthError;
  }
  throw new Error('expected an OAuthError, nothing was thrown');
}

describe('scope registry (docs/rules.md#scope-registry)', () => {
  it('lists all 49 scopes of docs/rules.md#scope-registry, exactly, in its order', () => {
    expect(SEED_ORDER).toHaveLength(49);
    expect(scopeRegistry.map((s) => s.name)).toEqual(SEED_ORDER);
  });

  it('puts each scope in its family: 3 identity, 14 personal, 18 team, 14 organization', () => {
    expect(scopeRegistry.filter((s) => s.family === 'identity').map((s) => s.name)).toEqual(SEED_IDENTITY);
    expect(scopeRegistry.filter((s) => s.family === 'personal').map((s) => s.name)).toEqual(SEED_PERSONAL);
    expect(scopeRegistry.filter((s) => s.family === 'team').map((s) => s.name)).toEqual(SEED_TEAM);
    expect(scopeRegistry.filter((s) => s.family === 'organization').map((s) => s.name)).toEqual(SEED_ORG);
  });

  it('gives every scope a plain-words description for the consent page (docs/rules.md#consent)', () => {
    for (const scope of scopeRegistry) {
      expect(scope.description.length, scope.name).toBeGreaterThan(10);
      expect(scope.description, scope.name).not.toMatch(/[A-Z]{2,}_[A-Z]/); // words, not scope names
    }
    expect(describeScope('BOOKING_WRITE')!.description).toBe('Add guests, change locations, confirm, decline, reassign bookings.');
    expect(describeScope('ORG_PROFILE_READ')!.description).toBe("Read the organization's teams.");
  });

  it('knows names only in their exact upper-case spelling (docs/rules.md#scope-registry: names are exact)', () => {
    expect(isKnownScope('PROFILE_READ')).toBe(true);
    expect(isKnownScope('profile_read')).toBe(false);
    expect(isKnownScope('PROFILE_READ ')).toBe(false);
    expect(isKnownScope('PROFILE')).toBe(false);
    expect(isKnownScope('TEAM_WEBHOOK_READ')).toBe(false);
    expect(isKnownScope('')).toBe(false);
  });
});

describe('scope parameter of the authorization request (docs/rules.md#authorization-request, docs/rules.md#scope-syntax)', () => {
  it('splits on spaces and returns registry order', () => {
    expect(parseScopeParameter('PROFILE_READ BOOKING_READ')).toEqual(['BOOKING_READ', 'PROFILE_READ']);
  });

  it('splits on commas, commas with spaces, and runs of separators', () => {
    expect(parseScopeParameter('PROFILE_READ,BOOKING_READ')).toEqual(['BOOKING_READ', 'PROFILE_READ']);
    expect(parseScopeParameter('PROFILE_READ, BOOKING_READ')).toEqual(['BOOKING_READ', 'PROFILE_READ']);
    expect(parseScopeParameter('  ORG_WEBHOOK_WRITE ,, TEAM_APPS_READ   EVENT_TYPE_READ,')).toEqual([
      'EVENT_TYPE_READ',
      'TEAM_APPS_READ',
      'ORG_WEBHOOK_WRITE',
    ]);
  });

  it('folds duplicates', () => {
    expect(parseScopeParameter('PROFILE_READ PROFILE_READ,PROFILE_READ')).toEqual(['PROFILE_READ']);
    expect(parseScopeParameter('BOOKING_READ PROFILE_READ BOOKING_READ')).toEqual(['BOOKING_READ', 'PROFILE_READ']);
  });

  it('accepts all 46 scopes at once, in any order, and returns them in registry order', () => {
    expect(parseScopeParameter([...SEED_ORDER].reverse().join(','))).toEqual(SEED_ORDER);
  });

  it('an unknown name is invalid_scope, and the description names it', () => {
    const error = oauthErrorOf(() => parseScopeParameter('PROFILE_READ CALENDAR_READ'));
    expect(error.code).toBe('invalid_scope');
    expect(error.status).toBe(400);
    expect(error.description).toContain('CALENDAR_READ');
    expect(error.description).not.toContain('PROFILE_READ');
  });

  it('a lower-case spelling of a real scope is invalid_scope (names are exact)', () => {
    expect(oauthErrorOf(() => parseScopeParameter('profile_read')).code).toBe('invalid_scope');
  });

  it('an unknown name repeated is named once', () => {
    const error = oauthErrorOf(() => parseScopeParameter('NOPE NOPE,NOPE'));
    expect(error.code).toBe('invalid_scope');
    expect(error.description.match(/NOPE/g)).toHaveLength(1);
  });

  it('RFC 6749 §3.3: an empty scope, or one of separators only, is invalid_scope, as a missing one is (docs/rules.md#authorize-errors)', () => {
    for (const value of ['', ' ', ',', ' , ,']) {
      expect(oauthErrorOf(() => parseScopeParameter(value)), JSON.stringify(value)).toMatchObject({ code: 'invalid_scope', description: 'scope is empty: name at least one scope, separated by spaces' });
    }
  });
});

describe('scope strings in responses and storage (docs/rules.md#token-response, docs/rules.md#scope-syntax, docs/rules.md#legacy-clients)', () => {
  it('formatScopes joins in registry order with single spaces; a legacy grant (null) is the empty string', () => {
    expect(formatScopes(['ORG_BOOKING_READ', 'PROFILE_READ', 'TEAM_BOOKING_READ', 'BOOKING_READ'])).toBe(
      'BOOKING_READ PROFILE_READ TEAM_BOOKING_READ ORG_BOOKING_READ',
    );
    expect(formatScopes(null)).toBe('');
  });

});

describe('grantSatisfies (docs/rules.md#scope-checks)', () => {
  const teamWithOrgTwin = SEED_TEAM.filter((t) => SEED_ORG.includes('ORG_' + t.slice('TEAM_'.length)));

  it('a granted scope satisfies itself and nothing else of its family', () => {
    expect(grantSatisfies(['BOOKING_READ'], 'BOOKING_READ')).toBe(true);
    expect(grantSatisfies(['BOOKING_READ'], 'BOOKING_WRITE')).toBe(false);
    expect(grantSatisfies(['BOOKING_WRITE'], 'BOOKING_READ')).toBe(false);
    expect(grantSatisfies(['TEAM_BOOKING_READ'], 'TEAM_BOOKING_WRITE')).toBe(false);
  });

  it('ORG_<X> satisfies TEAM_<X> for every pair docs/rules.md#scope-registry defines (e.g. ORG_PROFILE_READ → TEAM_PROFILE_READ)', () => {
    expect(teamWithOrgTwin).toHaveLength(12);
    for (const team of teamWithOrgTwin) {
      const org = 'ORG_' + team.slice('TEAM_'.length);
      expect(grantSatisfies([org], team), `${org} → ${team}`).toBe(true);
    }
  });

  it('TEAM_<X> does not satisfy ORG_<X> (not the reverse)', () => {
    for (const team of teamWithOrgTwin) {
      const org = 'ORG_' + team.slice('TEAM_'.length);
      expect(grantSatisfies([team], org), `${team} ↛ ${org}`).toBe(false);
    }
  });

  it('ORG_<X> does not satisfy the personal <X>, nor a different TEAM scope', () => {
    expect(grantSatisfies(['ORG_BOOKING_READ'], 'BOOKING_READ')).toBe(false);
    expect(grantSatisfies(['ORG_EVENT_TYPE_WRITE'], 'EVENT_TYPE_WRITE')).toBe(false);
    expect(grantSatisfies(['ORG_BOOKING_READ'], 'TEAM_BOOKING_WRITE')).toBe(false);
    expect(grantSatisfies(['ORG_PROFILE_READ'], 'TEAM_PROFILE_WRITE')).toBe(false);
  });

  it('personal <X> does not satisfy TEAM_<X>', () => {
    expect(grantSatisfies(['BOOKING_READ'], 'TEAM_BOOKING_READ')).toBe(false);
  });

  it('a legacy grant (null) satisfies every scope in the registry', () => {
    for (const scope of SEED_ORDER) expect(grantSatisfies(null, scope), scope).toBe(true);
  });

  it('an empty grant satisfies nothing', () => {
    for (const scope of SEED_ORDER) expect(grantSatisfies([], scope), scope).toBe(false);
  });
});
