/**
 * What every dashboard page shares: the frame (top bar with the nav, the tenant and a logout button),
 * escaping, human times, and the security headers. No inline script or style: a page links the one
 * stylesheet and loads its script from `/dashboard/assets/` (dashboard-assets.ts), handing it its
 * parameters as a JSON block (pageData).
 */
import { DASHBOARD_ASSETS_PATH, type DashboardScript } from './dashboard-assets';

export function esc(text: unknown): string {
  return String(text ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The parameters a page hands its script (read by dashboard-assets.ts). */
export interface PageData {
  /** `?tenantId=T` for the local operator, else empty: appended to the API paths the script calls. */
  query?: string;
  local?: boolean;
  /** The tenant the page shows (the fleet page's tenant filter). */
  tenantId?: string;
  /** The session's CSRF token, sent back in `X-CSRF-Token` by state-changing requests. */
  csrfToken?: string;
  /** Fleet: the query the agents table shows (search, filters, sort) and its page size. */
  filters?: Record<string, string>;
  limit?: number;
  /** Fleet: the counts by state when the page was rendered (the first point of the state chart). */
  states?: Record<string, number>;
  /** Agent: its id, for the resume button. */
  agentId?: string;
}

/**
 * The headers of every dashboard page: scripts and styles from the gateway's own origin only (no inline
 * script or style, no eval), no framing, no `<base>`, forms posting only to the gateway; no MIME
 * sniffing, no Referer leaving the page (its URL may carry `?tenantId=`).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/**
 * A page's parameters as the text of a `<script type="application/json">` block: JSON with `<` escaped,
 * so no `</script>` (or `<!--`) in a datum can end the block; the script reads it with JSON.parse, so a
 * tenant id holding `'` or `"` stays data.
 */
export function pageData(value: PageData): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function q(tenantId: string, local: boolean): string {
  return local ? `?tenantId=${encodeURIComponent(tenantId)}` : '';
}

/** "3 s ago", "4 min ago", "2 h ago", "5 d ago" (the page's script keeps them current). */
export function ago(iso: string, nowMs: number): string {
  const s = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  if (!Number.isFinite(s)) return '';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

export function time(iso: string, nowMs: number): string {
  return `<time datetime="${esc(iso)}" title="${esc(iso)}">${ago(iso, nowMs)}</time>`;
}

export function stateBadge(state: string): string {
  return `<span class="badge state-${esc(state)}">${esc(state)}</span>`;
}

/** Who is looking: the nav's tenant, whether local (links carry `?tenantId=`), and the session's token. */
export interface Viewer {
  /** The tenant the nav's links open (local mode: one that has agents). */
  readonly tenantId: string;
  readonly local: boolean;
  readonly operator: boolean;
  /** Present when a session cookie authenticated the page: the logout button needs it. */
  readonly csrfToken?: string;
}

export type NavPage = 'fleet' | 'escalations' | 'policy' | 'keys' | 'none';

export function page(title: string, body: string, viewer: Viewer | undefined, current: NavPage, script?: { name: DashboardScript; data: PageData }): string {
  const data = script ? { ...script.data, ...(viewer?.csrfToken !== undefined && { csrfToken: viewer.csrfToken }) } : undefined;
  const tail = script ? `<script type="application/json" id="wayfinder-page">${pageData(data ?? {})}</script><script src="${DASHBOARD_ASSETS_PATH}/${script.name}.js"></script>` : '';
  const link = (path: string, label: string, name: NavPage, tenantQuery = true) =>
    `<a href="${path}${tenantQuery && viewer ? q(viewer.tenantId, viewer.local) : ''}"${current === name ? ' aria-current="page"' : ''}>${label}</a>`;
  const nav = viewer
    ? `<nav aria-label="Dashboard">${link('/', 'Fleet', 'fleet')}${link('/escalations', 'Escalations', 'escalations', false)}${link('/policy', 'Policy', 'policy')}${viewer.operator ? link('/keys', 'Keys', 'keys') : ''}</nav>
<span class="who">${viewer.local ? 'local mode' : `tenant ${esc(viewer.tenantId)}${viewer.operator ? '' : ' (viewer)'}`}</span>${viewer.csrfToken !== undefined ? '<button type="button" data-logout>Log out</button>' : ''}`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · Wayfinder</title><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><link rel="stylesheet" href="${DASHBOARD_ASSETS_PATH}/wayfinder.css"></head>
<body><header class="top"><a class="brand" href="/">Wayfinder</a>${nav}</header><main>${body}</main>${tail}</body></html>`;
}
