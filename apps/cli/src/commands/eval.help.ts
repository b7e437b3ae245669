/** `wayfinder eval`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

const PERSISTENCE_USAGE = `usage: wayfinder eval persistence PATH… [--task FILE.json | --goal TEXT] [--format json|table] [--curve DIR]
                                [--policy FILE.json] [--profile NAME]

Scores goal persistence of every run (one agent on one task in one file) in the StepEvent JSONL files
or folders given, with navigation running over them as in replay --corrections. Prints one JSON object
per run and a last line {"summary": …}:
  anchorRecall          anchors met in the run's final output ÷ anchors (null: the map has no anchors)
  anchors               per anchor: finalCount, reachedCount, outcome met | metLate | missed
  trajectoryConsistency share of judged steps serving an open anchor or the current milestone
  ruleCoverage          share of judged steps decided by rules (the rest by the hashing embedder)
  deviations, deviationEpisodes, returned, meanReturnLength (steps from a deviation to the next progress)
  resourceEfficiency    {tokens, calls} on serving steps ÷ all (null when the run reports none)
  selfHealRate, selfHealByRung, corrections
  goalSource            task-line | task-option | goal-option | first-user-message | first-message
options:
  --task FILE.json      a wayfinder.task.v1 TaskSpec whose goal, milestones and anchors every run is scored on
  --goal TEXT           a goal every run is scored on
  --format json|table   json (default) or a table for people
  --curve DIR           write each run's persistence curve as DIR/<agent>.svg
  --policy, --profile   the navigation policy, as for replay`;

const AB_USAGE = `usage: wayfinder eval ab [--agents N] [--seed K] [--arms none,navigation,sham] [--rounds R] [--report FILE.html]

Runs the same seeded fleet of simulated agents (30% fall into a failure; they answer what a correction
says, libs/testing/src/fleet/recovery-model.ts) once per arm, each in its own embedded pipeline:
  none        navigation runs but no correction reaches the agents
  navigation  the corrections as published
  sham        corrections at the same points of the rhythm, with generic content
Prints one JSON object {seed, agents, rounds, arms: {…}, differences: {…}}: per arm tasksCompleted,
anchorRecall, consistency, stepsPerCompletedTask, tokens, selfHealRate and selfHealByRung, escalations;
differences against none with paired bootstrap 95% intervals over agents (seeded by --seed).
  --agents N    fleet size (default 150)
  --seed K      the same seed gives the same output (default 1)
  --arms LIST   comma-separated subset of none,navigation,sham (default all three; differences need none)
  --rounds R    the step budget: an agent still working after R rounds did not complete (default 150)
  --report F    also write an HTML report with the arms side by side and persistence curves`;

export const evalHelp: CommandHelp = {
  name: 'eval',
  summary: 'score navigation on labelled traces (eval trail DIR) goal persistence (eval persistence PATH…) and the navigation A/B (eval ab)',
  usage: `usage: wayfinder eval trail DIR [--policy FILE.json] [--profile NAME] [--embedder NAME]
       wayfinder eval persistence PATH… (see below)
       wayfinder eval ab [--agents N] [--seed K] [--arms …] (see below)

Reads DIR/labels.json and the StepEvent JSONL trace of each labelled row, runs the whole navigation on
each trace (balanced profile unless told otherwise) and prints one JSON object:
  traces, positives, negatives   loop positives are traces with a 'resource abuse' label
  loop    recall, falsePositiveRate, localized (a loop deviation within [s-8, s+2] of a labelled seq s),
          each with its 95% Wilson interval (recallInterval, falsePositiveRateInterval, localizedInterval),
          and leadTime: calls from a caught loop's onset (the first call of its repeated pattern, the
          deviation's loopStartSeq) to its first deviation, over the flagged positives (measured, mean,
          median, max)
  drift   the same three for 'drift' deviations against 'goal deviation' labels
  profile the policy profile used

options:
  --policy FILE.json   a policy overlay over the profile
  --profile NAME       balanced (default) | strict | lenient | openclaw
  --embedder NAME      hashing | minilm | bge-zh for drift, semantic_repetition and monologue, with
                       the policy's thresholds for that embedder (tool arguments keep hashing)

${PERSISTENCE_USAGE}

${AB_USAGE}
`,
};
