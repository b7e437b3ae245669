// Issue #30: the README's Claude Code hooks config sends `Authorization: Bearer $WAYFINDER_KEY`, which is
// `Bearer ` and nothing when WAYFINDER_KEY is unset, as it is in local mode. That empty key is no key:
// local mode serves it as the local operator (it was 401); with keys configured it is "a key is required".
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const hook = {
  session_id: 'sess-local',
  hook_event_name: 'PreToolUse',
  tool_name: 'Read',
  tool_input: { file_path: 'notes.md' },
  tool_use_id: 'toolu_1',
  cwd: '/tmp',
  transcript_path: '/tmp/t.jsonl',
};

describe('an empty bearer key', () => {
  let local: RunningServices;

  beforeAll(async () => {
    local = await startWithGateway();
  });
  afterAll(async () => {
    await local?.stop();
  });

  it("is no key in local mode: the hooks, the API and the proxy's key header serve the local operator", async () => {
    expect(local.gatewayLocalMode).toBe(true);
    const base = local.gateway!.url;
    for (const authorization of ['Bearer ', 'Bearer', 'bearer   ', '']) {
      const answer = await call(base, 'POST', '/v1/hooks/pre-tool-use', { body: hook, headers: { authorization } });
      expect({ authorization, status: answer.status }).toEqual({ authorization, status: 200 });
      expect((await call(base, 'GET', '/v1/policy', { headers: { authorization } })).body.tenantId).toBe('local');
    }
    const proxied = await call(base, 'POST', '/v1/chat/completions', { body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, headers: { 'x-wayfinder-key': 'Bearer ' } });
    expect(proxied.status).not.toBe(401);
    expect(JSON.stringify(proxied.body)).not.toMatch(/API key/);
  });

  it('is "a key is required" (401) when keys are configured', async () => {
    const keyed = await startWithGateway({ WAYFINDER_API_KEYS: 'acme:acme-empty-bearer-key' });
    try {
      const answer = await call(keyed.gateway!.url, 'GET', '/v1/policy', { headers: { authorization: 'Bearer ' } });
      expect(answer.status).toBe(401);
      expect(answer.body.error).toMatch(/an API key is required/);
    } finally {
      await keyed.stop();
    }
  });
});
