/**
 * Acceptance (#13): the dashboard of a real `wayfinder start --simulate 50` child process (spawned on a
 * free port, killed after), in headless Chromium driven by playwright-core. The first tenant's fleet page
 * lists its 17 of the 50 agents within 15 s of the dashboard answering; the page of an agent whose injected loop got a hint
 * shows its deviation, the hint and what followed. One browser, one process. Screenshots go to a
 * temporary folder (docs/ with WAYFINDER_UPDATE_SCREENSHOTS=1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
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

interface TimelineAnswer {
  deviations: Array<{ detector: string }>;
  corrections: Array<{ correction: { action: string }; outcome: string }>;
}

describe('the dashboard of wayfinder start --simulate 50 in headless Chromium', () => {
  let browser: Browser | undefined;
  let child: ChildProcess | undefined;
  let stderr = '';

  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child!.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  });

  it('lists the first tenant\'s 17 of 50 agents within 15 s and shows a looping agent\'s deviation, hint and what followed', async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`);
    const port = await freePort();
    // No keys and loopback: local mode, the one local operator sees every simulated tenant.
    const env = { ...process.env };
    for (const name of ['WAYFINDER_API_KEYS', 'WAYFINDER_MODE', 'WAYFINDER_GATEWAY_HOST', 'WAYFINDER_GATEWAY_PORT']) delete env[name];
    child = spawn(process.execPath, [join(ROOT, 'bin', 'wayfinder.js'), 'start', '--simulate', '50', '--port', String(port)], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });

    // The CLI compiles from source on start: wait for the dashboard to answer, then the 15 s run.
    const startDeadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`wayfinder start --simulate exited with ${child.exitCode}: ${stderr}`);
      const up = await fetch(`${base}/`).then((r) => r.ok, () => false);
      if (up) break;
      if (Date.now() > startDeadline) throw new Error(`the dashboard did not answer within 90 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const answered = Date.now();
    expect(stderr).toContain(`dashboard at ${base}/`);

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(base);
    await page.getByRole('heading', { name: /^Fleet of / }).waitFor();
    // Agent i belongs to tenant i mod 3: the first tenant's page lists 17 of the 50 (25 a page).
    // A locator wait, not a string predicate: the dashboard's CSP forbids eval in the page.
    await page.locator('#page-info').getByText('1–17 of 17').waitFor({ timeout: Math.max(1, 15_000 - (Date.now() - answered)) });
    expect(await page.locator('table.agents tbody tr').count()).toBe(17);
    const tenants = await page.locator('select[name=tenantId] option').allTextContents();
    expect(tenants).toEqual(['acme', 'globex', 'initech']);

    // An agent whose injected loop raised a deviation and got a hint with a decided outcome (query API).
    let found: { tenant: string; agentId: string } | undefined;
    const deadline = Date.now() + 90_000;
    while (!found) {
      for (const tenant of tenants) {
        const agents = ((await (await fetch(`${base}/v1/agents?tenantId=${encodeURIComponent(tenant)}`)).json()) as { agents: Array<{ agentId: string; deviations: number }> }).agents;
        for (const agent of agents.filter((a) => a.deviations > 0)) {
          const timeline = (await (await fetch(`${base}/v1/agents/${encodeURIComponent(agent.agentId)}/timeline?tenantId=${encodeURIComponent(tenant)}`)).json()) as TimelineAnswer;
          if (timeline.deviations.length > 0 && timeline.corrections.some((c) => c.correction.action === 'hint' && c.outcome !== 'pending')) {
            found = { tenant, agentId: agent.agentId };
            break;
          }
        }
        if (found) break;
      }
      if (found) break;
      if (Date.now() > deadline) throw new Error('no simulated agent with a deviation and a decided hint within 90 s');
      await new Promise((r) => setTimeout(r, 500));
    }
    await page.screenshot({ path: screenshotPath('simulate-50-fleet.png'), fullPage: false });

    await page.goto(`${base}/agents/${encodeURIComponent(found.agentId)}?tenantId=${encodeURIComponent(found.tenant)}`);
    await page.getByRole('heading', { name: `Agent ${found.agentId}` }).waitFor();
    const deviations = page.getByRole('region', { name: 'Deviations' });
    expect(await deviations.getByText(/Deviation \w+/).count()).toBeGreaterThan(0);
    const corrections = page.getByRole('region', { name: 'Corrections and what followed' });
    await corrections.getByText(/hint at step \d+/).first().waitFor();
    expect(await corrections.getByText(/What followed: .+ — (recovered|ignored|frozen)/).count()).toBeGreaterThan(0);
    expect(await page.getByText('loop start', { exact: true }).count()).toBe(1);
    await page.screenshot({ path: screenshotPath('simulate-50-agent.png'), fullPage: true });
  });
});
