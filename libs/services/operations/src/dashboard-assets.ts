/**
 * The dashboard's static files, served from `/dashboard/assets/<name>` (no CDN, no inline script or
 * style: the pages' Content-Security-Policy allows both from the gateway's own origin only): one
 * stylesheet (dashboard-style.ts) and a small script per page. Each script reads its page's parameters
 * (the `?tenantId=` query, the session's CSRF token…) from the JSON block
 * `<script type="application/json" id="wayfinder-page">` (pageData), never from JavaScript built out of
 * strings. State-changing requests send the CSRF token in `X-CSRF-Token`. Every script keeps the pages'
 * times human ("3 s ago") and wires the nav's logout button.
 */
import { DASHBOARD_CSS } from './dashboard-style';

/** What every page script starts with: its data, escaping, human times, logout. */
const PRELUDE = `const page=JSON.parse(document.getElementById('wayfinder-page').textContent||'{}');
const csrf=page.csrfToken?{'x-csrf-token':page.csrfToken}:{};
const query=typeof page.query==='string'?page.query:'';
const esc=s=>String(s??'').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
const ago=iso=>{const s=Math.max(0,Math.round((Date.now()-Date.parse(iso))/1000));return s<60?s+' s ago':s<3600?Math.floor(s/60)+' min ago':s<86400?Math.floor(s/3600)+' h ago':Math.floor(s/86400)+' d ago';};
const timeEl=iso=>'<time datetime="'+esc(iso)+'" title="'+esc(iso)+'">'+ago(iso)+'</time>';
const badge=s=>'<span class="badge state-'+esc(s)+'">'+esc(s)+'</span>';
const tick=()=>{for(const t of document.querySelectorAll('time[datetime]'))t.textContent=ago(t.getAttribute('datetime'));};
setInterval(tick,5000);
const out=document.querySelector('[data-logout]');
if(out)out.addEventListener('click',async()=>{const r=await fetch('/logout',{method:'POST',credentials:'same-origin',headers:csrf});if(r.ok||r.redirected)location.assign('/login');});
const getJson=async url=>{const r=await fetch(url,{credentials:'same-origin'});if(!r.ok)throw new Error(url+': '+r.status);return r.json();};`;

/**
 * Fleet: the filter form drives the agents table without a reload (search as one types, filters and sort
 * on change, pages by the API's cursor). The page follows `/v1/fleet/events`: each `fleet` sample updates
 * the counts and the "agents by state over time" chart, and when the fleet changed (or every fifth
 * sample, for the last-seen times) the table, the "needs a person" list and the per-minute rates are
 * re-read from `/v1/agents` and `/v1/fleet`, and (local mode) a tenant that appeared joins the tenant
 * filter. A refused stream (429 past the stream caps) falls back to re-reading every 3 s and tries the
 * stream again later. Another tenant is another page.
 */
const FLEET = `'use strict';(()=>{${PRELUDE}
const form=document.querySelector('form.filters');const tbody=document.querySelector('table.agents tbody');
const info=document.getElementById('page-info');const next=document.querySelector('[data-page=next]');const first=document.querySelector('[data-page=first]');
const tq=t=>page.local?'?tenantId='+encodeURIComponent(t):'';
let cursor=null;let nextCursor=null;let offset=0;let shown=0;const trail=[];let timer;
const row=a=>'<tr data-agent="'+esc(a.agentId)+'"><td><a href="/agents/'+encodeURIComponent(a.agentId)+tq(a.tenantId)+'">'+esc(a.agentId)+'</a></td><td>'+esc(a.taskId)+'</td><td>'+badge(a.state)+'</td><td class="wide small">'+esc((a.detectors||[]).join(', '))+'</td><td class="num">'+a.deviations+'</td><td class="num">'+a.corrections+'</td><td>'+timeEl(a.lastSeen)+'</td></tr>';
function filters(){const p=new URLSearchParams();for(const [k,v] of new FormData(form))if(k!=='tenantId'&&v)p.set(k,String(v));return p;}
async function agents(){const p=filters();p.set('limit',String(page.limit||25));if(cursor)p.set('cursor',cursor);if(page.local)p.set('tenantId',page.tenantId);
const a=await getJson('/v1/agents?'+p);nextCursor=a.nextCursor;shown=a.agents.length;
tbody.innerHTML=a.agents.map(row).join('')||'<tr><td colspan="7" class="muted">No agent matches.</td></tr>';
info.textContent=a.total===0?'none':(offset+1)+'–'+(offset+a.agents.length)+' of '+a.total;next.disabled=!nextCursor;first.disabled=offset===0;}
const bars=(d,c)=>{const m=Math.max(1,...d,...c);return '<svg class="rate" role="img" aria-label="per minute" width="'+d.length*12+'" height="30" viewBox="0 0 '+d.length*12+' 30">'+d.map((x,i)=>{const hd=Math.round(x/m*28);const hc=Math.round(c[i]/m*28);return '<rect class="d" x="'+i*12+'" y="'+(30-hd)+'" width="5" height="'+hd+'"/><rect class="c" x="'+(i*12+5)+'" y="'+(30-hc)+'" width="5" height="'+hc+'"/>';}).join('')+'</svg>';};
const sum=xs=>xs.reduce((a,b)=>a+b,0);
async function fleet(){const f=await getJson('/v1/fleet'+query);if(polling)addSample({ts:new Date().toISOString(),states:f.states});for(const [st,n] of Object.entries(f.states)){const c=document.querySelector('[data-state="'+CSS.escape(st)+'"]');if(c)c.textContent=n;}
const s=document.getElementById('fleet-summary');if(s&&s.firstChild)s.firstChild.textContent=f.agents+' agents, '+f.openEscalations+' frozen waiting for a person. ';
const rates=document.querySelector('#rates tbody');if(rates)rates.innerHTML=f.perMinute.detectors.map(r=>'<tr><th scope="row">'+esc(r.detector)+'</th><td class="num">'+sum(r.deviations)+'</td><td class="num">'+sum(r.corrections)+'</td><td>'+bars(r.deviations,r.corrections)+'</td></tr>').join('')||'<tr><td colspan="4" class="muted">No deviation in the last minutes.</td></tr>';
const p=new URLSearchParams({sort:'attention',limit:'8'});if(page.local)p.set('tenantId',page.tenantId);const a=await getJson('/v1/agents?'+p);
const need=a.agents.filter(x=>x.state==='frozen'||x.state==='looping');
document.getElementById('attention').innerHTML=need.map(x=>'<li>'+badge(x.state)+' <a href="/agents/'+encodeURIComponent(x.agentId)+tq(x.tenantId)+'">'+esc(x.agentId)+'</a> <span class="muted small">'+esc(x.taskId)+' · '+timeEl(x.lastSeen)+(x.loopStartSeq!==null?' · loop from step '+x.loopStartSeq:'')+'</span></li>').join('')||'<li class="muted">Nobody needs a person now.</li>';}
async function tenants(){const sel=form.querySelector('select[name=tenantId]');if(!sel)return;const t=await getJson('/v1/tenants');const have=new Set([...sel.options].map(o=>o.value));
for(const id of t.tenants)if(!have.has(id))sel.add(new Option(id,id));}
const refresh=()=>Promise.all([agents(),fleet(),tenants()]).catch(()=>{});
function restart(){cursor=null;offset=0;trail.length=0;history.replaceState(null,'','/?'+(page.local?'tenantId='+encodeURIComponent(page.tenantId)+'&':'')+filters());agents().catch(()=>{});}
form.addEventListener('submit',e=>{e.preventDefault();restart();});
form.addEventListener('input',e=>{if(e.target.name==='tenantId')return;clearTimeout(timer);timer=setTimeout(restart,250);});
form.addEventListener('change',e=>{if(e.target.name==='tenantId'){location.assign('/?tenantId='+encodeURIComponent(e.target.value));return;}clearTimeout(timer);restart();});
next.addEventListener('click',()=>{if(!nextCursor)return;trail.push(cursor);cursor=nextCursor;offset+=shown;agents().catch(()=>{});});
first.addEventListener('click',()=>{cursor=null;offset=0;trail.length=0;agents().catch(()=>{});});
const chart=document.getElementById('state-chart');const live=document.getElementById('live-status');
const samples=page.states?[{ts:new Date().toISOString(),states:page.states}]:[];let polling=0;let changed=false;let seen='';let quiet=0;
function draw(){if(!chart||samples.length===0)return;const now=samples[samples.length-1].states;const keys=Object.keys(now);
const max=Math.max(1,...samples.flatMap(s=>keys.map(k=>s.states[k]||0)));const n=Math.max(2,samples.length);
chart.innerHTML=keys.map(k=>'<polyline class="state-'+esc(k)+'" data-series="'+esc(k)+'" points="'+samples.map((s,i)=>(i*600/(n-1)).toFixed(1)+','+(116-(s.states[k]||0)/max*112).toFixed(1)).join(' ')+'"/>').join('');
chart.dataset.samples=String(samples.length);chart.setAttribute('aria-label','agents by state over time, now: '+keys.map(k=>k+' '+(now[k]||0)).join(', '));}
function addSample(f){samples.push(f);if(samples.length>300)samples.shift();draw();}
function onSample(f){addSample(f);for(const [st,n] of Object.entries(f.states)){const c=document.querySelector('[data-state="'+CSS.escape(st)+'"]');if(c)c.textContent=n;}
const now=JSON.stringify([f.agents,f.states,f.openEscalations]);if(changed||now!==seen||++quiet>=5){seen=now;changed=false;quiet=0;refresh();}else tenants().catch(()=>{});}
function follow(){const es=new EventSource('/v1/fleet/events'+query);
es.addEventListener('open',()=>{if(live)live.textContent='Live.';if(polling){clearInterval(polling);polling=0;}});
es.addEventListener('fleet',e=>onSample(JSON.parse(e.data)));
es.addEventListener('record',()=>{changed=true;});
es.addEventListener('error',()=>{if(es.readyState!==EventSource.CLOSED){if(live)live.textContent='Reconnecting…';return;}
if(live)live.textContent='Live stream refused: re-reading every 3 s.';if(!polling)polling=setInterval(refresh,3000);setTimeout(follow,15000);});}
draw();follow();})();
`;

/**
 * Agent: Resume (POST /v1/agents/{id}/resume) on a frozen agent, then its state re-read until it is no
 * longer frozen; "Mark as false positive" (POST /v1/deviations/{id}/false-positive). It follows
 * `/v1/fleet/events`: at each fleet sample, and at once on a record of this agent, its state badge is
 * re-read and new steps are announced (re-read every 3 s when the stream is refused).
 */
const AGENT = `'use strict';(()=>{${PRELUDE}
const base='/v1/agents/'+encodeURIComponent(page.agentId||'')+'/timeline'+query;const status=document.getElementById('resume-status');const stateEl=document.getElementById('agent-state');
let steps=document.querySelectorAll('ol.timeline>li').length;
async function poll(){const t=await getJson(base);if(stateEl)stateEl.innerHTML=badge(t.agent.state);
if(t.agent.state!=='frozen'){const b=document.querySelector('[data-resume]');if(b)b.remove();}
if(t.steps.length>steps&&status&&!status.dataset.busy)status.innerHTML=(t.steps.length-steps)+' new step(s): <a href="">reload</a>';}
for(const b of document.querySelectorAll('[data-resume]'))b.addEventListener('click',async()=>{b.disabled=true;status.dataset.busy='1';
const r=await fetch('/v1/agents/'+encodeURIComponent(b.dataset.resume)+'/resume'+query,{method:'POST',credentials:'same-origin',headers:{...csrf,'content-type':'application/json'},body:'{"reason":"resumed from the dashboard"}'});
status.textContent=r.ok?'Resume requested.':'Resume failed ('+r.status+').';if(!r.ok){b.disabled=false;return;}
for(let i=0;i<20;i++){await new Promise(res=>setTimeout(res,500));const t=await getJson(base).catch(()=>undefined);if(t&&t.agent.state!=='frozen'){stateEl.innerHTML=badge(t.agent.state);b.remove();status.textContent='Resumed.';delete status.dataset.busy;return;}}});
for(const b of document.querySelectorAll('[data-false-positive]'))b.addEventListener('click',async()=>{const r=await fetch('/v1/deviations/'+encodeURIComponent(b.dataset.falsePositive)+'/false-positive'+query,{method:'POST',credentials:'same-origin',headers:csrf});b.replaceWith(r.ok?' — marked false positive':' — could not mark it ('+r.status+')');});
let polling=0;const follow=()=>{const es=new EventSource('/v1/fleet/events'+query);
es.addEventListener('open',()=>{if(polling){clearInterval(polling);polling=0;}});
es.addEventListener('fleet',()=>poll().catch(()=>{}));
es.addEventListener('record',e=>{if(JSON.parse(e.data).agentId===page.agentId)poll().catch(()=>{});});
es.addEventListener('error',()=>{if(es.readyState!==EventSource.CLOSED)return;if(!polling)polling=setInterval(()=>poll().catch(()=>{}),3000);setTimeout(follow,15000);});};
follow();})();
`;

/** Escalations: "Resume" is the gateway's route (POST /v1/agents/{id}/resume) for the row's tenant. */
const ESCALATIONS = `'use strict';(()=>{${PRELUDE}
for(const b of document.querySelectorAll('[data-resume]'))b.addEventListener('click',async()=>{const qs=page.local?'?tenantId='+encodeURIComponent(b.dataset.tenant):'';const r=await fetch('/v1/agents/'+encodeURIComponent(b.dataset.resume)+'/resume'+qs,{method:'POST',credentials:'same-origin',headers:{...csrf,'content-type':'application/json'},body:'{"reason":"resumed from the dashboard"}'});b.replaceWith(r.ok?'resume requested':'resume failed ('+r.status+')');});})();
`;

/**
 * Policy: checks the changed settings as a merge patch (POST /v1/policy/check, which answers 200 naming
 * a bad field), then saves them (PATCH /v1/policy); the detectors' settings go under `policy`, an input
 * marked `data-root` (the history retention) at the document's top level; a refusal is shown in the alert and on the input
 * (aria-invalid). Numbers are sent as numbers when they read as one, else
 * as typed, so the gateway (not the page) decides what is valid.
 */
const POLICY = `'use strict';(()=>{${PRELUDE}
const form=document.getElementById('policy-form');const result=document.getElementById('policy-result');
form.addEventListener('submit',async e=>{e.preventDefault();const patch={};const root={};let n=0;
for(const el of form.querySelectorAll('[data-kind]')){el.removeAttribute('aria-invalid');if(el.value===el.dataset.original)continue;
const v=el.dataset.kind==='number'&&el.value.trim()!==''&&!isNaN(Number(el.value))?Number(el.value):el.dataset.kind==='boolean'?el.value==='true':el.value;
const path=el.name.split('.');let at=el.hasAttribute('data-root')?root:patch;for(const k of path.slice(0,-1))at=at[k]=at[k]||{};at[path[path.length-1]]=v;n++;}
if(n===0){result.className='muted';result.textContent='Nothing changed.';return;}
const send=(path,method)=>fetch(path+query,{method,credentials:'same-origin',headers:{...csrf,'content-type':'application/merge-patch+json'},body:JSON.stringify({...root,policy:patch})});
const checked=await send('/v1/policy/check','POST');let body=await checked.json().catch(()=>({}));
if(checked.ok&&body.ok===true){const r=await send('/v1/policy','PATCH');body=await r.json().catch(()=>({}));
if(r.ok){result.className='ok';result.textContent='Saved '+n+' setting(s).';setTimeout(()=>location.reload(),800);return;}}
const field=typeof body.field==='string'?body.field:'';result.className='error';result.textContent='Refused'+(field?' — '+field:'')+': '+(body.error||checked.status);
const el=form.querySelector('[name="'+CSS.escape(field.replace(/^policy\\./,''))+'"]');if(el){el.setAttribute('aria-invalid','true');el.focus();}});})();
`;

/**
 * Keys (operators): the tenant's keys from GET /v1/keys; "Create key" (POST /v1/keys) shows the new key
 * once; "Revoke" (DELETE /v1/keys/{id}) and the list is re-read.
 */
const KEYS = `'use strict';(()=>{${PRELUDE}
const tbody=document.querySelector('table.keys tbody');const result=document.getElementById('key-result');const form=document.getElementById('create-key');
const row=k=>'<tr data-key="'+esc(k.keyId)+'"><td><code>'+esc(k.keyId)+'</code></td><td>'+esc(k.role)+'</td><td>'+timeEl(k.createdAt)+'</td><td>'+(k.revokedAt?'revoked '+timeEl(k.revokedAt):'active')+'</td><td>'+(k.revokedAt?'':'<button type="button" class="act" data-revoke="'+esc(k.keyId)+'">Revoke '+esc(k.keyId)+'</button>')+'</td></tr>';
async function load(){const r=await fetch('/v1/keys'+query,{credentials:'same-origin'});const b=await r.json().catch(()=>({}));
if(!r.ok){tbody.innerHTML='<tr><td colspan="5" role="alert">'+esc(b.error||r.status)+'</td></tr>';return;}
tbody.innerHTML=b.keys.map(row).join('')||'<tr><td colspan="5" class="muted">No stored key.</td></tr>';}
form.addEventListener('submit',async e=>{e.preventDefault();const role=String(new FormData(form).get('role')||'operator');
const r=await fetch('/v1/keys'+query,{method:'POST',credentials:'same-origin',headers:{...csrf,'content-type':'application/json'},body:JSON.stringify({role})});const b=await r.json().catch(()=>({}));
result.innerHTML=r.ok?'<p>Created '+esc(b.keyId)+' ('+esc(b.role)+'). The key, shown only now:</p><output class="new-key">'+esc(b.key)+'</output>':'<p role="alert">Refused: '+esc(b.error||r.status)+'</p>';
load().catch(()=>{});});
tbody.addEventListener('click',async e=>{const b=e.target.closest('[data-revoke]');if(!b)return;b.disabled=true;
const r=await fetch('/v1/keys/'+encodeURIComponent(b.dataset.revoke)+query,{method:'DELETE',credentials:'same-origin',headers:csrf});const body=await r.json().catch(()=>({}));
result.innerHTML=r.ok?'<p>Revoked '+esc(b.dataset.revoke)+'.</p>':'<p role="alert">Refused: '+esc(body.error||r.status)+'</p>';load().catch(()=>{});});
load().catch(()=>{});})();
`;

export const DASHBOARD_SCRIPTS: Readonly<Record<string, string>> = { 'fleet.js': FLEET, 'agent.js': AGENT, 'escalations.js': ESCALATIONS, 'policy.js': POLICY, 'keys.js': KEYS };

/** Every asset by name: the scripts and the stylesheet. */
export const DASHBOARD_ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  ...Object.fromEntries(Object.entries(DASHBOARD_SCRIPTS).map(([name, body]) => [name, { type: 'text/javascript; charset=utf-8', body }])),
  'wayfinder.css': { type: 'text/css; charset=utf-8', body: DASHBOARD_CSS },
};

export type DashboardScript = 'fleet' | 'agent' | 'escalations' | 'policy' | 'keys';

export const DASHBOARD_ASSETS_PATH = '/dashboard/assets';
