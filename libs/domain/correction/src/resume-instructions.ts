/**
 * How a frozen agent is resumed, said the same way wherever a freeze reaches the agent (the proxy's and
 * the hooks' refusals, the MCP door's tool result, the SDK's AgentFrozenError): by a human, with the
 * CLI, the dashboard's agent page or the route. An agent cannot lift its own freeze.
 */
export function resumeInstructions(agentId: string): string {
  const quoted = /^[\w.@-]+$/.test(agentId) ? agentId : JSON.stringify(agentId);
  return `A human must resume it: \`npx wayfinder agent resume ${quoted}\`, the dashboard's agent page, or POST /v1/agents/${encodeURIComponent(agentId)}/resume.`;
}
