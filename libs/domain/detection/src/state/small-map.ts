/**
 * An insertion-ordered string-keyed map for state that mostly holds one entry (a run's failed milestone):
 * the entry in fields, a real Map only from the second key on. ~48 bytes where an empty Map costs ~180
 * (DESIGN §7 memory budget). The subset of Map's API the detectors use, with the same order semantics.
 */
export class SmallMap<V> implements Iterable<[string, V]> {
  private key: string | null = null;
  private value: V | undefined = undefined;
  private map: Map<string, V> | null = null;

  constructor(entries?: Iterable<readonly [string, V]>) {
    if (entries) for (const [k, v] of entries) this.set(k, v);
  }

  get size(): number {
    return this.map ? this.map.size : this.key === null ? 0 : 1;
  }

  get(key: string): V | undefined {
    if (this.map) return this.map.get(key);
    return this.key === key ? this.value : undefined;
  }

  has(key: string): boolean {
    return this.map ? this.map.has(key) : this.key === key;
  }

  set(key: string, value: V): this {
    if (this.map) this.map.set(key, value);
    else if (this.key === null || this.key === key) {
      this.key = key;
      this.value = value;
    } else {
      this.map = new Map([[this.key, this.value as V], [key, value]]);
      this.key = null;
      this.value = undefined;
    }
    return this;
  }

  delete(key: string): boolean {
    if (this.map) return this.map.delete(key);
    if (this.key !== key) return false;
    this.key = null;
    this.value = undefined;
    return true;
  }

  keys(): IterableIterator<string> {
    if (this.map) return this.map.keys();
    return (this.key === null ? [] : [this.key]).values();
  }

  *[Symbol.iterator](): IterableIterator<[string, V]> {
    if (this.map) yield* this.map;
    else if (this.key !== null) yield [this.key, this.value as V];
  }
}
