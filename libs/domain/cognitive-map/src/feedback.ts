/**
 * User feedback becomes a numbered appended constraint (DESIGN §4 `feedback`, §5.5 charter): a new map
 * version; existing constraints keep their numbers.
 */
import type { CognitiveMap } from '@wayfinder/contracts';
import { numberConstraints } from './constraints';
import { mapEventId } from './task-parser';

export interface MapVersionMeta {
  /** Timestamp of the feedback that caused the new version (maps carry no clock of their own). */
  ts?: string;
  eventId?: string;
}

/** Returns the next version of the map with the feedback appended; the same map if the text adds nothing. */
export function appendFeedbackConstraint(map: CognitiveMap, text: string, meta: MapVersionMeta = {}): CognitiveMap {
  const constraints = numberConstraints([text.replace(/\s+/g, ' ')], 'feedback', map.constraints);
  if (constraints.length === map.constraints.length) return map;
  const version = map.version + 1;
  return {
    ...map,
    version,
    eventId: meta.eventId ?? mapEventId(map.taskId, version),
    ts: meta.ts ?? map.ts,
    constraints,
  };
}
