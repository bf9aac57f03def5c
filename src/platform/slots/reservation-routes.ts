// /v2/slots/reservations (docs/integrating.md#slot-reservations): Cal.com API v2's requests
// (ReserveSlotInput_2024_09_04) mapped to the reservation service's input, and its answer
// (ReserveSlotOutput_2024_09_04). Public as on the platform: the reservation's uid is the
// holder's proof for reading, moving, releasing and booking the slot.
import type { PlatformDeps } from '../deps.ts';
import { route, type ApiCall, type HandlerMap } from '../handler.ts';
import { toMillis } from '../input.ts';
import { limitPublicWrite } from '../bookings/public-limits.ts';
import { dateTime, int, numberedId, numberedIdInput, object, str, type JsonSchema } from '../schemas.ts';
import { findReservation, holdLength, moveReservation, releaseReservation, RESERVATION_MAX_MINUTES, reserveSlot, type ReservationRequest, type SlotReservation } from './reservations.ts';

interface ReserveBody {
  eventTypeId: string;
  slotStart: string;
  slotDuration?: number;
  reservationDuration?: number;
}

const reserveBody = object(
  {
    eventTypeId: { ...numberedIdInput, description: 'The event type whose slot is held' },
    slotStart: { ...dateTime, description: 'The slot to hold: a start GET /v2/slots offers' },
    slotDuration: int(1, 1440, { description: "Minutes; only the event type's own length" }),
    reservationDuration: int(1, RESERVATION_MAX_MINUTES, { description: `Minutes the slot is held, with an access token only; 5 when absent, at most ${RESERVATION_MAX_MINUTES}` }),
  },
  ['eventTypeId', 'slotStart'],
);

const reservationView: JsonSchema = object(
  {
    eventTypeId: numberedId,
    slotStart: { type: 'string', description: 'ISO 8601, UTC' },
    slotEnd: { type: 'string', description: 'ISO 8601, UTC' },
    slotDuration: { type: 'integer', description: 'Minutes' },
    reservationUid: { type: 'string', description: 'The holder’s proof: send it as reservationUid to book the slot, and to read, move or release the hold' },
    reservationDuration: { type: 'integer', description: 'Minutes the slot is held' },
    reservationUntil: { type: 'string', description: 'When the hold ends, ISO 8601, UTC' },
  },
  ['eventTypeId', 'slotStart', 'slotEnd', 'slotDuration', 'reservationUid', 'reservationDuration', 'reservationUntil'],
);

const uidParam = { uid: str(1, 64, { pattern: '^[0-9A-Za-z]+$' }) };

/** The platform's answer of a hold. */
function view(r: SlotReservation) {
  return {
    eventTypeId: Number(r.eventTypeId),
    slotStart: new Date(r.start).toISOString(),
    slotEnd: new Date(r.end).toISOString(),
    slotDuration: Math.round((r.end - r.start) / 60_000),
    reservationUid: r.uid,
    reservationDuration: holdLength(r),
    reservationUntil: new Date(r.expiresAt).toISOString(),
  };
}

const requestOf = (call: ApiCall<ReserveBody, unknown, unknown>): ReservationRequest => ({
  eventTypeId: call.body.eventTypeId,
  slotStart: toMillis(call.body.slotStart, 'slotStart'),
  ...(call.body.slotDuration !== undefined ? { slotDuration: call.body.slotDuration } : {}),
  ...(call.body.reservationDuration !== undefined ? { reservationDuration: call.body.reservationDuration } : {}),
  authenticated: call.principal !== undefined,
});

export function reservationHandlers(deps: PlatformDeps): HandlerMap {
  const s = deps.services;
  // docs/rules.md#rate-limits: without a token, a hold counts as a public booking write does.
  const limited = <T>(call: ApiCall<ReserveBody, unknown, unknown>, write: () => Promise<T>) =>
    limitPublicWrite(deps, { authorized: call.principal !== undefined, ip: call.request.ip, tell: call.setHeaders }, call.body.eventTypeId, write);
  return {
    'slotReservations.create': route<ReserveBody>({
      body: reserveBody,
      data: reservationView,
      status: 201,
      noStore: true,
      rateLimited: true,
      handle: async (call) => view(await limited(call, () => reserveSlot(s, requestOf(call)))),
    }),
    'slotReservations.get': route<unknown, unknown, { uid: string }>({
      params: uidParam,
      data: reservationView,
      noStore: true,
      handle: async ({ params }) => view(await findReservation(s, params.uid)),
    }),
    'slotReservations.update': route<ReserveBody, unknown, { uid: string }>({
      params: uidParam,
      body: reserveBody,
      data: reservationView,
      noStore: true,
      rateLimited: true,
      handle: async (call) => view(await limited(call, () => moveReservation(s, call.params.uid, requestOf(call)))),
    }),
    'slotReservations.delete': route<unknown, unknown, { uid: string }>({
      params: uidParam,
      data: { type: 'null', description: 'Nothing: the hold is released' },
      handle: async ({ params }) => {
        await releaseReservation(s, params.uid);
        return null;
      },
    }),
  };
}
