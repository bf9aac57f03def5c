// A per-instance cache of what a metadata document said (or that its fetch failed), bounded
// in size: every entry has an end of life, an expired one is never served and is dropped
// when room is needed, and past the bound the oldest entry goes. Without the bound, an
// instance kept every document URL anyone ever named (docs/integrating.md#connect-an-ai-agent-mcp: first uses are anyone's).
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    readonly maxEntries: number,
    private readonly clock: () => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, unless it is missing or its end of life has come (it is then dropped). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > this.clock()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps `value` until `until` (clock milliseconds), making room first if the cache is full. */
  set(key: string, value: V, until: number): void {
    this.entries.delete(key); // a key set again is the newest
    if (this.entries.size >= this.maxEntries) this.makeRoom();
    this.entries.set(key, { value, until });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops the expired entries, then, while still full, the oldest (a Map keeps insertion order). */
  private makeRoom(): void {
    const now = this.clock();
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}
