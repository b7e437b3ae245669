/** `wayfinder map`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const mapHelp: CommandHelp = {
  name: 'map',
  summary: 'parse a goal or a task into a cognitive map',
  usage: `usage: wayfinder map (--goal TEXT | --goal-file FILE | --task FILE.json) [--format json|text]

Parses a goal (English or Chinese) or a wayfinder.task.v1 JSON file into a cognitive map: at most 7
milestones forming a DAG with validators, quantitative anchors, and hard constraints.
  --format  json (default): the wayfinder.map.v1 event; text: a readable outline`,
};
