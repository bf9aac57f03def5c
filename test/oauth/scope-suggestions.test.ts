// "unknown scope: profile_read (did you mean PROFILE_READ?)": the hint names the
// registry's scope that was meant, and stays within the characters an OAuth
// error_description may carry (RFC 6749 §4.1.2.1).
import { describe, expect, it } from 'vitest';
import { closestScope, unknownScopesMessage } from '../../src/oauth/scope-suggestions.ts';
import { scopeRegistry, unknownScopes } from '../../src/oauth/scopes.ts';

const known = scopeRegistry.map((s) => s.name);

describe('scope-name hints', () => {
  it('folds case and separators: profile_read, profile-read and Profile.Read mean PROFILE_READ', () => {
    for (const typed of ['profile_read', 'profile-read', 'Profile.Read']) expect(closestScope(typed, known)).toBe('PROFILE_READ');
  });

  it('finds a name one or two edits away, and nothing further', () => {
    expect(closestScope('BOOKING_RAED', known)).toBe('BOOKING_READ');
    expect(closestScope('WEBHOOKS_READ', known)).toBe('WEBHOOK_READ');
    expect(closestScope('CALENDAR_READ', known)).toBeUndefined();
    expect(closestScope('EVERYTHING', known)).toBeUndefined();
  });

  it('names every unknown scope once and the hints found', () => {
    expect(unknownScopesMessage(['profile_read', 'NOPE', 'profile_read'], known)).toBe('unknown scope: profile_read, NOPE (did you mean PROFILE_READ?)');
    expect(unknownScopes(['CALENDAR_READ'])).toBe('unknown scope: CALENDAR_READ');
  });

  it('is a valid error_description: only %x20-21 / %x23-5B / %x5D-7E (RFC 6749 §4.1.2.1)', () => {
    expect(unknownScopes(['booking_write', 'team-profile-read'])).toMatch(/^[\x20\x21\x23-\x5B\x5D-\x7E]+$/);
  });
});
