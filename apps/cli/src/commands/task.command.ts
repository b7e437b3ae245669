/**
 * `wayfinder task submit FILE`: posts a `wayfinder.task.v1` JSON file to the gateway for the key's tenant
 * (schema, eventId, ts and tenantId may be left out; the gateway fills them) and prints the cognitive map
 * it was parsed into: a one-line summary (task, version, milestones, anchors, constraints), or the map
 * itself with `--format json`. A task the task-parser would refuse is refused now, naming the field.
 */
import { readFileSync } from 'node:fs';
import type { CognitiveMap } from '@wayfinder/contracts';
import { parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { callGateway, GATEWAY_OPTIONS, gatewayTarget } from '../operator/gateway-client';
import { taskHelp } from './task.help';

export const taskCommand: Command = {
  ...taskHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, { ...GATEWAY_OPTIONS, format: { type: 'string' } });
    const [action, ...rest] = positionals;
    if (action !== 'submit') throw new UsageError(`expected 'task submit FILE', got '${positionals.join(' ') || '(nothing)'}'`);
    if (rest.length !== 1) throw new UsageError('task submit takes one FILE');
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, got '${format}'`);
    const target = gatewayTarget(values);
    let task: unknown;
    try {
      task = JSON.parse(readFileSync(rest[0], 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read ${rest[0]} as JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof task !== 'object' || task === null || Array.isArray(task)) throw new UsageError(`${rest[0]} must hold one wayfinder.task.v1 object`);
    const { map } = await callGateway<{ map: CognitiveMap }>(target, 'POST', '/v1/tasks', task);
    io.stdout.write(format === 'json' ? JSON.stringify(map, null, 2) + '\n' : mapSummary(map) + '\n');
    return 0;
  },
};

/** `map <eventId> of task <taskId> (tenant T), version N: 3 milestones (a → b → c), 1 anchor, 2 constraints`. */
export function mapSummary(map: CognitiveMap): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [
    `map ${map.eventId} of task ${map.taskId} (tenant ${map.tenantId}), version ${map.version}:`,
    `${plural(map.milestones.length, 'milestone')} (${map.milestones.map((m) => m.id).join(', ')}),`,
    `${plural(map.anchors.length, 'anchor')}, ${plural(map.constraints.length, 'constraint')}`,
  ].join(' ');
}
