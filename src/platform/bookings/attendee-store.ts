// A booking's attendees (docs/integrating.md#booking-attendees), one row each: its booker, its
// guests and those added after booking, each of whom can be marked absent; whether the host was
// is the booking's own (store.ts: setHostAbsent). src/storage/stores/platform/booking-attendees.ts
// implements it.

/** Where an attendee came from: who booked, a guest of the booking, or added after booking. */
export type AttendeeRole = 'booker' | 'guest' | 'added';

export interface Attendee {
  id: string;
  bookingUid: string;
  role: AttendeeRole;
  /** Lower case, as a booking keeps its addresses; one attendee per address and booking. */
  email: string;
  /** Empty for a guest, who is known by address only. */
  name: string;
  timeZone: string;
  phoneNumber: string | null;
  language: string | null;
  absent: boolean;
  createdAt: number;
}

/** An attendee to write: the store gives it its id, and it starts present. */
export type NewAttendee = Omit<Attendee, 'id' | 'absent'>;

export interface BookingAttendeeStore {
  /** The booking's attendees: the booker first, then in the order they joined (ties by address). */
  list(bookingUid: string): Promise<Attendee[]>;
  /** The booking's attendee of that id; undefined when there is none or it is another booking's. */
  find(bookingUid: string, id: string): Promise<Attendee | undefined>;
  /** Writes them with new ids; an address the booking already has throws a unique violation. */
  insert(attendees: NewAttendee[]): Promise<Attendee[]>;
  /** Marks the booking's attendee of that address absent or present; an unknown address changes nothing. */
  setAbsent(bookingUid: string, email: string, absent: boolean): Promise<void>;
}
