// Registry-driven: every PATCH route of src/platform/route-table.ts refuses a field it cannot
// change with 400 validation_error naming it, instead of dropping it and answering 200
// (docs/rules.md#forms-and-pages), on both databases.
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/platform/route-table.ts';
import { backends } from '../helpers/backends.ts';
import { expectError, useAccessHarness, scopesOf } from './access-harness.ts';
import { fillPath } from './fixtures.ts';
import { examples } from './route-examples.ts';

const patches = apiRoutes.filter((r) => r.method === 'PATCH');

describe.each(backends)('PATCH bodies on $name', ({ name, available }) => {
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
});
