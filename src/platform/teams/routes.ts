// Team profiles (TEAM_PROFILE_*) and an organization's teams (ORG_PROFILE_*).
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { iso } from '../input.ts';
import { arrayOf, listQuery, nullable, numberedId, object, patchOf, str, timeZone, withFields, type JsonSchema, type ListQuery } from '../schemas.ts';
import { isTeamOwner } from '../roles.ts';
import { createOwnTeam, deleteTeam, findTeam, listTeamsOfOrganization, listTeamsOfUser, updateTeam, type Team, type TeamInput } from './service.ts';

const teamView: JsonSchema = object(
  {
    id: numberedId,
    name: { type: 'string' },
    slug: { type: 'string' },
    bio: { type: 'string' },
    timeZone: { type: 'string' },
    brandColor: { type: 'string' },
    organizationId: nullable(numberedId),
    parentId: { ...numberedId, description: 'The organization the team belongs to; absent for a team of no organization' },
    isOrganization: { type: 'boolean', description: 'Always false: these routes serve teams, and an organization is not one' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'name', 'slug', 'bio', 'timeZone', 'brandColor', 'organizationId', 'isOrganization', 'createdAt', 'updatedAt'],
);

/** The answer of a delete: the team as it was, as the platform answers, and that it is gone. */
const deletedTeamView: JsonSchema = withFields(teamView, { deleted: { type: 'boolean' } });

function team(t: Team) {
  return {
    id: t.id,
    name: t.name,
    slug: t.slug,
    bio: t.bio,
    timeZone: t.timeZone,
    brandColor: t.brandColor,
    organizationId: t.organizationId,
    // The platform's parent of a team is its organization; its schema types it a number, never null.
    ...(t.organizationId !== null ? { parentId: t.organizationId } : {}),
    isOrganization: false,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}


const fields = {
  name: str(1, 100),
  slug: str(1, 64, { pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
  bio: str(0, 1000),
  timeZone,
  brandColor: str(7, 7, { pattern: '^#[0-9a-fA-F]{6}$' }),
};

export function teamHandlers(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  return {
    'teams.create': route<TeamInput>({
      body: object(fields, ['name']),
      data: teamView,
      status: 201,
      handle: async ({ userId, principal, body }) => team(await createOwnTeam(ctx, userId, null, body, principal?.clientId ?? null)),
    }),
    'teams.list': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(teamView, 0, 100),
      handle: async ({ userId, principal, facts, query }) => {
        // docs/rules.md#team-authorization: a team's token is a member of its one team.
        if (principal?.teamId !== undefined) return query.offset > 0 ? [] : [team(await findTeam(ctx, facts.team!.id))];
        // docs/rules.md#enterprise-managed-reach: an identity provider's token sees its organization's teams only.
        const within = principal?.organizationId === undefined ? {} : { organizationId: principal.organizationId };
        return (await listTeamsOfUser(ctx, userId, within, query.limit, query.offset)).map(team);
      },
    }),
    'teams.get': route({ data: teamView, handle: async ({ facts }) => team(await findTeam(ctx, facts.team!.id)) }),
    'teams.update': route<Partial<TeamInput>>({
      body: patchOf(fields),
      data: teamView,
      handle: async ({ facts, body }) => team(await updateTeam(ctx, facts.team!.id, body)),
    }),
    'teams.delete': route({
      data: deletedTeamView,
      handle: async ({ facts, userId }) => ({ ...team(await deleteTeam(ctx, facts.team!.id, isTeamOwner(facts), userId)), deleted: true }),
    }),
    'orgTeams.list': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(teamView, 0, 100),
      handle: async ({ facts, query }) => (await listTeamsOfOrganization(ctx, facts.organization!.id, query.limit, query.offset)).map(team),
    }),
    'orgTeams.mine': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(teamView, 0, 100),
      handle: async ({ userId, facts, query }) => (await listTeamsOfUser(ctx, userId, { organizationId: facts.organization!.id }, query.limit, query.offset)).map(team),
    }),
    'orgTeams.create': route<TeamInput>({
      body: object(fields, ['name']),
      data: teamView,
      status: 201,
      handle: async ({ userId, principal, facts, body }) => team(await createOwnTeam(ctx, userId, facts.organization!.id, body, principal?.clientId ?? null)),
    }),
  };
}
