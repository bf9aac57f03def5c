// "Add to calendar" links of a booking (BOOKING_READ's calendar links, docs/rules.md#scope-registry). Built from
// the booking alone: no outside calendar service is called.
export interface CalendarEvent {
  uid: string;
  title: string;
  description: string;
  location: string;
  start: number;
  end: number;
}

/** 20300131T090000Z: the basic ISO form Google, Yahoo and ICS use. */
const basic = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** RFC 5545 §3.3.11: backslash, semicolon, comma and newline are escaped in TEXT. */
const icsText = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

export interface CalendarLink {
  /** Gatehouse's name of the calendar, steady for a program to pick one by. */
  id: 'google' | 'outlook' | 'office365' | 'yahoo' | 'ics';
  /** The platform's: what a person reads on the button. */
  label: string;
  link: string;
}

/** The platform's list of {label, link}; the ICS file as a data: URL, so that each entry is a link. */
export function calendarLinks(e: CalendarEvent, now: number): CalendarLink[] {
  const l = links(e, now);
  return [
    { id: 'google', label: 'Google Calendar', link: l.google },
    { id: 'outlook', label: 'Microsoft Outlook', link: l.outlook },
    { id: 'office365', label: 'Microsoft Office 365', link: l.office365 },
    { id: 'yahoo', label: 'Yahoo Calendar', link: l.yahoo },
    { id: 'ics', label: 'ICS', link: `data:text/calendar;charset=utf-8,${encodeURIComponent(l.ics)}` },
  ];
}

function links(e: CalendarEvent, now: number) {
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const compose = (host: string) =>
    `https://${host}/calendar/0/action/compose?${q({ subject: e.title, startdt: new Date(e.start).toISOString(), enddt: new Date(e.end).toISOString(), body: e.description, location: e.location })}`;
  return {
    google: `https://calendar.google.com/calendar/render?${q({ action: 'TEMPLATE', text: e.title, dates: `${basic(e.start)}/${basic(e.end)}`, details: e.description, location: e.location })}`,
    outlook: compose('outlook.live.com'),
    office365: compose('outlook.office.com'),
    yahoo: `https://calendar.yahoo.com/?${q({ v: '60', title: e.title, st: basic(e.start), et: basic(e.end), desc: e.description, in_loc: e.location })}`,
    ics: [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Gatehouse//Bookings//EN',
      'BEGIN:VEVENT',
      `UID:${e.uid}@gatehouse`,
      `DTSTAMP:${basic(now)}`,
      `DTSTART:${basic(e.start)}`,
      `DTEND:${basic(e.end)}`,
      `SUMMARY:${icsText(e.title)}`,
      `DESCRIPTION:${icsText(e.description)}`,
      `LOCATION:${icsText(e.location)}`,
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n'),
  };
}
