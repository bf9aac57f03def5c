// The "Scopes and endpoints" tables of docs/integrating.md, generated from the scope registry
// and the route registry (npm run docs, scripts/docs-tables.ts); a test fails when the
// document drifts from them (test/docs/generated.test.ts).
import { apiRoutes, type ApiRoute } from './route-table.ts';
import { familyTitles, type ScopeFamily, scopeRegistry } from './authorization-server.ts';

const familyNotes: Record<ScopeFamily, string> = {
  identity:
    'OpenID Connect ([Sign in with Gatehouse](#sign-in-with-gatehouse)): they guard no `/v2` endpoint but UserInfo and what the ID token tells. ' +
    '`offline_access` may always be sent and changes nothing: every code exchange returns a refresh token.',
  personal: 'Personal endpoints act on the token’s own user only.',
  team:
    'Team endpoints also answer under `/v2/organizations/:orgId/teams/:teamId/…` (a team of another organization is 404 there), with the same scopes, ' +
    'except that renaming or deleting the team there takes `ORG_PROFILE_WRITE`. ' +
    'Reading needs membership of the team, writing needs its admin or owner role; an admin or owner of the team’s organization may do both. ' +
    '`ORG_<X>` stands in for `TEAM_<X>`, for an admin or owner of the team’s organization only. ' +
    'A token authorized for a team (`team_slug`, [Acting for a team](#acting-for-a-team)) reaches that team’s endpoints alone, and `GET /v2/teams` answers that team.',
  organization: 'Organization endpoints need the admin or owner role in the organization.',
};

const endpoint = (r: ApiRoute) => `\`${r.method} ${r.path}\``;

function endpointsOf(scope: string): string {
  // A team route's copy under its organization is listed once, with its twin, unless it takes an organization scope of its own.
  const routes = apiRoutes.filter((r) => r.scope === scope && (!r.id.startsWith('orgs.') || !scope.startsWith('TEAM_')));
  return routes.length === 0 ? '—' : routes.map(endpoint).join('<br>');
}

export function renderScopeTable(): string {
  const lines: string[] = [];
  for (const family of ['identity', 'personal', 'team', 'organization'] as const) {
    lines.push(`### ${familyTitles[family]} (${family} scopes)`, '', familyNotes[family], '', '| scope | allows | endpoints |', '|---|---|---|');
    for (const s of scopeRegistry.filter((x) => x.family === family)) {
      const alsoTeam = family === 'organization' && scopeRegistry.some((t) => t.name === 'TEAM_' + s.name.slice(4)) ? ` Also satisfies \`TEAM_${s.name.slice(4)}\`.` : '';
      lines.push(`| \`${s.name}\` | ${s.description}${alsoTeam} | ${endpointsOf(s.name)} |`);
    }
    lines.push('');
  }
  lines.push(
    '### Public booking (no scope)',
    '',
    'No token needed; a token that is sent is still validated (401 if it is not valid). ' +
      'Cancel and reschedule act for the booker: they need the booking’s `manageToken` (in the body; returned once, when the booking is made), ' +
      'or else a token with the booking write scope of the booking’s family (`BOOKING_WRITE` for its host’s personal booking, ' +
      '`TEAM_BOOKING_WRITE` or `ORG_BOOKING_WRITE` of a team or organization admin for a team booking). ' +
      'Without a token, each booking, reschedule and cancellation counts toward limits per address and per event type ' +
      '(`RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR`, `RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR`); past one, 429 `rate_limited` with `Retry-After`.',
    '',
    '| endpoint | what it does |',
    '|---|---|',
  );
  for (const r of apiRoutes.filter((x) => x.scope === 'public')) lines.push(`| ${endpoint(r)} | ${r.summary} |`);
  return lines.join('\n');
}
