/**
 * Issue #29: the dashboard's pages run under a strict Content-Security-Policy (no inline script) and its
 * actions carry the session's CSRF token. In headless Chromium (Debian's, driven by playwright-core),
 * logged in with a key: the fleet page's live refresh draws an agent that arrives after the page loaded,
 * the agent page marks a false positive, the escalations page resumes the frozen agent, and no CSP
 * violation is reported on the way; logging out needs the CSRF token and ends the session; an inline script injected at the end is blocked, so the policy was on.
 * Chromium missing fails loudly.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RunningServices } from '../runtime';
import { call, eventually, loopSteps, REPORT_TASK, startWithGateway } from './gateway.testing';

const CHROMIUM = '/usr/bin/chromium';
const ACME = 'wf_acme_browser_key_0123456789';

/** Violations the page reports (securitypolicyviolation events) and CSP errors on its console. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(`console: ${message.text()}`);
  });
  await page.exposeFunction('reportViolation', (text: string) => void seen.push(text));
  // Runs in the page (a string: this project compiles without the DOM library).
  await page.addInitScript("document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(e.violatedDirective + ' ' + e.blockedURI))");
  return seen;
}

describe('the dashboard under its Content-Security-Policy in headless Chromium', () => {
  let browser: Browser;
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${ACME}` });
    base = running.gateway!.url;
    await call(base, 'POST', '/v1/tasks', { key: ACME, body: REPORT_TASK });
    await call(base, 'POST', '/v1/steps', { key: ACME, body: loopSteps('a1', 25) });
    await eventually(async () => ((await call(base, 'GET', '/v1/agents/a1/timeline', { key: ACME })).body?.deviations ?? []).length > 0, 20_000, 'a deviation of a1');
    await eventually(async () => ((await call(base, 'GET', '/v1/escalations?open=true', { key: ACME })).body?.escalations ?? []).length > 0, 20_000, 'the escalation of a1');
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('renders the live fleet, marks a false positive and resumes an agent with no CSP violation', async () => {
    const page = await browser.newPage();
    const violations = await watchViolations(page);

    await page.goto(`${base}/login`);
    await page.getByLabel('API key').fill(ACME);
    const fleet = page.waitForResponse((r) => new URL(r.url()).pathname === '/');
    await page.getByRole('button', { name: 'Log in' }).click();
    const headers = (await fleet).headers();
    expect(headers['content-security-policy']).toMatch(/script-src 'self';/);
    expect(headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    await page.getByRole('heading', { name: 'Fleet of acme' }).waitFor();

    // The live part: an agent that arrives after the page loaded appears through the 3 s refresh.
    await call(base, 'POST', '/v1/steps', { key: ACME, body: loopSteps('late-agent', 1) });
    await page.getByRole('link', { name: 'late-agent' }).waitFor({ timeout: 15_000 });

    // The agent page: "Mark as false positive" posts with the session's CSRF token.
    await page.goto(`${base}/agents/a1`);
    await page.getByRole('heading', { name: 'Agent a1' }).waitFor();
    await page.getByRole('button', { name: 'Mark as false positive' }).first().click();
    await page.getByText('— marked false positive').first().waitFor();
    expect(await page.getByText('could not mark it').count()).toBe(0);

    // The escalations page: "Resume" posts with the token too.
    await page.goto(`${base}/escalations`);
    await page.getByRole('button', { name: 'Resume a1' }).click();
    await page.getByText('resume requested').waitFor();
    await eventually(async () => (await running.history.agentHistory('acme', 'a1', { kinds: ['ack'] })).length > 0, 10_000, 'the resume ack');

    expect(violations).toEqual([]);

    // The policy is on: an inline script injected now does not run, and is reported.
    const ran = await page.evaluate(`(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return window.inlineRan === true;
    })()`);
    expect(ran).toBe(false);
    await eventually(async () => violations.length > 0, 5_000, 'the inline script reported as a violation');
    expect(violations.join('\n')).toMatch(/script-src/);

    // Log out: a POST that needs the session's CSRF token; then the session's cookie opens nothing.
    await page.goto(`${base}/`);
    const session = (await page.context().cookies()).find((c) => c.name === 'wf_session');
    expect(session).toBeDefined();
    const cookie = `wf_session=${session?.value}`;
    expect((await fetch(`${base}/logout`, { method: 'POST', headers: { cookie }, redirect: 'manual' })).status).toBe(403);
    expect((await fetch(`${base}/v1/agents`, { headers: { cookie } })).status).toBe(200);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in to Wayfinder' }).waitFor();
    expect((await fetch(`${base}/v1/agents`, { headers: { cookie } })).status).toBe(401);
  });
});
