/**
 * The agent, task and run a client names in Wayfinder's headers (`X-Wayfinder-Agent`, `-Task`, `-Run`),
 * read the same way by every door that takes them (the LLM proxy's dialects, the MCP door): trimmed, an
 * empty header is none, a present one must be an id (1–128 characters) or the request gets a 400 naming it.
 */
import type { IncomingMessage } from 'node:http';
import { Id } from '@wayfinder/contracts';
import { badRequest } from './api-error';

export interface WayfinderHeaders {
  agentId?: string;
  taskId?: string;
  runId?: string;
}

/** A header's trimmed value, undefined when absent or blank. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function wayfinderHeaders(req: IncomingMessage): WayfinderHeaders {
  const agentId = headerValue(req, 'x-wayfinder-agent');
  if (agentId !== undefined && !Id.safeParse(agentId).success) throw badRequest('the agent id must be 1–128 characters (X-Wayfinder-Agent)', 'X-Wayfinder-Agent');
  const taskId = headerValue(req, 'x-wayfinder-task');
  if (taskId !== undefined && !Id.safeParse(taskId).success) throw badRequest('X-Wayfinder-Task must be 1–128 characters', 'X-Wayfinder-Task');
  const runId = headerValue(req, 'x-wayfinder-run');
  if (runId !== undefined && !Id.safeParse(runId).success) throw badRequest('X-Wayfinder-Run must be 1–128 characters', 'X-Wayfinder-Run');
  return { ...(agentId !== undefined && { agentId }), ...(taskId !== undefined && { taskId }), ...(runId !== undefined && { runId }) };
}
