import { clock } from '../clock';

/**
 * The one per-container cache: every value a warm Lambda container reuses across
 * invocations (key lookups, secrets, definitions, pointers, static files) is kept in
 * one of these, so bounds, ages and failure handling are the same everywhere.
 *
 * - Bounded: at most `maxEntries`; the entry loaded longest ago goes first.
 * - Aged: an entry is used for `maxAgeMs` after its load started (the start, not the
 *   end: the data may be as old as that), and never when it seems to come from the
 *   future (tests move the clock back).
 * - An entry may carry its own deadline (`expiresAt`), e.g. an API key's expiry: it is
 *   not used from then on, whatever its age.
 * - Failed loads are not kept: the next call loads again.
 * - Concurrent calls for one key share one load.
 */
export interface TtlCacheOptions<V> {
  /** How long an entry is used after its load started, in ms; `Infinity` keeps it for the container's life. */
  maxAgeMs: number;
  /** Most entries kept. Default 256. */
  maxEntries?: number;
  /** A deadline known with the value (ms since the epoch): the entry is not used from then on. */
  expiresAt?: (value: V) => number | undefined;
  /** Whether a loaded value is kept at all (e.g. "not found" is not). Default: every value. */
  keep?: (value: V) => boolean;
  /** Injectable clock; default the service clock (shared/clock.ts), which tests freeze. */
  now?: () => number;
}

/** A kept value as a caller's own freshness check sees it. */
export interface CachedEntry<V> {
  value: V;
  /** When its load started (ms since the epoch). */
  loadedAt: number;
}

interface Slot<V> {
  promise: Promise<V>;
  loadedAt: number;
  settled?: { value: V; expiresAt?: number };
}

export class TtlCache<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: TtlCacheOptions<V>) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 256);
    this.now = options.now ?? (() => clock.now());
  }

  /**
   * The kept value for `key` if it is still usable, else the result of `load` (kept
   * unless it fails or `keep` refuses it). A load already under way for the key is
   * joined. `accept` adds the caller's own freshness rule (e.g. "the version I just
   * read"); an entry or a joined load it refuses is replaced by a new load.
   */
  async get(key: K, load: () => Promise<V>, accept?: (entry: CachedEntry<V>) => boolean): Promise<V> {
    const slot = this.slots.get(key);
    if (slot?.settled) {
      if (this.usable(slot, slot.settled.value, slot.settled.expiresAt, accept)) return slot.settled.value;
    } else if (slot) {
      const value = await slot.promise;
      const settled = this.slots.get(key) === slot ? slot.settled : undefined;
      const expiresAt = settled?.expiresAt ?? this.options.expiresAt?.(value);
      if (this.usable(slot, value, expiresAt, accept)) return value;
    }
    return this.reload(key, load);
  }

  /** Loads `key` now, whatever is kept (a re-read before refusing); later `get`s join this load. */
  reload(key: K, load: () => Promise<V>): Promise<V> {
    const slot = { loadedAt: this.now() } as Slot<V>;
    this.slots.delete(key);
    if (this.slots.size >= this.maxEntries) this.slots.delete(this.slots.keys().next().value as K);
    this.slots.set(key, slot);
    slot.promise = this.settle(key, slot, load);
    return slot.promise;
  }

  /** Runs the load; keeps its value only while the slot is still the key's (a newer load or a delete wins). */
  private async settle(key: K, slot: Slot<V>, load: () => Promise<V>): Promise<V> {
    try {
      const value = await load();
      if (this.slots.get(key) === slot) {
        if (this.options.keep && !this.options.keep(value)) this.slots.delete(key);
        else slot.settled = { value, expiresAt: this.options.expiresAt?.(value) };
      }
      return value;
    } catch (error) {
      if (this.slots.get(key) === slot) this.slots.delete(key);
      throw error;
    }
  }

  /** Forgets one key. */
  delete(key: K): void {
    this.slots.delete(key);
  }

  /** Forgets everything (test hook). */
  clear(): void {
    this.slots.clear();
  }

  /** Keys held, loads under way included. */
  get size(): number {
    return this.slots.size;
  }

  private usable(slot: Slot<V>, value: V, expiresAt: number | undefined, accept?: (entry: CachedEntry<V>) => boolean): boolean {
    const now = this.now();
    const age = now - slot.loadedAt;
    if (this.options.maxAgeMs !== Infinity && (age < 0 || age >= this.options.maxAgeMs)) return false;
    if (expiresAt !== undefined && now >= expiresAt) return false;
    return accept ? accept({ value, loadedAt: slot.loadedAt }) : true;
  }
}

/** `load` runs on the first call and its result is kept for the container's life; a failure is not kept, so the next call tries again. */
export function keptOnceLoaded<T>(load: () => Promise<T>): () => Promise<T> {
  const cache = new TtlCache<'value', T>({ maxAgeMs: Infinity, maxEntries: 1 });
  return () => cache.get('value', load);
}
