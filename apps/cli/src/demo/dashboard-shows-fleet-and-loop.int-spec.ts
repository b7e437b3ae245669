/**
 * The dashboard in a real browser (Debian's Chromium, headless, driven by playwright-core) against the
 * embedded pipeline fed by a simulated fleet of 50 agents: the fleet page lists the 50 agents within
 * 15 s; the page of an agent with an injected loop shows its deviation, the hint and what followed.
 * Screenshots go to a temporary folder (docs/dashboard-*.png with WAYFINDER_UPDATE_SCREENSHOTS=1).
 * Chromium missing fails loudly.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import type { RunningServices } from '@wayfinder/service-runtime';
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

  it('lists 50 agents within 15 s and shows a looping agent\'s deviation, hint and what followed', async () => {
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
      await page.getByRole('heading', { name: 'Wayfinder fleet' }).waitFor();
      // The live refresh fills the tables as the fleet's first steps are recorded.
      await page.waitForFunction("document.querySelectorAll('table.agents tbody tr').length >= 50", undefined, { timeout: 15_000 - (Date.now() - started) });
      expect(await page.locator('table.agents tbody tr').count()).toBe(50);
      expect(await page.getByRole('heading', { name: 'Tenant acme' }).count()).toBe(1);

      // Wait until agent 0's hint has an outcome, then open its page.
      const agentId = fleet.tasks()[0].agentIds?.[0] ?? (await services!.history.agents('acme')).map((a) => a.agentId).sort()[0];
      const deadline = Date.now() + 60_000;
      for (;;) {
        const timeline = await agentTimeline(services!.history, 'acme', agentId);
        if (timeline && timeline.corrections.some((c) => c.correction.action === 'hint' && c.outcome !== 'pending')) break;
        if (Date.now() > deadline) throw new Error(`agent ${agentId} got no decided hint: ${JSON.stringify(timeline?.corrections.map((c) => [c.correction.action, c.outcome]))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await page.screenshot({ path: screenshotPath('dashboard-fleet.png'), fullPage: false });
      await page.goto(`${served.url}/agents/${encodeURIComponent(agentId)}?tenantId=acme`);
      await page.getByRole('heading', { name: `Agent ${agentId}` }).waitFor();
      const deviations = page.getByRole('region', { name: 'Deviations' });
      expect(await deviations.getByText(/Deviation \w+/).count()).toBeGreaterThan(0);
      const corrections = page.getByRole('region', { name: 'Corrections and what followed' });
      await corrections.getByText(/hint at step \d+/).first().waitFor();
      expect(await corrections.getByText(/What followed: .+ — (recovered|ignored|frozen)/).count()).toBeGreaterThan(0);
      expect(await page.getByText('loop start', { exact: true }).count()).toBe(1);
      expect(await page.getByRole('img', { name: `Persistence curve of ${agentId}` }).count()).toBe(1);
      await page.screenshot({ path: screenshotPath('dashboard-agent.png'), fullPage: true });
    } finally {
      release();
      await run;
      await served?.close();
    }
  });
});
