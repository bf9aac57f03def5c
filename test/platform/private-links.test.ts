// Private links of personal and team event types (docs/rules.md#public-booking), at Cal.com API v2's
// addresses: made, changed and removed by who may write the event type; a link made with
// neither an expiry nor a number of uses is good for one booking, as the platform makes it.
// Real HTTP, both databases.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, type World, useWorld } from './fixtures.ts';

describe.each(backends)('private links on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started));

  it.skipIf(!available)('POST with no body makes a one-use link; PATCH changes its uses and expiry; the stored link follows', async () => {
    const et = await fixtures(server).eventType({ userId: w.owner.id }, { hidden: true });
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
    const made = await server.api('POST', `/v2/event-types/${et.id}/private-links`, token, {});
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ linkId: made.body.data.id, eventTypeId: Number(et.id), maxUsageCount: 1, usageCount: 0, expiresAt: null, isExpired: false });

    const expiry = new Date(server.clock() + 3 * 24 * 3600_000).toISOString();
    const changed = await server.api('PATCH', `/v2/event-types/${et.id}/private-links/${made.body.data.id}`, token, { maxUsageCount: 10, expiresAt: expiry });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ maxUsageCount: 10, expiresAt: expiry });
    const [stored] = await server.services.stores.api.eventTypes.listPrivateLinks(et.id);
    expect(stored).toMatchObject({ maxUses: 10, expiresAt: Date.parse(expiry) });
  });

  it.skipIf(!available)('PATCH refuses an expiry in the past (400, naming the field) and a link of another event type (404), changing nothing', async () => {
    const f = fixtures(server);
    const et = await f.eventType({ userId: w.owner.id });
    const link = await f.privateLink(et.id, { maxUses: 3 });
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE']);
    const past = await server.api('PATCH', `/v2/event-types/${et.id}/private-links/${link.id}`, token, { expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toContain('expiresAt');
    const other = await f.eventType({ userId: w.owner.id });
    const crossed = await server.api('PATCH', `/v2/event-types/${other.id}/private-links/${link.id}`, token, { maxUsageCount: 99 });
    expect(crossed.status).toBe(404);
    expect((await server.services.stores.api.eventTypes.listPrivateLinks(et.id))[0]).toMatchObject({ maxUses: 3, expiresAt: null });
  });

  it.skipIf(!available)("a team admin manages a team event type's links at the organization's address; a plain member reads them and cannot write", async () => {
    const et = await fixtures(server).eventType({ teamId: w.team.id }, { hidden: true });
    const base = `/v2/organizations/${w.org.id}/teams/${w.team.id}/event-types/${et.id}/private-links`;
    const admin = await mint(server, w, w.teamAdmin, ['TEAM_EVENT_TYPE_READ', 'TEAM_EVENT_TYPE_WRITE']);
    const made = await server.api('POST', base, admin, { maxUsageCount: 2 });
    expect(made.status).toBe(201);
    const member = await mint(server, w, w.member, ['TEAM_EVENT_TYPE_READ', 'TEAM_EVENT_TYPE_WRITE']);
    expect((await server.api('GET', base, member)).body.data.map((l: { id: string }) => l.id)).toEqual([made.body.data.id]);
    const refused = await server.api('DELETE', `${base}/${made.body.data.id}`, member);
    expect(refused.status).toBe(403);
    expect((await server.api('DELETE', `${base}/${made.body.data.id}`, admin)).status).toBe(200);
    expect(await server.services.stores.api.eventTypes.listPrivateLinks(et.id)).toEqual([]);
  });

  it.skipIf(!available)("PATCH of a link with no body (Cal.com documents none at the organization's team route), or an empty one, answers the link unchanged (it was 400 'request body must be object')", async () => {
    const f = fixtures(server);
    const et = await f.eventType({ teamId: w.team.id }, { hidden: true });
    const link = await f.privateLink(et.id, { maxUses: 4 });
    const admin = await mint(server, w, w.teamAdmin, ['TEAM_EVENT_TYPE_WRITE']);
    const path = `/v2/organizations/${w.org.id}/teams/${w.team.id}/event-types/${et.id}/private-links/${link.id}`;
    // What Cal.com's MCP server sends (update_org_team_et_private_link): its headers and an empty object.
    const mcp = await server.api('PATCH', path, admin, {}, { 'cal-api-version': '2024-08-13' });
    expect(mcp.status).toBe(200);
    expect(mcp.body.data).toMatchObject({ linkId: link.id, eventTypeId: Number(et.id), maxUsageCount: 4, usageCount: 0, expiresAt: null });
    // As the platform documents it: no body at all.
    const bare = await fetch(`${server.url}${path}`, { method: 'PATCH', headers: { authorization: `Bearer ${admin}` } });
    expect(bare.status).toBe(200);
    expect((await bare.json()).data).toMatchObject({ linkId: link.id, maxUsageCount: 4 });
    expect((await server.api('PATCH', `/v2/teams/${w.team.id}/event-types/${et.id}/private-links/${link.id}`, admin, {})).body.data.maxUsageCount).toBe(4);

    const mine = await f.eventType({ userId: w.owner.id });
    const own = await f.privateLink(mine.id, { maxUses: 2 });
    const owner = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE']);
    for (const body of [undefined, {}]) {
      const personal = await server.api('PATCH', `/v2/event-types/${mine.id}/private-links/${own.id}`, owner, body);
      expect(personal.status).toBe(200);
      expect(personal.body.data).toMatchObject({ linkId: own.id, maxUsageCount: 2 });
    }
    expect((await server.services.stores.api.eventTypes.listPrivateLinks(et.id))[0]).toMatchObject({ maxUses: 4, expiresAt: null, useCount: 0 });
  });
});
