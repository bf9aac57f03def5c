// Calendar days in a time zone, for the requests that name a period by dates
// (Cal.com API v2's dateFrom/dateTo with a timeZone): a day starts at its local midnight.
// Intl knows every IANA zone and its offsets; no library is needed for this one question.

/** One formatter per zone: making one costs far more than using it, and slots ask thousands of times. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    // Bounded: a zone's name is case-insensitive, so callers could name one in many spellings.
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** How far the zone's wall clock is ahead of UTC at that instant, in milliseconds. */
function offsetAt(ms: number, zone: string): number {
  const parts = Object.fromEntries(
    formatterOf(zone)
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

/**
 * The instant a wall-clock time (HH:MM, 24:00 the day's end) of a date falls on in the zone.
 * As startOfDay, the offset is read twice, so a time after a daylight-saving change gets the
 * offset in force then; a time the change skips (02:30 on a spring-forward night) lands the
 * width of the gap later, where the clock shows the same distance past the change.
 */
export function instantAt(date: string, time: string, zone: string): number {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  if (hours === 24) return startOfDay(nextDay(date), zone);
  const wall = Date.parse(`${date}T00:00:00Z`) + (hours * 60 + minutes) * 60_000;
  const first = wall - offsetAt(wall, zone);
  return wall - offsetAt(first, zone);
}

/** The day of the week of a YYYY-MM-DD date: 0 is Monday, 6 is Sunday (ISO 8601). */
export function weekdayOf(date: string): number {
  return (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** The instant as the zone's wall clock with its offset: 2050-09-05T09:00:00.000+02:00. */
export function isoInZone(ms: number, zone: string): string {
  const offset = offsetAt(ms, zone);
  const local = new Date(ms + offset).toISOString().slice(0, 23);
  const sign = offset < 0 ? '-' : '+';
  const minutes = Math.abs(offset) / 60_000;
  return `${local}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
