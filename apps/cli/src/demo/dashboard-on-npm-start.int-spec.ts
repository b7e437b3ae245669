/**
 * Acceptance (#31): the console of a real `npm start` (a child process on a free port, its process group
 * stopped after), in Debian's Chromium driven by playwright-core. The fleet page lists the simulated
 * agents within 15 s and updates without a reload; a search narrows the list; a looping agent's page
 * shows the deviation on its step with the evidence its detector named and the correction after it; an
 * agent of one's own (connected as the start banner says) that calls a dangerous tool is frozen, and
 * resumed from its page shows as working; the policy editor refuses a bad value naming it; no page
 * logs a console error. Screenshots of each page go to a temporary folder (docs/dashboard-*.png with
 * WAYFINDER_UPDATE_SCREENSHOTS=1). One browser, one server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { screenshotPath } from './screenshots.testing';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = join(__dirname, '..', '..', '..', '..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Timeline {
  agent: { state: string };
  deviations: Array<{ detector: string; atSeq: number; evidence?: string }>;
  corrections: Array<{ correction: { action: string; atSeq: number; deviationIds: string[] } }>;
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 300))) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
  }
}

describe('the console of npm start in headless Chromium', () => {
  let browser: Browser | undefined;
  let child: ChildProcess | undefined;
  let stderr = '';

  afterAll(async () => {
    await browser?.close();
    if (child?.pid !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM'); // npm, its shell and wayfinder: the whole group
      const timer = setTimeout(() => child?.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  });

  it('lists and updates the fleet, searches, shows a loop and its correction, resumes a frozen agent, refuses a bad policy value', async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`);
    const port = await freePort();
    const env = { ...process.env };
    for (const name of ['WAYFINDER_API_KEYS', 'WAYFINDER_MODE', 'WAYFINDER_GATEWAY_HOST', 'WAYFINDER_GATEWAY_PORT']) delete env[name];
    child = spawn('npm', ['start', '--silent', '--', '--port', String(port)], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
    await until('the dashboard answered', 90_000, async () => {
      if (child!.exitCode !== null) throw new Error(`npm start exited with ${child!.exitCode}: ${stderr}`);
      return (await fetch(`${base}/`).then((r) => r.ok, () => false)) || undefined;
    });
    const answered = Date.now();
    // The banner says what to open and how to connect an agent.
    expect(stderr).toContain(`open the dashboard:  ${base}/`);
    expect(stderr).toMatch(new RegExp(`connect an agent: +curl -X POST ${base}/v1/steps `));

    const errors: string[] = [];
    const watch = (page: Page): Page => {
      page.on('console', (m) => void (m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`)));
      page.on('pageerror', (e) => errors.push(`${page.url()}: ${String(e)}`));
      return page;
    };
    const page = watch(await browser.newPage({ viewport: { width: 1280, height: 900 } }));
    await page.goto(base);
    await page.getByRole('heading', { name: /^Fleet of / }).waitFor();
    const rows = page.locator('table.agents tbody tr[data-agent]');
    await rows.nth(1).waitFor({ timeout: Math.max(1, 15_000 - (Date.now() - answered)) });

    // Live: the rows' times change while the page is not loaded again.
    // Counted by load events: the filters' history.replaceState is a same-document navigation, not a load.
    let navigations = 0;
    page.on('load', () => void navigations++);
    const seen = (await rows.locator('time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')))).join();
    await until('the agents table updated in place', 15_000, async () => ((await rows.locator('time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')))).join() !== seen ? true : undefined));
    expect(navigations).toBe(0);
    await page.screenshot({ path: screenshotPath('dashboard-fleet.png') });

    // A search narrows the list to the agent it names.
    const shown = await rows.count();
    expect(shown).toBeGreaterThan(1);
    const wanted = (await rows.last().getAttribute('data-agent'))!;
    await page.getByLabel('Search agents').fill(wanted);
    await until('the search narrowed the list', 10_000, async () => ((await rows.count()) === 1 && (await rows.first().getAttribute('data-agent')) === wanted ? true : undefined));
    expect(navigations).toBe(0);

    // A looping agent: a deviation with its evidence, and the correction that answered it.
    const tenants = ((await (await fetch(`${base}/v1/tenants`)).json()) as { tenants: string[] }).tenants;
    const looping = await until('a simulated agent with a deviation and a correction', 60_000, async () => {
      for (const t of tenants) {
        const { agents } = (await (await fetch(`${base}/v1/agents?tenantId=${t}&sort=deviations&limit=5`)).json()) as { agents: Array<{ agentId: string; corrections: number }> };
        for (const a of agents.filter((x) => x.corrections > 0)) {
          const timeline = (await (await fetch(`${base}/v1/agents/${a.agentId}/timeline?tenantId=${t}`)).json()) as Timeline;
          const correction = timeline.corrections[0]?.correction;
          const deviation = timeline.deviations.find((d) => d.atSeq <= (correction?.atSeq ?? -1));
          if (correction && deviation?.evidence) return { tenant: t, agentId: a.agentId, deviation, correction };
        }
      }
      return undefined;
    });
    await page.goto(`${base}/agents/${looping.agentId}?tenantId=${looping.tenant}`);
    const { deviation, correction } = looping;
    const flagged = page.locator(`#step-${deviation.atSeq}`).getByRole('note', { name: `Deviation ${deviation.detector} at step ${deviation.atSeq}` }).first();
    await flagged.waitFor();
    expect(await flagged.textContent()).toContain('Evidence:');
    expect(await flagged.locator('pre').first().textContent()).toBe(deviation.evidence);
    const answered2 = page.locator(`#step-${correction.atSeq}`).getByRole('note', { name: `Correction ${correction.action} at step ${correction.atSeq}` }).first();
    await answered2.waitFor();
    expect((await answered2.boundingBox())!.y).toBeGreaterThan((await flagged.boundingBox())!.y);
    await page.screenshot({ path: screenshotPath('dashboard-agent.png') });

    // An agent of one's own calls a dangerous tool: frozen at once, escalated, resumed from its page.
    const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/v1/tasks', { taskId: 'cleanup', goal: 'Find the stale rows -> archive them' })).status).toBe(201);
    expect((await post('/v1/steps', [{ agentId: 'my-agent', taskId: 'cleanup', seq: 0, kind: 'action', action: { tool: 'delete_all_rows', args: { table: 'orders' } } }])).status).toBe(202);
    await until('my-agent frozen', 20_000, async () => {
      const r = await fetch(`${base}/v1/agents/my-agent/timeline?tenantId=local`);
      return r.ok && ((await r.json()) as Timeline).agent.state === 'frozen' ? true : undefined;
    });
    await page.goto(`${base}/escalations`);
    await page.getByRole('button', { name: 'Resume my-agent' }).waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-escalations.png') });
    await page.getByRole('link', { name: 'my-agent' }).first().click();
    await page.getByRole('heading', { name: 'Agent my-agent' }).waitFor();
    expect(await page.locator('#agent-state').textContent()).toBe('frozen');
    await page.getByRole('button', { name: 'Resume my-agent' }).click();
    await page.locator('#agent-state').getByText('working', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Resume my-agent' }).count()).toBe(0);

    // The policy editor: a bad value is refused, named, and not applied.
    await page.goto(base);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Policy' }).click();
    // The nav opens a tenant with agents: now `local` too, which has my-agent.
    await page.getByRole('heading', { name: /^Policy of / }).waitFor();
    const tenant = (await page.getByRole('heading', { name: /^Policy of / }).textContent())!.replace(/^Policy of /, '');
    const before = (await (await fetch(`${base}/v1/policy?tenantId=${tenant}`)).json()) as { policy: { loop?: { warning?: number } } };
    await page.locator('details[data-section="loop"] > summary').click();
    const warning = page.getByLabel('loop.warning', { exact: true });
    await warning.fill('-3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText(/^Refused/).waitFor();
    expect(await alert.textContent()).toContain('loop.warning');
    expect(await warning.getAttribute('aria-invalid')).toBe('true');
    const after = (await (await fetch(`${base}/v1/policy?tenantId=${tenant}`)).json()) as typeof before;
    expect(after.policy.loop?.warning).toBe(before.policy.loop?.warning);
    await page.screenshot({ path: screenshotPath('dashboard-policy.png') });

    expect(errors).toEqual([]);
  });
});
