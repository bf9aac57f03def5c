// MCP write tools (docs/rules.md#mcp-server) through real HTTP on every backend: an agent books, then
// cancels without the booker's manageToken through its BOOKING_WRITE scope — the same
// service code and the same rules as POST /v2/bookings and /v2/bookings/:uid/cancel
// (docs/rules.md#public-booking), with the token bound to /mcp.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { generateToken, hashToken, randomId } from '../../../src/oauth/token-format.ts';
import { fixtures, futureStart, type World, useWorld } from '../fixtures.ts';
import { backends } from '../../helpers/backends.ts';
import type { TestServer } from '../../helpers/server.ts';

const attendee = { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Berlin' };

describe.each(backends)('MCP booking tools on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started), { LOG_LEVEL: 'warn' });

  /** An access token as the token endpoint stores one for resource={BASE_URL}/mcp. */
  async function mcpToken(userId: string, scopes: string[]): Promise<string> {
    const store = server.oauth;
    const now = server.clock();
    const grantId = randomId();
    const token = generateToken('accessToken');
    await store.createGrant({ id: grantId, userId, clientId: w.client.clientId, scopes, createdAt: now, revokedAt: null });
    await store.createAccessToken({ hash: hashToken(token), grantId, codeHash: null, clientId: w.client.clientId, userId, scopes, resources: [`${server.url}/mcp`], createdAt: now, expiresAt: now + 3600_000, revokedAt: null });
    return token;
  }

  const data = (result: unknown) => JSON.parse(((result as { content: Array<{ text: string }> }).content)[0]!.text) as Record<string, unknown>;

  it.skipIf(!available)('create_booking, then cancel_booking through BOOKING_WRITE without a manageToken; list_bookings shows it cancelled', async () => {
    const et = await fixtures(server).eventType({ userId: w.owner.id });
    const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
    const token = await mcpToken(w.owner.id, ['BOOKING_READ', 'BOOKING_WRITE']);
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const created = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: new Date(futureStart(server)).toISOString(), attendee } });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const uid = data(created).uid as string;
    expect(data(created).manageToken).toEqual(expect.any(String));

    const cancelled = await agent.callTool({ name: 'cancel_booking', arguments: { bookingUid: uid, cancellationReason: 'agent cancelled' } });
    expect(cancelled.isError, JSON.stringify(cancelled.content)).toBeFalsy();
    expect(data(cancelled).status).toBe('cancelled');
    const row = (await server.services.stores.bookings.find(uid))!;
    expect(row.status).toBe('cancelled');
    await agent.close();
  });

  it.skipIf(!available)('issue 37 item 5: list_free_slots answers what GET /v2/slots answers, with no scope of its own (as the route); a start it offers books, and is then offered no more; create_booking refuses a start it does not offer', async () => {
    const et = await fixtures(server).eventType({ userId: w.owner.id });
    const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_WRITE'])}` } } }));
    expect((await agent.listTools()).tools.map((t) => t.name)).toContain('list_free_slots');
    const day = (offsetDays: number) => new Date(server.clock() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const period = { eventTypeId: et.id, start: day(1), end: day(8), timeZone: 'UTC' };
    const starts = async () => Object.values(data(await agent.callTool({ name: 'list_free_slots', arguments: period }))).flat().map((s) => (s as { start: string }).start);
    const offered = await starts();
    const route = await server.api('GET', `/v2/slots?${new URLSearchParams({ ...period, eventTypeId: String(et.id) })}`, undefined, undefined, { 'cal-api-version': '2024-09-04' });
    expect(route.status).toBe(200);
    expect(offered).toEqual(Object.values(route.body.data as Record<string, Array<{ start: string }>>).flat().map((s) => s.start));
    expect(offered.length).toBeGreaterThan(0);

    const booked = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: offered[0]!, attendee } });
    expect(booked.isError, JSON.stringify(booked.content)).toBeFalsy();
    expect(await starts()).not.toContain(offered[0]);
    // docs/rules.md#booking-availability: a start it does not offer is the tool's failure saying why.
    const again = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: offered[0]!, attendee } });
    expect(again).toMatchObject({ isError: true, content: [{ type: 'text', text: 'start: the host is not available at that time' }] });
    const between = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: new Date(Date.parse(offered[1]!) + 10 * 60_000).toISOString(), attendee } });
    expect(between).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^start: is not a slot/) }] });
    const refused = await agent.callTool({ name: 'list_free_slots', arguments: { eventTypeId: et.id, start: day(8), end: day(1) } });
    expect(refused.isError).toBe(true);
    await agent.close();
  });

  it.skipIf(!available)("create_booking answers the event type's booking fields as the route does (docs/integrating.md#booking-fields): a missing answer is the tool's failure naming it", async () => {
    const size = { type: 'radio', slug: 'size', label: 'Size', required: true, options: ['S', 'M'], hidden: false, isDefault: false };
    const et = await fixtures(server).eventType({ userId: w.owner.id }, { bookingFields: [size] });
    const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_WRITE'])}` } } }));
    const start = () => new Date(futureStart(server)).toISOString();
    const unanswered = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: start(), attendee } });
    expect(unanswered).toMatchObject({ isError: true, content: [{ type: 'text', text: 'bookingFieldsResponses.size: is required by this event type ("Size")' }] });
    const answered = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: start(), attendee, bookingFieldsResponses: { size: 'M' } } });
    expect(answered.isError, JSON.stringify(answered.content)).toBeFalsy();
    expect(data(answered).bookingFieldsResponses).toMatchObject({ size: 'M', name: attendee.name });
    expect((await server.services.stores.bookings.find(data(answered).uid as string))!.responses).toEqual({ size: 'M' });
    await agent.close();
  });

  it.skipIf(!available)("reschedule_booking keeps the event type's minimum notice, as the route does", async () => {
    const et = await fixtures(server).eventType({ userId: w.owner.id }, { minimumBookingNotice: 1440 });
    const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_WRITE'])}` } } }));
    const created = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: new Date(futureStart(server)).toISOString(), attendee } });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const uid = data(created).uid as string;
    const soon = await agent.callTool({ name: 'reschedule_booking', arguments: { bookingUid: uid, start: new Date(server.clock() + 5 * 60_000).toISOString() } });
    expect(soon).toMatchObject({ isError: true, content: [{ type: 'text', text: 'start: must be at least 1440 minutes from now' }] });
    const row = (await server.services.stores.bookings.find(uid))!;
    expect(row.status).toBe('accepted');
    const later = await agent.callTool({ name: 'reschedule_booking', arguments: { bookingUid: uid, start: new Date(futureStart(server)).toISOString() } });
    expect(later.isError, JSON.stringify(later.content)).toBeFalsy();
    expect(data(later)).toMatchObject({ rescheduledFromUid: uid });
    await agent.close();
  });

  it.skipIf(!available)('mark_booking_absent marks the host and the booker absent as POST …/mark-absent does; list_booking_attendees and the route show it; BOOKING_READ alone cannot mark', async () => {
    const b = await fixtures(server).booking({ hostId: w.owner.id });
    const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_READ', 'BOOKING_WRITE'])}` } } }));
    const marked = await agent.callTool({ name: 'mark_booking_absent', arguments: { bookingUid: b.uid, host: true, attendees: [{ email: 'ann@example.com', absent: true }] } });
    expect(marked.isError, JSON.stringify(marked.content)).toBeFalsy();
    expect(data(marked)).toMatchObject({ uid: b.uid, absentHost: true, attendees: [{ email: 'ann@example.com', absent: true }] });
    const listed = await agent.callTool({ name: 'list_booking_attendees', arguments: { bookingUid: b.uid } });
    expect(JSON.parse((listed.content as Array<{ text: string }>)[0]!.text)).toMatchObject([{ email: 'ann@example.com', absent: true }]);
    expect((await server.services.stores.bookings.find(b.uid))!.absentHost).toBe(true);
    await agent.close();

    const reader = new Client({ name: 'booking-agent', version: '1.0.0' });
    await reader.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_READ'])}` } } }));
    expect((await reader.listTools()).tools.map((t) => t.name)).not.toContain('mark_booking_absent');
    await expect(reader.callTool({ name: 'mark_booking_absent', arguments: { bookingUid: b.uid, host: false } })).rejects.toThrow(/BOOKING_WRITE/);
    expect((await server.services.stores.bookings.find(b.uid))!.absentHost).toBe(true);
    await reader.close();
  });

  it.skipIf(!available)('a bad argument is refused with the field named, and nothing is written', async () => {
    const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_READ'])}` } } }));
    await expect(agent.callTool({ name: 'create_booking', arguments: { eventTypeId: 'x', start: 'not a date' } })).rejects.toThrow(/attendee|start/);
    await agent.close();
  });
});
