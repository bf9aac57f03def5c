// What calendars and video services report of a booking (docs/integrating.md#provider-records):
// Gatehouse runs none, so an operator records it with `gatehouse bookings add-…` and the /v2
// routes at Cal.com API v2's addresses answer it, through real HTTP on both databases. Nothing
// recorded is an empty list. Who reaches a booking's records — its host, or its team for a team
// booking's references (docs/rules.md#membership-rules) — is test/services/platform/booking-provider-records.test.ts's;
// the scope, and the organization's address of the team route, are platform-access's and team-access's.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { type TestServer, type TestUser } from '../helpers/server.ts';
import { fixtures, mint, quickUser, type World, useWorld } from './fixtures.ts';

describe.each(backends)('booking provider records on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

  const gatehouse = (...args: string[]): Promise<CliResult> => runCli(args, { env: { DATABASE_URL: server.database.url, ...server.database.env } });
  const recorded = async (...args: string[]) => {
    const res = await gatehouse('bookings', ...args, '--json');
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout) as Record<string, unknown>;
  };
  const read = (user: TestUser) => mint(server, w, user, ['BOOKING_READ']);

  it.skipIf(!available)('nothing recorded: each route answers an empty list', async () => {
    const host = await quickUser(server);
    const b = await f.booking({ hostId: host.id });
    const t = await read(host);
    for (const what of ['references', 'recordings', 'transcripts', 'conferencing-sessions']) {
      const res = await server.api('GET', `/v2/bookings/${b.uid}/${what}`, t);
      expect(res.status, what).toBe(200);
      expect(res.body, what).toEqual({ status: 'success', data: [] });
    }
  });

  it.skipIf(!available)('what the CLI records, the routes answer in the platform shapes; ?type= keeps one provider', async () => {
    const host = await quickUser(server);
    const b = await f.booking({ hostId: host.id });
    const t = await read(host);
    const ref = await recorded('add-reference', '--booking', b.uid, '--type', 'google_calendar', '--event-uid', 'gcal-123', '--calendar', 'primary');
    await recorded('add-reference', '--booking', b.uid, '--type', 'daily_video', '--event-uid', 'room-9');
    const rec = await recorded('add-recording', '--booking', b.uid, '--room', 'daily-room-9', '--start', '2030-01-31T09:00:00Z', '--duration', '1800', '--share-token', 'share-1', '--download-link', 'https://video.example.com/rec/1', '--id', `rec-${b.uid}`);
    await recorded('add-transcript', '--booking', b.uid, '--url', 'https://video.example.com/transcripts/1.txt');
    const participants = JSON.stringify([{ userId: host.id, userName: 'Host', joinTime: 1896080400, duration: 1700 }, { userId: null, userName: null, joinTime: 1896080460, duration: 1600 }]);
    const ses = await recorded('add-session', '--booking', b.uid, '--room', 'daily-room-9', '--start', '1896080400', '--duration', '1800', '--max-participants', '2', '--participants', participants);

    const references = await server.api('GET', `/v2/bookings/${b.uid}/references`, t);
    expect(references.body.data).toEqual([
      { id: Number(ref.id), type: 'google_calendar', eventUid: 'gcal-123', destinationCalendarId: 'primary' },
      { id: expect.any(Number), type: 'daily_video', eventUid: 'room-9', destinationCalendarId: null },
    ]);
    expect((await server.api('GET', `/v2/bookings/${b.uid}/references?type=daily_video`, t)).body.data.map((r: { type: string }) => r.type)).toEqual(['daily_video']);
    expect((await server.api('GET', `/v2/bookings/${b.uid}/recordings`, t)).body.data).toEqual([
      { id: rec.id, roomName: 'daily-room-9', startTs: 1896080400, status: 'completed', duration: 1800, shareToken: 'share-1', downloadLink: 'https://video.example.com/rec/1', error: null },
    ]);
    expect(rec.id).toBe(`rec-${b.uid}`);
    expect((await server.api('GET', `/v2/bookings/${b.uid}/transcripts`, t)).body).toEqual({ status: 'success', data: ['https://video.example.com/transcripts/1.txt'] });
    expect((await server.api('GET', `/v2/bookings/${b.uid}/conferencing-sessions`, t)).body.data).toEqual([
      { id: ses.id, room: 'daily-room-9', startTime: 1896080400, duration: 1800, ongoing: false, maxParticipants: 2, participants: JSON.parse(participants) },
    ]);
  });

  it.skipIf(!available)('the CLI refuses, one line and exit 1: an unknown booking, a bad address, a bad time, malformed participants, a provider id recorded already', async () => {
    const b = await f.booking({ hostId: w.owner.id });
    const cases: Array<[string[], string]> = [
      [['add-transcript', '--booking', 'no-such-booking', '--url', 'https://x.example.com/t'], 'no booking has the uid no-such-booking'],
      [['add-transcript', '--booking', b.uid, '--url', 'ftp://x.example.com/t'], 'url: must be an absolute https:// or http:// address'],
      [['add-recording', '--booking', b.uid, '--room', 'r', '--start', 'yesterday', '--duration', '60', '--share-token', 's'], '--start: give an ISO 8601 time'],
      [['add-session', '--booking', b.uid, '--room', 'r', '--start', '1896080400', '--duration', '60', '--max-participants', '1', '--participants', '[{"joinTime":"soon","duration":1}]'], 'participants[0].joinTime: must be a whole number'],
      [['add-session', '--booking', b.uid, '--room', 'r', '--start', '1896080400', '--duration', '60', '--max-participants', '1', '--participants', 'not json'], '--participants: give a JSON list'],
    ];
    for (const [args, message] of cases) {
      const res = await gatehouse('bookings', ...args);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr, args.join(' ')).toContain(message);
    }
    const args = ['add-recording', '--booking', b.uid, '--room', 'r', '--start', '1896080400', '--duration', '60', '--share-token', 's', '--id', `dup-${b.uid}`];
    expect((await gatehouse('bookings', ...args)).code).toBe(0);
    const again = await gatehouse('bookings', ...args);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`id: a recording of id dup-${b.uid} is already recorded`);
    expect((await server.api('GET', `/v2/bookings/${b.uid}/recordings`, await read(w.owner))).body.data).toHaveLength(1);
  });
});
