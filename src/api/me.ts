// GET/PATCH /v2/me: the authorized user's profile (seed §4.3, SPEC §6).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.ts';
import type { UserRow } from '../services/users.ts';
import { ApiError, success } from './envelope.ts';
import { requireScope } from './guard.ts';

function profile(u: UserRow) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    username: u.username,
    timeZone: u.time_zone,
    weekStart: u.week_start,
    timeFormat: u.time_format,
    defaultScheduleId: u.default_schedule_id,
    organizationId: u.organization_id,
  };
}

const WEEK_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const TIME_ZONES = new Set(Intl.supportedValuesOf('timeZone').concat('UTC'));

const patchSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    timeZone: { type: 'string', minLength: 1, maxLength: 64 },
    weekStart: { type: 'string', enum: WEEK_DAYS },
    timeFormat: { type: 'integer', enum: [12, 24] },
  },
} as const;

interface PatchBody {
  name?: string;
  timeZone?: string;
  weekStart?: string;
  timeFormat?: number;
}

export async function meRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const load = async (id: string) => {
    const user = await ctx.services.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    if (user === undefined) throw new ApiError(404, 'not_found', 'the user of this token no longer exists');
    return user;
  };

  app.get('/v2/me', { preHandler: requireScope(ctx.oauth, 'PROFILE_READ') }, async (request) =>
    success(profile(await load(request.principal!.userId))),
  );

  app.patch<{ Body: PatchBody }>(
    '/v2/me',
    { preHandler: requireScope(ctx.oauth, 'PROFILE_WRITE'), schema: { body: patchSchema } },
    async (request) => {
      const body = request.body;
      if (body.timeZone !== undefined && !TIME_ZONES.has(body.timeZone)) {
        throw new ApiError(400, 'validation_error', `timeZone "${body.timeZone}" is not an IANA time zone such as Europe/Berlin`);
      }
      const changes = {
        ...(body.name !== undefined ? { name: body.name.trim() } : {}),
        ...(body.timeZone !== undefined ? { time_zone: body.timeZone } : {}),
        ...(body.weekStart !== undefined ? { week_start: body.weekStart } : {}),
        ...(body.timeFormat !== undefined ? { time_format: body.timeFormat } : {}),
        updated_at: ctx.services.clock(),
      };
      await ctx.services.db.updateTable('users').set(changes).where('id', '=', request.principal!.userId).execute();
      return success(profile(await load(request.principal!.userId)));
    },
  );
}
