// The one rule of a team's slug (docs/rules.md#team-authorization), which team creation and an
// authorization request's team_slug both apply.
import { describe, expect, it } from 'vitest';
import { isTeamSlug, MAX_TEAM_SLUG_LENGTH } from '../../src/oauth/team-slug.ts';

describe('a team slug', () => {
  it('is lower-case letters and digits in words joined by single hyphens', () => {
    for (const slug of ['sales', 'sales-team', 'a1-b2-c3', '7']) expect(isTeamSlug(slug), slug).toBe(true);
    for (const slug of ['', 'Sales', 'sales_team', 'sales--team', '-sales', 'sales-', 'sales team', 'café']) expect(isTeamSlug(slug), slug).toBe(false);
  });

  it(`is at most ${MAX_TEAM_SLUG_LENGTH} characters`, () => {
    expect(isTeamSlug('a'.repeat(MAX_TEAM_SLUG_LENGTH))).toBe(true);
    expect(isTeamSlug('a'.repeat(MAX_TEAM_SLUG_LENGTH + 1))).toBe(false);
  });
});
