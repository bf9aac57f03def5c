// docs/integrating.md#slot-rules: an event type's booking window as the instants a start may
// take, in the zone its days are counted in (the first host's): a window of calendar days
// covers today and the days after it, `days` dates in all; one of business days covers the
// dates until the `days`-th weekday, today counted when it is one (Cal.com's reference: with 3
// days on November 10, November 10 to 12); a range covers its dates, both included. A rolling
// window is the first `days` dates that have a free slot, looked for MAX_PERIOD_DAYS ahead.
import type { BookingWindow } from '../event-types/store.ts';
import { dateIn, nextDay, startOfDay, weekdayOf } from '../zoned-days.ts';
import type { WindowRule } from './compute.ts';

const DAY = 86_400_000;

export function windowRule(window: BookingWindow | null, now: number, timeZone: string, horizonDays: number): WindowRule | null {
  if (window === null) return null;
  if (window.type === 'range') return { kind: 'fixed', start: startOfDay(window.from, timeZone), end: startOfDay(nextDay(window.to), timeZone) - 1 };
  const businessDays = window.type === 'businessDays';
  if (window.rolling) return { kind: 'rolling', days: window.days, businessDays, timeZone, horizonEnd: now + horizonDays * DAY };
  let date = dateIn(now, timeZone);
  let counted = 0;
  for (;;) {
    if (!businessDays || weekdayOf(date) < 5) counted += 1;
    if (counted === window.days) break;
    date = nextDay(date);
  }
  return { kind: 'fixed', start: -Infinity, end: startOfDay(nextDay(date), timeZone) - 1 };
}

/** The window in words, for a refusal: "30 calendar days from today", "from 2030-09-05 to 2030-09-09". */
export function windowWords(window: BookingWindow): string {
  if (window.type === 'range') return `from ${window.from} to ${window.to}`;
  const days = `${window.days} ${window.type === 'businessDays' ? 'business' : 'calendar'} day${window.days === 1 ? '' : 's'}`;
  return window.rolling ? `the next ${days} with a free slot` : `${days} from today`;
}
