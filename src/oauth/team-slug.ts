// What a team's slug is (docs/rules.md#team-authorization): lower-case letters and digits in
// words joined by single hyphens, at most 64 characters. One rule for the teams that take a
// slug and for the authorization request's team_slug that names one.
const TEAM_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_TEAM_SLUG_LENGTH = 64;

export function isTeamSlug(value: string): boolean {
  return value.length <= MAX_TEAM_SLUG_LENGTH && TEAM_SLUG.test(value);
}
