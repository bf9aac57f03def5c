// The platform API's access read (src/platform/access-check.ts): the token, its client's state,
// and the team or organization of the path with the user's roles in them — one indexed
// query, joined on the token's own user, so no membership check costs a round trip of its
// own. Every /v2 resource request runs one of these: they are compiled once (prepared.ts).
// `memberships` holds accepted members only; a pending invitation lives in
// membership_invitations and so never reaches these joins (docs/rules.md#membership-invitations).
import type { AccessLookup, ApiAccessStore } from '../../platform/access-check.ts';
import type { AccessFacts, Role } from '../../platform/membership.ts';
import { prepare } from '../prepared.ts';
import type { Executor } from './executor.ts';
import { accessTokenWithClient, findAccessToken, toAccessTokenWithClient } from './tokens.ts';

export function createApiAccessStore(db: Executor): ApiAccessStore {
  return { findAccess: (hash, lookup) => findAccess(db, hash, lookup) };
}

/** The team of the path, the user's role in it, and their role in the team's organization. */
const tokenWithTeam = prepare((db, p: { hash: string; teamId: string }) =>
  accessTokenWithClient(db, p.hash)
    .leftJoin('teams as t', (j) => j.on('t.id', '=', p.teamId))
    .leftJoin('memberships as tm', (j) => j.onRef('tm.team_id', '=', 't.id').onRef('tm.user_id', '=', 'a.user_id'))
    .leftJoin('memberships as om', (j) => j.onRef('om.organization_id', '=', 't.organization_id').onRef('om.user_id', '=', 'a.user_id'))
    .select(['t.id as team_id', 't.organization_id as team_org', 'tm.role as team_role', 'om.role as org_role']),
);

const tokenWithOrganization = prepare((db, p: { hash: string; orgId: string }) =>
  accessTokenWithClient(db, p.hash)
    .leftJoin('organizations as o', (j) => j.on('o.id', '=', p.orgId))
    .leftJoin('memberships as om', (j) => j.onRef('om.organization_id', '=', 'o.id').onRef('om.user_id', '=', 'a.user_id'))
    .select(['o.id as org_id', 'om.role as org_role']),
);

const role = (value: string | null) => (value as Role | null) ?? null;

export async function findAccess(db: Executor, hash: string, lookup: AccessLookup) {
  let facts: AccessFacts = {};
  let row;
  if (lookup.teamId !== undefined) {
    const [r] = (await tokenWithTeam.run(db, { hash, teamId: lookup.teamId })).rows;
    row = r;
    if (r) facts = { team: r.team_id === null ? null : { id: r.team_id, organizationId: r.team_org, role: role(r.team_role), organizationRole: role(r.org_role) } };
  } else if (lookup.organizationId !== undefined) {
    const [r] = (await tokenWithOrganization.run(db, { hash, orgId: lookup.organizationId })).rows;
    row = r;
    if (r) facts = { organization: r.org_id === null ? null : { id: r.org_id, role: role(r.org_role) } };
  } else {
    const found = await findAccessToken(db, hash);
    return found && { token: found, facts };
  }
  if (row === undefined) return undefined;
  return { token: toAccessTokenWithClient(row), facts };
}
