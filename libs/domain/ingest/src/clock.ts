/** The Clock port: the normalizer's idle and root-span flushes read time only through it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}
