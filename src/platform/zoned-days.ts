// Calendar days in a time zone, for the requests that name a period by dates
// (Cal.com API v2's dateFrom/dateTo with a timeZone): a day starts at its local midnight.
// Intl knows every IANA zone and its offsets; no library is needed for this one question.

/** How far the zone's wall clock is ahead of UTC at that instant, in milliseconds. */
function offsetAt(ms: number, zone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, Number(p.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a day (YYYY-MM-DD) starts in the zone. The offset is taken at the guess and
 * once more at the result, so a day that starts next to a daylight-saving change still
 * starts at its first local instant.
 */
export function startOfDay(date: string, zone: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`);
  const first = wall - offsetAt(wall, zone);
  return wall - offsetAt(first, zone);
}

/** The day after a YYYY-MM-DD date, as YYYY-MM-DD. */
export function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The date it is in the zone at that instant, as YYYY-MM-DD. */
export function dateIn(ms: number, zone: string): string {
  return new Date(ms + offsetAt(ms, zone)).toISOString().slice(0, 10);
}
