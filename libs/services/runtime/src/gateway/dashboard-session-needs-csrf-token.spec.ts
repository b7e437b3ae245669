// Issue #29, the dashboard had no CSRF token: a request carrying the session cookie acted as the
// operator on its own. Every state-changing door taken with the cookie now needs the session's CSRF token
// (rendered into the pages) in X-CSRF-Token: without it, or with another session's, → 403 naming the
// header, and nothing changes; with it the door answers as before. A Bearer key needs no token. The login
// form itself is refused when a browser says another site posted it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileKeyStore, keysFilePath } from '@wayfinder/file-stores';
import { generateApiKey } from '@wayfinder/tenancy';
import type { RunningServices } from '../runtime';
import { call, eventually, loopSteps, REPORT_TASK, startWithGateway } from './gateway.testing';

describe("a dashboard session's CSRF token", () => {
  let running: RunningServices;
  let base: string;
  let operator: string;
  let deviationId: string;
  let mine: { cookie: string; csrf: string };
  let other: { cookie: string; csrf: string };

  /** Logs in with the key and reads the session's token from the agent page's JSON block. */
  async function logIn(key: string): Promise<{ cookie: string; csrf: string }> {
    const login = await fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ key }), redirect: 'manual' });
    expect(login.status).toBe(303);
    const setCookie = login.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/; SameSite=Strict/);
    const cookie = setCookie.split(';')[0];
    const html = await (await fetch(`${base}/agents/a1`, { headers: { cookie } })).text();
    const block = /<script type="application\/json" id="wayfinder-page">([^<]*)<\/script>/.exec(html);
    const csrf = JSON.parse(block?.[1] ?? '{}').csrfToken as string;
    expect(csrf).toMatch(/^[\w-]{32}$/);
    return { cookie, csrf };
  }

  beforeAll(async () => {
    const workingDir = mkdtempSync(join(tmpdir(), 'wf-csrf-'));
    const store = new FileKeyStore(keysFilePath(workingDir));
    const op = generateApiKey('acme');
    await store.add(op.record);
    operator = op.key;
    running = await startWithGateway({}, {}, { workingDir });
    base = running.gateway!.url;
    await call(base, 'POST', '/v1/tasks', { key: operator, body: REPORT_TASK });
    await call(base, 'POST', '/v1/steps', { key: operator, body: loopSteps('a1', 25) });
    await eventually(async () => ((await call(base, 'GET', '/v1/agents/a1/timeline', { key: operator })).body?.deviations ?? []).length > 0, 20_000, 'a deviation in the timeline of a1');
    deviationId = (await call(base, 'GET', '/v1/agents/a1/timeline', { key: operator })).body.deviations[0].deviationId;
    mine = await logIn(operator);
    other = await logIn(operator);
    expect(other.csrf).not.toBe(mine.csrf);
  });
  afterAll(async () => {
    await running?.stop();
  });

  // Door, method, path, body, the answer when allowed.
  const doors: Array<[string, string, string, () => unknown, number]> = [
    ['resume a frozen agent', 'POST', '/v1/agents/a1/resume', () => ({ reason: 'from the dashboard' }), 202],
    ['mark a false positive', 'POST', '/v1/deviations/:deviation/false-positive', () => undefined, 202],
    ['change the policy', 'PUT', '/v1/policy', () => ({ policy: { loop: { warning: 7 } } }), 200],
    ['post steps', 'POST', '/v1/steps', () => loopSteps('a2', 1), 202],
  ];
  const pathOf = (path: string) => path.replace(':deviation', deviationId);

  describe.each(doors)('%s (%s %s)', (_door, method, path, body, allowed) => {
    it('with the cookie and no token → 403 naming X-CSRF-Token', async () => {
      const answer = await call(base, method, pathOf(path), { headers: { cookie: mine.cookie }, body: body() });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ field: 'X-CSRF-Token' });
      expect(answer.body.error).toMatch(/CSRF token/);
    });

    it("with the cookie and another session's token → 403", async () => {
      const answer = await call(base, method, pathOf(path), { headers: { cookie: mine.cookie, 'x-csrf-token': other.csrf }, body: body() });
      expect(answer).toMatchObject({ status: 403, body: { field: 'X-CSRF-Token' } });
    });

    it("with the cookie and the session's own token → served", async () => {
      expect((await call(base, method, pathOf(path), { headers: { cookie: mine.cookie, 'x-csrf-token': mine.csrf }, body: body() })).status).toBe(allowed);
    });

    it('with a Bearer key and no token → served', async () => {
      expect((await call(base, method, pathOf(path), { key: operator, body: body() })).status).toBe(allowed);
    });
  });

  it('refuses a login form posted from another site (login CSRF), serves one from its own page', async () => {
    const post = (site: string) => fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ key: operator }), redirect: 'manual', headers: { 'sec-fetch-site': site } });
    for (const site of ['cross-site', 'same-site']) {
      const refused = await post(site);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(await refused.json()).toMatchObject({ field: 'Sec-Fetch-Site' });
    }
    expect((await post('same-origin')).status).toBe(303);
  });

  it('refused requests changed nothing; reads with the cookie need no token', async () => {
    const refused = await call(base, 'PUT', '/v1/policy', { headers: { cookie: mine.cookie }, body: { policy: { loop: { warning: 11 } } } });
    expect(refused.status).toBe(403);
    expect(running.policyBook.policyOf('acme', 'report', 'a1').loop.warning).toBe(7);
    expect((await call(base, 'GET', '/v1/policy', { headers: { cookie: mine.cookie } })).status).toBe(200);
  });
});
