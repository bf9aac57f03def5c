// Starts a booking may take in the tests' worlds (docs/rules.md#booking-availability): their
// users live in UTC with Cal.com's default week, Monday to Friday 09:00-17:00, so a booking
// keeps to availability only at a slot of that week. 09:00, 12:00 and 15:00 lie on the grid of
// every length that divides three hours (15, 20, 30, 45, 60, 90 minutes); an hour after them,
// on the grid of 15, 20, 30 and 60.

const DAY = 86_400_000;

/** The n-th of those starts (three a weekday) from the first Monday at least a day after `now`. */
export function slotStart(now: number, n: number): number {
  const tomorrow = Math.floor((now + DAY) / DAY) * DAY;
  // 1 January 1970 was a Thursday: (days + 3) % 7 is 0 on a Monday.
  const monday = tomorrow + ((7 - ((tomorrow / DAY + 3) % 7)) % 7) * DAY;
  const day = Math.floor(n / 3);
  return monday + (Math.floor(day / 5) * 7 + (day % 5)) * DAY + (9 + (n % 3) * 3) * 3_600_000;
}
