// Team profiles (TEAM_PROFILE_*) and an organization's teams (ORG_PROFILE_*).
import type { AppContext } from '../../http/context.ts';
import { checkSlug, checkTeamFields, createTeam } from '../../services/teams/teams.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import * as repo from '../../storage/repositories/organizations.ts';
import type { TeamRow } from '../../storage/repositories/organizations.ts';
import { route, type HandlerMap } from '../handler.ts';
import { conflict, forbidden, iso, notFound } from '../input.ts';
import { arrayOf, deleted, listQuery, nullable, object, patchOf, str, timeZone, type JsonSchema, type Page } from '../schemas.ts';
import { isTeamOwner } from './access.ts';

const teamView: JsonSchema = object(
  {
    id: { type: 'string' },
    name: { type: 'string' },
    slug: { type: 'string' },
    bio: { type: 'string' },
    timeZone: { type: 'string' },
    brandColor: { type: 'string' },
    organizationId: nullable({ type: 'string' }),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'name', 'slug', 'bio', 'timeZone', 'brandColor', 'organizationId', 'createdAt', 'updatedAt'],
);

function team(t: TeamRow) {
  return {
    id: t.id,
    name: t.name,
    slug: t.slug,
    bio: t.bio,
    timeZone: t.time_zone,
    brandColor: t.brand_color,
    organizationId: t.organization_id,
    createdAt: iso(t.created_at),
    updatedAt: iso(t.updated_at),
  };
}

const fields = {
  name: str(1, 100),
  slug: str(1, 64, { pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
  bio: str(0, 1000),
  timeZone,
  brandColor: str(7, 7, { pattern: '^#[0-9a-fA-F]{6}$' }),
};

interface TeamInput {
  name: string;
  slug?: string;
  bio?: string;
  timeZone?: string;
  brandColor?: string;
}

export function teamHandlers(ctx: AppContext): HandlerMap {
  const { db, clock } = ctx.services;
  const load = async (id: string) => {
    const row = await repo.findTeam(db, id);
    if (row === undefined) throw notFound('team');
    return row;
  };
  const create = async (ownerId: string, organizationId: string | null, body: TeamInput) => load((await createTeam(ctx.services, { ...body, ownerId, organizationId })).id);

  return {
    'teams.create': route<TeamInput>({
      body: object(fields, ['name']),
      data: teamView,
      status: 201,
      handle: async ({ userId, body }) => team(await create(userId, null, body)),
    }),
    'teams.get': route({ data: teamView, handle: async ({ facts }) => team(await load(facts.team!.id)) }),
    'teams.update': route<Partial<TeamInput>>({
      body: patchOf(fields),
      data: teamView,
      handle: async ({ facts, body }) => {
        checkTeamFields(body);
        if (body.slug !== undefined) checkSlug(body.slug);
        const changes = {
          ...(body.name !== undefined ? { name: body.name.trim() } : {}),
          ...(body.slug !== undefined ? { slug: body.slug } : {}),
          ...(body.bio !== undefined ? { bio: body.bio } : {}),
          ...(body.timeZone !== undefined ? { time_zone: body.timeZone } : {}),
          ...(body.brandColor !== undefined ? { brand_color: body.brandColor } : {}),
          updated_at: clock(),
        };
        try {
          return team((await repo.updateTeam(db, facts.team!.id, changes))!);
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict(`slug: a team with slug "${body.slug}" already exists`);
          throw error;
        }
      },
    }),
    'teams.delete': route({
      data: deleted,
      handle: async ({ facts }) => {
        // Deleting takes every event type, booking and form of the team with it: owners only.
        if (!isTeamOwner(facts)) throw forbidden('only an owner of the team, or an admin of its organization, may delete it');
        if (!(await repo.deleteTeam(db, facts.team!.id))) throw notFound('team');
        return { id: facts.team!.id, deleted: true };
      },
    }),
    'orgTeams.list': route<unknown, Page>({
      query: listQuery(),
      data: arrayOf(teamView, 0, 100),
      handle: async ({ facts, query }) => (await repo.listTeamsOfOrganization(db, facts.organization!.id, query.limit, query.offset)).map(team),
    }),
    'orgTeams.create': route<TeamInput>({
      body: object(fields, ['name']),
      data: teamView,
      status: 201,
      handle: async ({ userId, facts, body }) => team(await create(userId, facts.organization!.id, body)),
    }),
  };
}
