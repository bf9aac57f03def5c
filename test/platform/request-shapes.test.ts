// Registry-driven, what every route of a kind takes, on both databases: every PATCH route of
// src/platform/route-table.ts refuses a field it cannot change with 400 validation_error naming
// it, instead of dropping it and answering 200 (docs/rules.md#forms-and-pages); every list route
// pages by Cal.com's take/skip as by limit/offset, take winning, and refuses a page past 100.
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/platform/route-table.ts';
import { backends } from '../helpers/backends.ts';
import { expectError, useAccessHarness, scopesOf } from './access-harness.ts';
import { fillPath } from './fixtures.ts';
import { examples } from './route-examples.ts';

const patches = apiRoutes.filter((r) => r.method === 'PATCH');

describe.each(backends)('request shapes on $name', ({ name, available }) => {
  const h = useAccessHarness(name, available);

  async function patch(r: (typeof patches)[number], body: (example: Record<string, unknown>) => unknown) {
    const req = await examples[r.handler]!({ server: h.server, w: h.w, f: h.f, actor: h.w.owner, teamId: h.w.team.id, orgId: h.w.org.id });
    const path = fillPath(r.path, { teamId: h.w.team.id, orgId: h.w.org.id, ...req.params });
    return h.server.api('PATCH', path, await h.token(h.w.owner, scopesOf(r)), body(req.body as Record<string, unknown>));
  }

  it('covers at least the profile, event type, schedule, webhook and membership PATCH routes', () => {
    expect(patches.map((r) => r.handler)).toEqual(expect.arrayContaining(['me.update', 'eventTypes.update', 'schedules.update', 'webhooks.update', 'teamMemberships.update']));
  });

  describe.each(patches)('$method $path', (r) => {
    it.skipIf(!available)('a field it cannot change → 400 validation_error naming the field, never a silent 200 (docs/rules.md#forms-and-pages)', async () => {
      const res = await patch(r, (example) => ({ ...example, notAField: 'x' }));
      expectError(res, 400, 'validation_error');
      expect(res.body.error.message).toMatch(/^notAField: cannot be changed by this request; it changes \w+/);
    });
  });

  it.skipIf(!available)('a nested field it cannot change is named with its path (docs/rules.md#forms-and-pages)', async () => {
    const r = patches.find((p) => p.handler === 'schedules.update')!;
    const res = await patch(r, () => ({ availability: [{ days: ['Monday'], startTime: '09:00', endTime: '17:00', colour: 'red' }] }));
    expectError(res, 400, 'validation_error');
    expect(res.body.error.message).toBe('availability.0.colour: cannot be changed by this request; it changes days, startTime, endTime');
  });

  describe('list queries', () => {
    /** The guarded GET routes whose query takes the platform's take/skip, from the published description. */
    async function listRoutes() {
      const doc = (await h.server.api('GET', '/v2/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
      const paths = new Set(Object.entries(doc.paths).filter(([, ops]) => ops.get?.parameters?.some((p) => p.in === 'query' && p.name === 'take')).map(([path]) => path.replace(/\{(\w+)\}/g, ':$1')));
      return apiRoutes.filter((r) => r.method === 'GET' && r.scope !== 'public' && paths.has(r.path));
    }

    it.skipIf(!available)('take over 100 → 400 validation_error naming take, on every list route', async () => {
      const routes = await listRoutes();
      expect(routes.map((r) => r.handler)).toEqual(expect.arrayContaining(['teams.list', 'schedules.list', 'bookings.list', 'eventTypes.list']));
      for (const r of routes) {
        const token = await h.token(h.w.owner, scopesOf(r));
        const req = await examples[r.handler]!({ server: h.server, w: h.w, f: h.f, actor: h.w.owner, teamId: h.w.team.id, orgId: h.w.org.id });
        const path = fillPath(r.path, { teamId: h.w.team.id, orgId: h.w.org.id, ...req.params });
        const res = await h.server.api('GET', `${path}?take=1000`, token);
        expectError(res, 400, 'validation_error');
        expect(res.body.error.message, r.path).toContain('take');
      }
    });

    it.skipIf(!available)("take/skip page a list as limit/offset do, and win over them when both are sent (the platform's names)", async () => {
      const token = await h.token(h.w.owner, ['TEAM_PROFILE_READ']);
      const ids = async (query: string) => ((await h.server.api('GET', `/v2/teams?${query}`, token)).body.data as { id: number }[]).map((t) => t.id);
      const all = await ids('');
      expect(all.length).toBeGreaterThanOrEqual(2);
      expect(await ids('limit=1&offset=1')).toEqual([all[1]]);
      expect(await ids('take=1&skip=1&limit=5&offset=0')).toEqual([all[1]]);
    });
  });
});
