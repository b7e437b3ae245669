/**
 * The dashboard's scripts, served as static files from `/dashboard/assets/<name>.js` (no CDN, no inline
 * script: the pages' Content-Security-Policy allows scripts from the gateway's own origin only). Each
 * reads its page's parameters (the `?tenantId=` query, the session's CSRF token…) from the JSON block
 * `<script type="application/json" id="wayfinder-page">` that the page renders (pageData), never from
 * JavaScript built out of strings. State-changing requests send the CSRF token in `X-CSRF-Token`.
 */

/** Reads the page's JSON block; `headers` carries the CSRF token when the page has one. */
const PAGE = `const page=JSON.parse(document.getElementById('wayfinder-page').textContent||'{}');
const csrf=page.csrfToken?{'x-csrf-token':page.csrfToken}:{};
const query=typeof page.query==='string'?page.query:'';`;

/** Fleet: every 2 s, re-read the same query API a script would and redraw the agent tables. */
const FLEET = `'use strict';(()=>{${PAGE}
const local=page.local===true;const esc=s=>String(s??'').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
async function refresh(){for(const s of document.querySelectorAll('section[data-tenant]')){const t=s.dataset.tenant;const qs=local?'?tenantId='+encodeURIComponent(t):'';
const r=await fetch('/v1/agents'+qs,{credentials:'same-origin'});if(!r.ok)continue;const {agents}=await r.json();
s.querySelector('table.agents tbody').innerHTML=agents.map(a=>'<tr><td><a href="/agents/'+encodeURIComponent(a.agentId)+qs+'">'+esc(a.agentId)+'</a></td><td>'+esc(a.taskId)+'</td><td class="state-'+esc(a.state)+'">'+esc(a.state)+'</td><td>'+esc(a.deviations)+'</td><td>'+esc(a.corrections)+'</td><td><time>'+esc(a.lastSeen)+'</time></td></tr>').join('');
const f=await (await fetch('/v1/fleet'+qs,{credentials:'same-origin'})).json();for(const [st,n] of Object.entries(f.states)){const c=s.querySelector('[data-state="'+CSS.escape(st)+'"]');if(c)c.textContent=n;}}}
async function newTenant(){if(page.everyTenant!==true)return false;const r=await fetch('/v1/tenants',{credentials:'same-origin'});if(!r.ok)return false;const shown=new Set([...document.querySelectorAll('section[data-tenant]')].map(s=>s.dataset.tenant));return (await r.json()).tenants.some(t=>!shown.has(t));}
setInterval(()=>newTenant().then(n=>n?location.reload():refresh()).catch(()=>{}),2000);
if(!document.querySelector('section[data-tenant]'))setTimeout(()=>location.reload(),1000);})();
`;

/** Agent: "Mark as false positive" (POST /v1/deviations/{id}/false-positive). */
const AGENT = `'use strict';(()=>{${PAGE}
for(const b of document.querySelectorAll('[data-false-positive]'))b.addEventListener('click',async()=>{const r=await fetch('/v1/deviations/'+encodeURIComponent(b.dataset.falsePositive)+'/false-positive'+query,{method:'POST',credentials:'same-origin',headers:csrf});b.replaceWith(r.ok?' — marked false positive':' — could not mark it ('+r.status+')');});})();
`;

/** Escalations: "Resume" is the gateway's route (POST /v1/agents/{id}/resume): the correction engine unfreezes the agent. */
const ESCALATIONS = `'use strict';(()=>{${PAGE}
for(const b of document.querySelectorAll('[data-resume]'))b.addEventListener('click',async()=>{const r=await fetch('/v1/agents/'+encodeURIComponent(b.dataset.resume)+'/resume'+query,{method:'POST',credentials:'same-origin',headers:{...csrf,'content-type':'application/json'},body:'{"reason":"resumed from the dashboard"}'});b.replaceWith(r.ok?'resume requested':'resume failed ('+r.status+')');});})();
`;

export const DASHBOARD_SCRIPTS: Readonly<Record<string, string>> = { 'fleet.js': FLEET, 'agent.js': AGENT, 'escalations.js': ESCALATIONS };

export type DashboardScript = 'fleet' | 'agent' | 'escalations';

export const DASHBOARD_ASSETS_PATH = '/dashboard/assets';
