// Small caches: a least-recently-used map (the analyzer keeps its results by command text) and the admission
// filter that keeps one-off keys out of such a cache.

/** Options of an LruCache. */
export interface LruOptions {
  /**
   * Admit a string key only the second time it is set (see SeenOnce): a stream of keys seen once — unique
   * commands — then passes through without churning the map. Off by default.
   */
  admitOnSecondSight?: boolean;
}

/** A bounded map that forgets the least recently used entry when full. */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();
  readonly #capacity: number;
  readonly #door: SeenOnce | undefined;

  constructor(capacity: number, options: LruOptions = {}) {
    this.#capacity = Math.max(0, capacity);
    this.#door = options.admitOnSecondSight && this.#capacity > 0 ? new SeenOnce(this.#capacity * 2) : undefined;
  }

  /** The cached value, refreshed as most recently used. */
  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value === undefined) return undefined;
    // Map keeps insertion order: re-inserting moves the key to the young end.
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (this.#capacity === 0) return;
    if (this.#door && typeof key === 'string' && !this.#map.has(key) && !this.#door.offer(key)) return;
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#capacity) {
      const oldest = this.#map.keys().next();
      if (!oldest.done) this.#map.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#map.size;
  }
}

/**
 * An admission filter: remembers the last `size` keys offered, as 30-bit hashes, and says whether a key was offered
 * before. A cache that stores a key only on its second sight keeps one-off entries out. Under a stream of unique
 * calls such entries live until evicted — long enough for V8 to copy them into the old generation, where they pile up
 * until a major collection (a pause of 10 ms or more) — while no later call ever reads them. The filter keeps only
 * small integers (no heap objects), so it costs the garbage collector nothing; a hash collision only admits a key early.
 */
export class SeenOnce {
  readonly #ring: Int32Array;
  readonly #seen = new Set<number>();
  #at = 0;

  constructor(size: number) {
    this.#ring = new Int32Array(Math.max(1, size)).fill(-1);
  }

  /** True when `key` was offered before and is still remembered; otherwise remembers it and answers false. */
  offer(key: string): boolean {
    const hash = hashOf(key);
    if (this.#seen.has(hash)) return true;
    const oldest = this.#ring[this.#at]!;
    if (oldest >= 0) this.#seen.delete(oldest);
    this.#ring[this.#at] = hash;
    this.#seen.add(hash);
    this.#at = (this.#at + 1) % this.#ring.length;
    return false;
  }
}

/** FNV-1a over the UTF-16 code units, cut to 30 bits (a small integer V8 keeps unboxed). */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}
