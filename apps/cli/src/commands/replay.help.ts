/** `wayfinder replay`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const replayHelp: CommandHelp = {
  name: 'replay',
  summary: 'replay StepEvent JSONL files through navigation; print deviations (and corrections)',
  usage: `usage: wayfinder replay PATH… [--policy FILE.json] [--profile NAME] [--embedder NAME] [--corrections] [--format jsonl|table]

Reads StepEvent JSONL files, or folders of them (every *.jsonl below, recursively, sorted), runs the whole
navigation in process (localization, detectors, correction ladder) and writes one JSON object per line to
stdout: each Deviation, and with --corrections each Correction and Escalation, in event order.
A line that is not a valid wayfinder.step.v1 event is reported on stderr as FILE:LINE and skipped.
A wayfinder.task.v1 line (a TaskSpec) gives the steps of its task a cognitive map to be localized on.

options:
  --policy FILE.json   a policy overlay (any subset of the TenantPolicy settings) over the profile
  --profile NAME       balanced (default) | strict | lenient | openclaw
  --embedder NAME      hashing | minilm | bge-zh for drift, semantic_repetition and monologue (tool
                       arguments keep hashing; the policy's "embedders" section chooses per detector)
  --corrections        also run the correction ladder and print corrections and escalations
  --format FORMAT      jsonl (default) | table
`,
};
