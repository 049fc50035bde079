// A small least-recently-used cache: the analyzer keeps its results by command text.

/** A bounded map that forgets the least recently used entry when full. */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = Math.max(0, capacity);
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
