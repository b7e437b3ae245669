/** The Clock port (@wayfinder/clock): the normalizer's idle and root-span flushes read time only through it. */
export type { Clock } from '@wayfinder/clock';
