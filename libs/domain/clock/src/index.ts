/** @wayfinder/clock: the Clock port, the system clock and a manual clock for tests and replays. */
export { ManualClock, systemClock, type Clock } from './clock';
