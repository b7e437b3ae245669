// Issue #30: the README's Claude Code hooks configuration, run as written. The JSON block is read from
// README.md and each hook is sent as Claude Code sends an HTTP hook: the configured URL (its port moved
// to this test's gateway), the configured headers with `$VAR` taken from the environment when listed in
// `allowedEnvVars` (empty when unset, as in local mode), the hook input as the body. A session with no
// posted task that keeps running the same failing command gets its hint as `additionalContext`, worded
// for an agent without a map (no milestone), in local mode and with a key.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunningServices } from '../runtime';
import { startWithGateway } from './gateway.testing';

interface HttpHook {
  type: string;
  url: string;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
  timeout?: number;
}
type HookConfig = Record<string, Array<{ matcher: string; hooks: HttpHook[] }>>;

/** The first JSON block after the README's "### Claude Code hooks" heading. */
function readmeHooks(): HookConfig {
  const readme = readFileSync(path.join(__dirname, '../../../../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Claude Code hooks'));
  const block = /```json\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('the README has no hooks JSON block under "### Claude Code hooks"');
  return (JSON.parse(block[1]) as { hooks: HookConfig }).hooks;
}

/** Sends a hook input as Claude Code's HTTP hook does. */
async function runHook(config: HookConfig, event: string, input: Record<string, unknown>, gatewayUrl: string, env: Record<string, string | undefined>): Promise<Record<string, unknown>> {
  const hook = config[event][0].hooks[0];
  expect(hook.type).toBe('http');
  const url = new URL(hook.url);
  const target = new URL(gatewayUrl);
  url.host = target.host;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(hook.headers ?? {})) {
    headers[name] = value.replace(/\$(\w+)/g, (_, variable: string) => ((hook.allowedEnvVars ?? []).includes(variable) ? env[variable] ?? '' : ''));
  }
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ ...input, hook_event_name: event }), signal: AbortSignal.timeout((hook.timeout ?? 60) * 1000) });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** Loops the same failing Bash call through the hooks until a hint comes back; the contexts seen. */
async function loopUntilHinted(config: HookConfig, gatewayUrl: string, env: Record<string, string | undefined>, session: string): Promise<{ contexts: string[]; calls: number }> {
  const contexts: string[] = [];
  let calls = 0;
  for (let n = 0; n < 60 && contexts.length === 0; n++) {
    calls++;
    const common = { session_id: session, transcript_path: `/home/dev/.claude/projects/repo/${session}.jsonl`, cwd: '/work/repo', tool_name: 'Bash', tool_input: { command: 'cat data/sales.csv' }, tool_use_id: `toolu_${n}` };
    const pre = await runHook(config, 'PreToolUse', { ...common, permission_mode: 'default' }, gatewayUrl, env);
    const failure = await runHook(config, 'PostToolUseFailure', { ...common, error: 'cat: data/sales.csv: Permission denied' }, gatewayUrl, env);
    for (const answer of [pre, failure]) {
      const context = (answer.hookSpecificOutput as { additionalContext?: string } | undefined)?.additionalContext;
      if (context) contexts.push(context);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { contexts, calls };
}

describe("the README's Claude Code hooks configuration, as written", () => {
  const config = readmeHooks();

  it('names the three events, each an HTTP hook to the gateway', () => {
    expect(Object.keys(config).sort()).toEqual(['PostToolUse', 'PostToolUseFailure', 'PreToolUse']);
    for (const entries of Object.values(config)) expect(entries[0].hooks[0]).toMatchObject({ type: 'http', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:7070\/v1\/hooks\//) });
  });

  for (const mode of ['local mode, WAYFINDER_KEY unset', 'with a key in WAYFINDER_KEY'] as const) {
    describe(mode, () => {
      const key = 'acme-readme-hooks-key';
      let running: RunningServices;
      beforeAll(async () => {
        running = await startWithGateway(mode.startsWith('local') ? {} : { WAYFINDER_API_KEYS: `acme:${key}` });
      });
      afterAll(async () => {
        await running?.stop();
      });

      it('gets the hint as additionalContext for a looping session that posted no task', async () => {
        const env = { WAYFINDER_KEY: mode.startsWith('local') ? undefined : key };
        const { contexts, calls } = await loopUntilHinted(config, running.gateway!.url, env, `sess-readme-${mode.length}`); // eslint-disable-line @typescript-eslint/no-non-null-assertion
        expect(contexts.length).toBeGreaterThan(0);
        expect(contexts[0]).toMatch(/^Wayfinder: \[Wayfinder\] .*`Bash`/);
        expect(contexts[0]).not.toMatch(/milestone/); // no task, no map: nothing to be "on"
        expect(calls).toBeLessThanOrEqual(10);
      }, 60_000);
    });
  }

  it('is refused without the key when keys are configured (the hook is not silently served)', async () => {
    const running = await startWithGateway({ WAYFINDER_API_KEYS: 'acme:acme-readme-hooks-key' });
    try {
      const hook = config.PreToolUse[0].hooks[0];
      const url = new URL(hook.url);
      url.host = new URL(running.gateway!.url).host; // eslint-disable-line @typescript-eslint/no-non-null-assertion
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' }, body: JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: {} }) });
      expect(response.status).toBe(401);
    } finally {
      await running.stop();
    }
  });
});
