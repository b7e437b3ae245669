/**
 * The policy page: every setting's effective value (the tenant's policy laid over its profile), the
 * profile's value beside it and which ones differ, and an editor. Saving sends only the changed settings
 * as a JSON merge patch (`PATCH /v1/policy`), which the gateway checks like a PUT: a bad value comes back
 * as a 400 naming the field, shown on the page and on its input (policy.js).
 */
import { redactPolicySecrets, type PolicySettings, type ProfileName, type TenantPolicy } from '@wayfinder/contracts';
import { PROFILES, resolvePolicy } from '@wayfinder/detection';
import { DEFAULT_HISTORY_RETENTION, retentionOfTenant, type HistoryRetention } from '@wayfinder/history';
import { esc, page, q, time, type Viewer } from './dashboard-layout';

type Leaf = string | number | boolean | null | readonly unknown[];

/** The settings as `section.field` → value (arrays and nulls are leaves: shown, not edited). */
export function policyLeaves(value: unknown, prefix = ''): Array<[string, Leaf]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [[prefix, value as Leaf]];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => (v === undefined ? [] : policyLeaves(v, prefix ? `${prefix}.${k}` : k)));
}

function input(path: string, value: Leaf, operator: boolean): string {
  const id = `p-${path}`;
  const off = operator ? '' : ' disabled';
  if (typeof value === 'boolean') {
    return `<select id="${esc(id)}" name="${esc(path)}" data-kind="boolean" data-original="${value}"${off}><option${value ? ' selected' : ''}>true</option><option${value ? '' : ' selected'}>false</option></select>`;
  }
  if (typeof value === 'number' || typeof value === 'string') {
    const kind = typeof value;
    return `<input id="${esc(id)}" name="${esc(path)}" data-kind="${kind}" data-original="${esc(String(value))}" value="${esc(String(value))}"${kind === 'number' ? ' inputmode="decimal"' : ''} size="12"${off}>`;
  }
  return `<code>${esc(JSON.stringify(value))}</code>`;
}

/** Days, hours or minutes, as a person reads a retention. */
function duration(ms: number): string {
  const units: Array<[number, string]> = [[86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute']];
  const [size, name] = units.find(([u]) => ms >= u && ms % u === 0) ?? [1_000, 'second'];
  const n = Math.round(ms / size);
  return `${n} ${name}${n === 1 ? '' : 's'}`;
}

/**
 * The tenant's settings outside the detectors' overlay (the document's top level): its history retention,
 * with the operator's default and maximum beside it. Its input carries `data-root`: policy.js puts it at
 * the patch's top level, not under `policy`.
 */
function operationsSection(document: TenantPolicy | undefined, retention: HistoryRetention, operator: boolean): string {
  const asked = document?.historyRetentionMs;
  const effective = retentionOfTenant(retention, asked);
  const field = `<input id="p-historyRetentionMs" name="historyRetentionMs" data-kind="number" data-root data-original="${effective}" value="${effective}" inputmode="numeric" size="12"${operator ? '' : ' disabled'}>`;
  return `<details${asked !== undefined ? ' open' : ''} data-section="operations"><summary><strong>operations</strong> <span class="muted small">history retention</span></summary><div class="scroll"><table><thead><tr><th scope="col">setting</th><th scope="col">effective</th><th scope="col">default</th><th scope="col"><span class="muted">differs?</span></th></tr></thead><tbody>
<tr${asked !== undefined ? ' class="differs"' : ''}><th scope="row"><label for="p-historyRetentionMs"><code>historyRetentionMs</code></label></th><td>${field} <span class="muted small">${duration(effective)}</span></td><td><code>${retention.defaultMs}</code> <span class="muted small">${duration(retention.defaultMs)}; at most ${duration(retention.maxMs)} (the operator's WAYFINDER_HISTORY_RETENTION_MAX_MS)</span></td><td>${asked !== undefined && asked !== retention.defaultMs ? '<strong>differs</strong>' : ''}</td></tr></tbody></table></div></details>`;
}

export function policyPage(tenantId: string, document: TenantPolicy | undefined, defaultProfile: ProfileName, viewer: Viewer, retention: HistoryRetention = DEFAULT_HISTORY_RETENTION): string {
  const effective: PolicySettings = resolvePolicy(document?.policy, { profile: defaultProfile });
  const profile = effective.profile ?? defaultProfile;
  const base = new Map(policyLeaves({ ...PROFILES[profile], profile }));
  const leaves = policyLeaves(effective)
    .filter(([path]) => path !== 'profile')
    .map(([path, value]) => ({ path, value, from: base.get(path), differs: JSON.stringify(base.get(path)) !== JSON.stringify(value) }));
  const differing = leaves.filter((l) => l.differs);
  const row = ({ path, value, from, differs }: (typeof leaves)[number]) =>
    `<tr${differs ? ' class="differs"' : ''}><th scope="row"><label for="${esc(`p-${path}`)}"><code>${esc(path)}</code></label></th><td>${input(path, value, viewer.operator)}</td><td><code>${esc(from === undefined ? '–' : JSON.stringify(from))}</code></td><td>${differs ? '<strong>differs</strong>' : ''}</td></tr>`;
  const head = `<thead><tr><th scope="col">setting</th><th scope="col">effective</th><th scope="col">profile ${esc(profile)}</th><th scope="col"><span class="muted">differs?</span></th></tr></thead>`;
  // One collapsible table per section; the sections holding a setting that differs open.
  const sections = [...new Set(leaves.map((l) => l.path.split('.')[0]))]
    .map((section) => {
      const mine = leaves.filter((l) => l.path.split('.')[0] === section);
      const open = mine.some((l) => l.differs);
      return `<details${open ? ' open' : ''} data-section="${esc(section)}"><summary><strong>${esc(section)}</strong> <span class="muted small">${mine.length} setting(s)${open ? `, ${mine.filter((l) => l.differs).length} differ` : ''}</span></summary><div class="scroll"><table>${head}<tbody>${mine.map(row).join('')}</tbody></table></div></details>`;
    })
    .join('');
  const diffRows = differing.map((l) => `<tr><th scope="row"><a href="#${esc(`p-${l.path}`)}"><code>${esc(l.path)}</code></a></th><td><code>${esc(JSON.stringify(l.value))}</code></td><td><code>${esc(l.from === undefined ? '–' : JSON.stringify(l.from))}</code></td></tr>`).join('');
  const rest = document ? redactPolicySecrets(document) : undefined;
  const body = `<h1>Policy of ${esc(tenantId)}</h1>
<p class="muted">${document ? `Published ${time(document.ts, Date.now())}.` : 'No policy published: the built-in profile applies.'} Profile <strong>${esc(profile)}</strong>; ${differing.length} setting(s) differ from it.</p>
<section class="panel" aria-labelledby="differs-h"><h2 id="differs-h">What differs from the ${esc(profile)} profile</h2>${diffRows ? `<div class="scroll"><table><thead><tr><th scope="col">setting</th><th scope="col">this tenant</th><th scope="col">profile</th></tr></thead><tbody>${diffRows}</tbody></table></div>` : '<p class="muted">Nothing: the profile applies as it is.</p>'}</section>
<section class="panel" aria-labelledby="editor-h"><h2 id="editor-h">Settings</h2>
<form id="policy-form" aria-label="Policy editor"><p class="muted small">Effective values: the tenant's policy over the ${esc(profile)} profile. Only the settings you change are sent (a merge patch); the gateway checks them before they apply.</p>
${sections}${operationsSection(document, retention, viewer.operator)}<p id="policy-result" role="alert" aria-live="assertive"></p>
${viewer.operator ? '<p><button type="submit" class="primary">Save changes</button></p>' : '<p class="muted">A viewer key reads the policy; an operator changes it.</p>'}</form></section>
${rest ? `<section class="panel"><details><summary>The published document (secrets redacted)</summary><pre aria-label="Policy document">${esc(JSON.stringify(rest, null, 2))}</pre></details></section>` : ''}`;
  return page(`Policy of ${tenantId}`, body, viewer, 'policy', { name: 'policy', data: { query: q(tenantId, viewer.local) } });
}
