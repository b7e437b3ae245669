/** `wayfinder task`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';
import { GATEWAY_USAGE } from '../operator/gateway-usage';

export const taskHelp: CommandHelp = {
  name: 'task',
  summary: "submit a task to the gateway for the key's tenant and print its map",
  usage: `usage: wayfinder task submit FILE [--format text|json] [--gateway URL] [--key KEY]

Submits a wayfinder.task.v1 JSON file as a task of the key's tenant and prints its cognitive map:
  --format  text (default): one summary line (map id, version, milestones, anchors, constraints);
            json: the wayfinder.map.v1 event
${GATEWAY_USAGE}`,
};
