// The holds on slots (docs/integrating.md#slot-reservations): a slot of an event type held for a
// few minutes by whoever has the hold's uid. src/storage/stores/platform/slot-reservations.ts
// implements it.

export interface SlotReservation {
  /** The holder's proof: whoever sends it books the held slot, changes or releases the hold. */
  uid: string;
  eventTypeId: string;
  /** Epoch milliseconds, the slot's start and end. */
  start: number;
  end: number;
  createdAt: number;
  /** When the hold lets go: from then it is nothing, and retention deletes it. */
  expiresAt: number;
}

export interface SlotReservationStore {
  insert(reservation: SlotReservation): Promise<void>;
  /** The hold of that uid if it has not expired at `now`; undefined otherwise. */
  findLive(uid: string, now: number): Promise<SlotReservation | undefined>;
  /** The event type's holds live at `now` overlapping [from, to), except exceptUid's, by start. */
  liveOverlapping(eventTypeId: string, from: number, to: number, now: number, exceptUid?: string): Promise<SlotReservation[]>;
  /** Moves a hold live at `now` to another slot and expiry; false, changing nothing, when there is none. */
  move(uid: string, changes: Pick<SlotReservation, 'start' | 'end' | 'expiresAt'>, now: number): Promise<boolean>;
  /** Deletes the hold of that uid if it is live at `now`; whether it was. */
  release(uid: string, now: number): Promise<boolean>;
}
