/**
 * Issue #31, the live console and the keys page, in Debian's Chromium (playwright-core), logged in with
 * an operator key: the fleet page follows `/v1/fleet/events` (an EventSource request), its "agents by
 * state over time" chart gains a point per sample, and an agent that arrives after the page loaded shows
 * in the table and the counts with no reload; the agent page follows the stream too. The keys page
 * creates a viewer key (shown once), lists it and revokes it (the key then stops at the gateway); a
 * viewer's session has no Keys link and gets the reason on /keys. No console error on the operator's
 * pages. Screenshot: docs/dashboard-keys.png with WAYFINDER_UPDATE_SCREENSHOTS=1.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadConfig } from '@wayfinder/config';
import { startServices, type RunningServices } from '@wayfinder/service-runtime';
import { screenshotPath } from './screenshots.testing';

const CHROMIUM = '/usr/bin/chromium';
const KEY = 'wf_acme_live_console_key_0123456789';

function loopSteps(agentId: string): Array<Record<string, unknown>> {
  return Array.from({ length: 25 }, (_, i) => [
    { agentId, taskId: 'report', runId: 'r1', seq: 2 * i, kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: `c${i}` } },
    { agentId, taskId: 'report', runId: 'r1', seq: 2 * i + 1, kind: 'observation', observation: { tool: 'read_file', callId: `c${i}`, ok: false, error: 'EACCES: permission denied' } },
  ]).flat();
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 200))) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
  }
}

describe('the live fleet and the keys page in headless Chromium', () => {
  let browser: Browser;
  let running: RunningServices;
  let base: string;
  const api = (method: string, path: string, body?: unknown, key = KEY) =>
    fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, ...(body !== undefined && { body: JSON.stringify(body) }) });

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
    running = await startServices({ ...loadConfig({ WAYFINDER_GATEWAY_PORT: '0', WAYFINDER_API_KEYS: `acme:${KEY}` }), workingDir: mkdtempSync(join(tmpdir(), 'wf-live-console-')) }, { logger: false });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect((await api('POST', '/v1/tasks', { taskId: 'report', goal: 'Read the sales data -> compute the totals -> write the report' })).status).toBe(201);
    expect((await api('POST', '/v1/steps', loopSteps('first'))).status).toBe(202);
    await until('the first agent in the history', 20_000, async () => ((await (await api('GET', '/v1/agents')).json()) as { total: number }).total === 1 || undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  async function logIn(key: string): Promise<{ page: Page; errors: string[]; streams: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    const streams: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`)));
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${String(e)}`));
    page.on('request', (r) => void (r.resourceType() === 'eventsource' && streams.push(new URL(r.url()).pathname)));
    await page.goto(`${base}/login`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Fleet of acme' }).waitFor();
    return { page, errors, streams };
  }

  it('follows the fleet stream: the chart gains points, a new agent shows without a reload', async () => {
    const { page, errors, streams } = await logIn(KEY);
    let loads = 0;
    page.on('load', () => void loads++);
    const chart = page.locator('#state-chart');
    await until('three samples on the chart', 15_000, async () => (Number(await chart.getAttribute('data-samples')) >= 3 ? true : undefined));
    expect(streams).toContain('/v1/fleet/events');
    expect(await chart.locator('polyline').count()).toBeGreaterThan(0);
    expect(await chart.getAttribute('aria-label')).toMatch(/agents by state over time, now: .*\d/);

    const rows = page.locator('table.agents tbody tr[data-agent]');
    expect(await rows.count()).toBe(1);
    expect((await api('POST', '/v1/steps', loopSteps('arrives-later'))).status).toBe(202);
    await page.locator('tr[data-agent="arrives-later"]').waitFor({ timeout: 15_000 });
    await until('the counts summing to two agents', 10_000, async () => {
      const counts = await page.locator('[data-state]').allTextContents();
      return counts.reduce((sum, n) => sum + Number(n), 0) === 2 ? true : undefined;
    });
    expect(loads).toBe(0);

    // The agent page follows the stream too.
    await page.getByRole('link', { name: 'arrives-later' }).first().click();
    await page.getByRole('heading', { name: 'Agent arrives-later' }).waitFor();
    await until('the agent page’s stream', 5_000, async () => (streams.filter((s) => s === '/v1/fleet/events').length >= 2 ? true : undefined));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('creates a viewer key shown once, lists it, revokes it; a viewer gets no keys page', async () => {
    const { page, errors } = await logIn(KEY);
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('heading', { name: 'API keys of acme' }).waitFor();
    await page.getByText('No stored key.').waitFor();

    await page.getByLabel('Role').selectOption('viewer');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = (await page.locator('output.new-key').textContent()) ?? '';
    expect(shown).toMatch(/^wf_acme_/);
    const row = page.locator('table.keys tbody tr[data-key]');
    await row.first().waitFor();
    const keyId = (await row.first().getAttribute('data-key')) ?? '';
    expect(await row.first().textContent()).toContain('viewer');
    expect(await row.first().textContent()).toContain('active');
    // The list never holds the key itself.
    expect(await page.locator('table.keys').textContent()).not.toContain(shown);
    await page.screenshot({ path: screenshotPath('dashboard-keys.png'), fullPage: true });

    // The viewer key reads, has no Keys link, and /keys tells why.
    expect((await api('GET', '/v1/fleet', undefined, shown)).status).toBe(200);
    const viewer = await logIn(shown);
    expect(await viewer.page.getByRole('link', { name: 'Keys' }).count()).toBe(0);
    await viewer.page.goto(`${base}/keys`);
    await viewer.page.getByText('this session has the viewer role').waitFor();
    await viewer.page.close();

    await page.getByRole('button', { name: `Revoke ${keyId}` }).click();
    await page.getByText(`Revoked ${keyId}.`).waitFor();
    await until('the row shown revoked', 5_000, async () => ((await page.locator(`tr[data-key="${keyId}"]`).textContent())?.includes('revoked') ? true : undefined));
    expect((await api('GET', '/v1/fleet', undefined, shown)).status).toBe(401);
    expect(errors).toEqual([]);
    await page.close();
  });
});
