/**
 * An engine as the detector worker runs it (balanced profile, drift plugged in) and a two-run scenario
 * that exercises the near-duplicate sketches, the message sketches and both drift curves: for the state
 * codec specs.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DetectionEngine } from '../detection.engine';
import { DriftDetector } from '../drift';
import { offTopicQueries, onTopicQueries, policy } from '../drift/testing/drift-steps';
import { steps } from './step-builder';

export function driftEngine(): DetectionEngine {
  return new DetectionEngine({ policyFor: () => ({ policy }), extraDetectors: [new DriftDetector(new HashingEmbedder())] });
}

/** `head` leaves every kind of state behind; `tail` then raises near-duplicate and drift deviations. */
export function driftScenario(): { head: StepEvent[]; tail: StepEvent[] } {
  const main = steps({ runId: 'r1' });
  const sub = steps({ runId: 'r2' });
  const search = (s: ReturnType<typeof steps>, q: string) => [s.act('web_search', { query: q }), s.ok('web_search', `results for ${q}: reviews, price lists, spec sheets`)];
  const head = [
    main.say('Compare electric scooter brands on price, battery range and weight and write a short report'),
    ...onTopicQueries.slice(0, 4).flatMap((q) => search(main, q)),
    main.say('Looking at the scooter price results now.'),
    ...search(sub, 'open issue 42 in the tracker'),
    main.act('read_file', { path: '/tmp/report.txt' }),
    main.fail('read_file', 'ENOENT: no such file /tmp/report.txt'),
    ...search(main, offTopicQueries[0]),
  ];
  const tail = [
    ...offTopicQueries.slice(1).flatMap((q) => search(main, q)),
    main.say('Looking at the scooter price results now.'),
    main.act('read_file', { path: '/tmp/report.txt' }),
    main.fail('read_file', 'ENOENT: no such file /tmp/report.txt'),
    ...search(sub, 'open issue 42 in the tracker'),
    ...search(main, `${onTopicQueries[0]} and more`),
    ...search(main, `${onTopicQueries[0]} and even more`),
    // Successful reworded repeats need three in a row (balanced nearDuplicate.successWarning).
    ...search(main, `${onTopicQueries[0]} and still more`),
    ...search(main, `${onTopicQueries[0]} and yet more`),
  ];
  return { head, tail };
}
