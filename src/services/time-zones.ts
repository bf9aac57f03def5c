// IANA time zone names, as the runtime knows them (plus UTC, which some runtimes omit).
const TIME_ZONES = new Set(Intl.supportedValuesOf('timeZone').concat('UTC'));

export function isTimeZone(name: string): boolean {
  return TIME_ZONES.has(name);
}
