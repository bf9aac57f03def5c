// Outbound phone calls asked of a team event type (docs/integrating.md#phone-calls), at the
// platform's addresses: POST /v2/teams/{teamId}/event-types/{eventTypeId}/create-phone-call
// and its organization form. Gatehouse runs no phone provider: the request is queued in a
// real table the operator lists (`gatehouse phone-calls list`), the answer says so, and the
// Cal.com API key the body carries is neither kept nor shown. Through real HTTP, on both databases:
// the answer, the request's mapping and schema, the operator's list. Another team's event type is
// the service's test (test/services/platform/phone-calls.test.ts); a member's 403, the scope, the
// missing token and a team outside the path's organization, with every route's,
// platform-access's and team-access's.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { runCli } from '../helpers/cli.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, type World, useWorld } from './fixtures.ts';

const SCOPES = ['TEAM_EVENT_TYPE_WRITE'];
const API_KEY = 'cal_live_0123456789abcdef0123456789abcdef';
const request = {
  yourPhoneNumber: '+14155550100',
  numberToCall: '+4930123456',
  calApiKey: API_KEY,
  enabled: true,
  templateType: 'CHECK_IN_APPOINTMENT',
  schedulerName: 'Sales desk',
  guestName: 'Gil Guest',
  guestEmail: 'gil@example.com',
  guestCompany: 'Gil GmbH',
  beginMessage: 'Hello, this is the Sales desk.',
  generalPrompt: 'Offer the next free slot.',
};

describe.each(backends)('phone calls of team event types on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

  const gatehouse = (...args: string[]) => runCli(args, { env: { ...server.database.env, DATABASE_URL: server.database.url } });

  it.skipIf(!available)('a team admin\'s request is queued and answered as the platform answers (status, data.callId), saying it is queued; the operator lists it, without the API key', async () => {
    const et = await f.eventType({ teamId: w.team.id });
    const res = await server.api('POST', `/v2/teams/${w.team.id}/event-types/${et.id}/create-phone-call`, await mint(server, w, w.teamAdmin, SCOPES), request);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ status: 'success', data: { callId: expect.stringMatching(/^[0-9a-f-]{36}$/), callStatus: 'queued' } });
    expect(JSON.stringify(res.body)).not.toContain(API_KEY);

    const rows = await server.db.selectFrom('phone_calls').selectAll().where('id', '=', res.body.data.callId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ team_id: w.team.id, event_type_id: et.id, requested_by: w.teamAdmin.id, number_to_call: '+4930123456', template_type: 'CHECK_IN_APPOINTMENT', status: 'queued', guest_email: 'gil@example.com' });
    expect(JSON.stringify(rows)).not.toContain(API_KEY);

    const listed = await gatehouse('phone-calls', 'list', '--team', w.team.id, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const calls = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(calls).toContainEqual(expect.objectContaining({ id: res.body.data.callId, status: 'queued', number_to_call: '+4930123456', your_phone_number: '+14155550100', event_type_id: et.id, general_prompt: 'Offer the next free slot.' }));
    expect(listed.stdout).not.toContain(API_KEY);
    const text = await gatehouse('phone-calls', 'list', '--team', w.team.id);
    expect(text.stdout).toContain(`${res.body.data.callId}  queued  call +4930123456 from +14155550100  team ${w.team.id} event type ${et.id}  CHECK_IN_APPOINTMENT`);
  });

  it.skipIf(!available)('the organization form queues it for a team of that organization; the platform\'s defaults fill enabled and templateType', async () => {
    const et = await f.eventType({ teamId: w.team.id });
    const res = await server.api('POST', `/v2/organizations/${w.org.id}/teams/${w.team.id}/event-types/${et.id}/create-phone-call`, await mint(server, w, w.orgAdmin, SCOPES), {
      yourPhoneNumber: '+14155550100',
      numberToCall: '+14155550199',
      calApiKey: API_KEY,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = await server.db.selectFrom('phone_calls').selectAll().where('id', '=', res.body.data.callId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ enabled: 1, template_type: 'CUSTOM_TEMPLATE', guest_name: null });
  });

  it.skipIf(!available)('a number that is not E.164, a missing number or an unknown template type is 400 naming the field, and queues nothing', async () => {
    const et = await f.eventType({ teamId: w.team.id });
    const path = `/v2/teams/${w.team.id}/event-types/${et.id}/create-phone-call`;
    const admin = await mint(server, w, w.teamAdmin, SCOPES);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...request, numberToCall: '030 123456' }, 'numberToCall'],
      [{ ...request, yourPhoneNumber: undefined }, 'yourPhoneNumber'],
      [{ ...request, templateType: 'SOMETHING' }, 'templateType'],
      [{ ...request, enabled: 'yes' }, 'enabled'],
    ];
    for (const [body, field] of cases) {
      const res = await server.api('POST', path, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain(field);
      expect(JSON.stringify(res.body)).not.toContain(API_KEY);
    }
    expect(await server.db.selectFrom('phone_calls').select('id').where('event_type_id', '=', et.id).execute()).toEqual([]);
  });
});
