// Issue #29, cross-site posts: in local mode a page of another site can post a form or a `text/plain`
// body to loopback without a preflight. Such a body must not be parsed as JSON (steps, resume, policy),
// and a request whose Origin is another site is refused whatever it carries. The dashboard's own
// same-origin fetches and the clients that send JSON, NDJSON or OTLP protobuf keep working.
import type { RunningServices } from '../runtime';
import { call, loopSteps, REPORT_TASK, startWithGateway } from './gateway.testing';

describe('local mode refuses a cross-site text/plain post', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway();
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('answers 415 naming the content type to text/plain, form and multipart bodies on JSON routes', async () => {
    expect(running.gatewayLocalMode).toBe(true);
    const steps = JSON.stringify(loopSteps('victim', 1));
    for (const [path, body] of [['/v1/steps', steps], ['/v1/agents/victim/resume', '{"reason":"x"}'], ['/v1/tasks', JSON.stringify(REPORT_TASK)]] as const) {
      for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const answer = await call(base, 'POST', path, { raw: body, contentType: type });
        expect({ path, type, status: answer.status }).toEqual({ path, type, status: 415 });
        expect(answer.body.error).toContain(type.split(';')[0]);
      }
    }
    const policy = await call(base, 'PUT', '/v1/policy', { raw: '{"proxy":{"upstream":"http://attacker.example"}}', contentType: 'text/plain' });
    expect(policy.status).toBe(415);
  });

  it('refuses a foreign Origin with 403 even on a JSON body, and serves a loopback Origin', async () => {
    const foreign = await call(base, 'POST', '/v1/steps', { body: loopSteps('victim', 1), headers: { origin: 'https://attacker.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatch(/Origin/);
    expect((await call(base, 'GET', '/v1/policy', { headers: { origin: 'null' } })).status).toBe(403);
    const own = await call(base, 'POST', '/v1/steps', { body: loopSteps('mine', 1), headers: { origin: base } });
    expect(own.status).toBe(202);
    expect((await call(base, 'POST', '/v1/steps', { body: loopSteps('mine2', 1), headers: { origin: 'http://localhost:5173' } })).status).toBe(202);
  });

  it('keeps JSON, NDJSON and bodies without a content type working', async () => {
    expect((await call(base, 'POST', '/v1/steps', { body: loopSteps('json', 1) })).status).toBe(202);
    const ndjson = loopSteps('nd', 1).map((e) => JSON.stringify(e)).join('\n');
    expect((await call(base, 'POST', '/v1/steps', { raw: ndjson, contentType: 'application/x-ndjson' })).body.accepted).toBe(2);
    const bare = await fetch(`${base}/v1/steps`, { method: 'POST', body: new Blob([JSON.stringify(loopSteps('bare', 1))]) });
    expect(bare.status).toBe(202);
  });
});
