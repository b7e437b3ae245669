/**
 * The dashboard in a real browser (Debian's Chromium, headless, driven by playwright-core) against the
 * embedded pipeline fed by a simulated fleet of 50 agents: the fleet page lists acme's 17 of them within
 * 15 s; the page of an agent with an injected loop shows its deviation, the hint and what followed; a
 * tenant whose first agent comes after the page loaded joins the tenant filter on a refresh.
 * Screenshots go to a temporary folder (docs/dashboard-*.png with WAYFINDER_UPDATE_SCREENSHOTS=1).
 * Chromium missing fails loudly.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { loadConfig } from '@wayfinder/config';
import { startServices, type RunningServices } from '@wayfinder/service-runtime';
import { agentTimeline } from '@wayfinder/service-operations';
import { SimulatedFleet } from '@wayfinder/testing';
import { runFleetThroughPipeline } from './fleet-pipeline-run';
import { screenshotPath } from './screenshots.testing';

const CHROMIUM = '/usr/bin/chromium';

describe('the dashboard in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('lists acme\'s 17 of the 50 agents within 15 s and shows a looping agent\'s deviation, hint and what followed', async () => {
    // Agent 0 (tenant acme) falls into an identical-call loop and answers a hint.
    const fleet = new SimulatedFleet({ seed: 7, agents: 50, failures: 10, inject: [{ agent: 0, kind: 'same_call', respondsTo: 'hint' }] });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let served: { url: string; close: () => Promise<void> } | undefined;
    let services: RunningServices | undefined;
    const started = Date.now();
    const run = runFleetThroughPipeline(fleet, {
      rounds: 400,
      roundMs: 40,
      // Steps stamped now: the history keeps 7 days, and the fleet's own clock starts in January.
      startMs: Date.now(),
      onStarted: async (running) => {
        services = running;
        // The gateway serves the dashboard (local mode: loopback, no keys), as `wayfinder start --simulate` does.
        if (!running.gateway) throw new Error('the embedded pipeline started without its gateway');
        served = { url: running.gateway.url, close: async () => undefined };
      },
      beforeStop: () => released,
    });
    try {
      while (!served) await new Promise((r) => setTimeout(r, 20));
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      await page.goto(served.url);
      // The page of the first tenant with agents; agent i belongs to tenant i mod 3, so acme has 17 of the 50.
      await page.getByRole('heading', { name: /^Fleet of / }).waitFor();
      // The live refresh fills the table (25 a page) as the fleet's first steps are recorded.
      // A locator wait, not a string predicate: the dashboard's CSP forbids eval in the page.
      await page.locator('#page-info').getByText('1–17 of 17').waitFor({ timeout: 15_000 - (Date.now() - started) });
      expect(await page.locator('table.agents tbody tr').count()).toBe(17);
      expect(await page.getByRole('heading', { name: 'Fleet of acme' }).count()).toBe(1);
      expect(await page.locator('select[name=tenantId] option').allTextContents()).toEqual(['acme', 'globex', 'initech']);

      // Wait until agent 0's hint has an outcome, then open its page.
      const agentId = fleet.tasks()[0].agentIds?.[0] ?? (await services!.history.agents('acme')).map((a) => a.agentId).sort()[0];
      const deadline = Date.now() + 60_000;
      for (;;) {
        const timeline = await agentTimeline(services!.history, 'acme', agentId);
        if (timeline && timeline.corrections.some((c) => c.correction.action === 'hint' && c.outcome !== 'pending')) break;
        if (Date.now() > deadline) throw new Error(`agent ${agentId} got no decided hint: ${JSON.stringify(timeline?.corrections.map((c) => [c.correction.action, c.outcome]))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await page.screenshot({ path: screenshotPath('fleet-50-fleet.png'), fullPage: false });
      await page.goto(`${served.url}/agents/${encodeURIComponent(agentId)}?tenantId=acme`);
      await page.getByRole('heading', { name: `Agent ${agentId}` }).waitFor();
      const deviations = page.getByRole('region', { name: 'Deviations' });
      expect(await deviations.getByText(/Deviation \w+/).count()).toBeGreaterThan(0);
      const corrections = page.getByRole('region', { name: 'Corrections and what followed' });
      await corrections.getByText(/hint at step \d+/).first().waitFor();
      expect(await corrections.getByText(/What followed: .+ — (recovered|ignored|frozen)/).count()).toBeGreaterThan(0);
      expect(await page.getByText('loop start', { exact: true }).count()).toBe(1);
      expect(await page.getByRole('img', { name: `Persistence curve of ${agentId}` }).count()).toBe(1);
      await page.screenshot({ path: screenshotPath('fleet-50-agent.png'), fullPage: true });
    } finally {
      release();
      await run;
      await served?.close();
    }
  });

  it('offers a tenant whose first agent appears after the page loaded (the local operator reads every tenant)', async () => {
    const running = await startServices(loadConfig({}, { port: '0', host: '127.0.0.1' }), { logger: false });
    try {
      const base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
      const post = async (tenantId: string) => {
        // The task first: the localizer holds the steps of a task without a map (up to its hold timeout).
        const task = await fetch(`${base}/v1/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tenantId, taskId: 'report', goal: 'Read the sales data -> write the report' }) });
        expect(task.status).toBe(201);
        const steps = [0, 1].map((seq) => ({ tenantId, agentId: `${tenantId}-agent`, taskId: 'report', runId: 'r1', seq, kind: 'action', action: { tool: 'read_file', args: { path: `/data/${seq}.csv` } } }));
        const answer = await fetch(`${base}/v1/steps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(steps) });
        expect(answer.status).toBe(202);
        for (const deadline = Date.now() + 20_000; !(await running.history.tenants()).includes(tenantId); await new Promise((r) => setTimeout(r, 50))) {
          if (Date.now() > deadline) throw new Error(`${tenantId}'s steps never reached the history`);
        }
      };
      await post('early');
      const page = await browser.newPage();
      await page.goto(base);
      await page.getByRole('heading', { name: 'Fleet of early' }).waitFor();
      const options = page.locator('select[name=tenantId] option');
      expect(await options.allTextContents()).toEqual(['early']);
      await post('late');
      // The next fleet sample (every 2 s) re-reads the tenants: the new one joins the tenant filter; choosing it opens its fleet.
      await options.filter({ hasText: 'late' }).waitFor({ state: 'attached', timeout: 10_000 });
      await page.locator('select[name=tenantId]').selectOption('late');
      await page.getByRole('heading', { name: 'Fleet of late' }).waitFor();
      expect(await page.locator('table.agents tbody tr', { hasText: 'late-agent' }).count()).toBe(1);
    } finally {
      await running.stop();
    }
  });
});
