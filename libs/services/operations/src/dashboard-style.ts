/**
 * The dashboard's one stylesheet, served as `/dashboard/assets/wayfinder.css` (the CSP allows styles from
 * the gateway's own origin only: no inline style, no style attribute). System fonts, no web font, no CDN.
 * Readable from a 390 px phone (tables scroll sideways in their frame, panels stack) to a wide screen.
 */
export const DASHBOARD_CSS = `:root{--bg:#f6f7f9;--panel:#fff;--ink:#1d2430;--muted:#5b6676;--line:#dde2e8;--accent:#2457c5;
--frozen:#b42318;--looping:#c4320a;--recovering:#b54708;--working:#067647;--done:#475467;--dev:#d92d20;--cor:#2457c5;color-scheme:light}
*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--accent)}a:hover{text-decoration-thickness:2px}
header.top{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.25rem;padding:.6rem 1.25rem;background:#101828;color:#fff}
header.top .brand{color:#fff;font-weight:700;text-decoration:none;letter-spacing:.02em}
header.top nav{display:flex;gap:.25rem;flex-wrap:wrap}
header.top nav a{color:#d0d5dd;text-decoration:none;padding:.3rem .6rem;border-radius:6px}
header.top nav a[aria-current=page],header.top nav a:hover{background:#344054;color:#fff}
header.top .who{margin-left:auto;color:#d0d5dd;font-size:.9em}
header.top button{background:transparent;color:#fff;border:1px solid #667085;border-radius:6px;padding:.25rem .6rem;cursor:pointer}
main{max-width:82rem;margin:0 auto;padding:1rem 1.25rem 3rem}
h1{font-size:1.45rem;margin:.6rem 0 .9rem}h2{font-size:1.1rem;margin:0 0 .6rem}h3{font-size:1rem;margin:.8rem 0 .4rem}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:1rem;margin:0 0 1rem}
.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,22rem),1fr))}
.grid>.panel{margin:0}.grid>.wide-panel{grid-column:1/-1}
.muted{color:var(--muted)}.small{font-size:.88em}
ul.counts{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;margin:0;padding:0}
ul.counts li{flex:1 1 7rem;border:1px solid var(--line);border-radius:8px;padding:.5rem .75rem;background:var(--panel)}
ul.counts li span{display:block;font-size:1.5rem;font-weight:700}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.85em;font-weight:600;border:1px solid currentColor;white-space:nowrap}
.state-frozen{color:var(--frozen)}.state-looping{color:var(--looping)}.state-recovering{color:var(--recovering)}
.state-working{color:var(--working)}.state-done{color:var(--done)}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;width:100%;background:var(--panel)}
caption{text-align:left;font-weight:600;padding:.25rem 0 .5rem}
th,td{border-bottom:1px solid var(--line);padding:.45rem .6rem;text-align:left;vertical-align:top}
thead th{font-size:.85em;color:var(--muted);font-weight:600;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem .75rem;align-items:end;margin:0 0 .75rem}
form.filters label{display:flex;flex-direction:column;font-size:.85em;color:var(--muted);gap:.15rem}
input,select,textarea,button{font:inherit}
input,select,textarea{border:1px solid #c4cad3;border-radius:6px;padding:.35rem .5rem;background:#fff;color:var(--ink);max-width:100%}
input[aria-invalid=true]{border-color:var(--frozen);outline:2px solid #fda29b}
button.primary,button.act{background:var(--accent);color:#fff;border:0;border-radius:6px;padding:.4rem .9rem;cursor:pointer}
button.act{background:#fff;color:var(--accent);border:1px solid var(--accent)}
button:disabled{opacity:.5;cursor:default}
button{white-space:nowrap}td time{white-space:nowrap}
.pager{display:flex;gap:.5rem;align-items:center;justify-content:flex-end;margin-top:.5rem;flex-wrap:wrap}
ul.attention{list-style:none;margin:0;padding:0}ul.attention li{padding:.35rem 0;border-bottom:1px solid var(--line)}
svg.states{display:block;width:100%;height:auto;max-height:10rem}svg.states polyline{fill:none;stroke-width:2;stroke:currentColor}
ul.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:.25rem 0 0;padding:0;font-size:.85em}
output.new-key{display:block;font-family:ui-monospace,monospace;word-break:break-all;background:#ecfdf3;border:1px solid #abefc6;border-radius:6px;padding:.5rem;margin:.5rem 0}
svg.rate{display:block}svg.rate .d{fill:var(--dev)}svg.rate .c{fill:var(--cor)}
.legend-d{color:var(--dev)}.legend-c{color:var(--cor)}
ol.milestones{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;margin:0;padding:0}
ol.milestones li{border:1px solid var(--line);border-radius:999px;padding:.15rem .7rem;font-size:.9em}
ol.milestones li.done{background:#ecfdf3;border-color:#abefc6}ol.milestones li.current{background:#eff4ff;border-color:var(--accent);font-weight:600}
ol.timeline{list-style:none;margin:0;padding:0}
ol.timeline>li{border-left:3px solid var(--line);padding:.4rem 0 .5rem .8rem;margin-left:.3rem}
ol.timeline>li.flagged{border-left-color:var(--dev)}ol.timeline>li.corrected{border-left-color:var(--cor)}
.step-head{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:baseline}
.step-head .seq{font-weight:700;font-variant-numeric:tabular-nums}.step-head .kind{text-transform:uppercase;font-size:.75em;letter-spacing:.05em;color:var(--muted)}
details{margin:.25rem 0}summary{cursor:pointer;color:var(--muted);font-size:.9em}
pre{white-space:pre-wrap;word-break:break-word;background:#f2f4f7;border-radius:6px;padding:.5rem;margin:.25rem 0;font-size:.85em;max-height:18rem;overflow:auto}
.mark{border-radius:8px;padding:.45rem .6rem;margin:.35rem 0;font-size:.93em}
.mark.deviation{background:#fef3f2;border:1px solid #fecdca}.mark.correction{background:#eff4ff;border:1px solid #c7d7fe}
.mark.loop-start{background:#fffaeb;border:1px solid #fedf89}
.error,[role=alert]{color:var(--frozen);font-weight:600}
.ok{color:var(--working);font-weight:600}
tr.differs td{background:#fffaeb}td code{overflow-wrap:anywhere}
form#policy-form details{border-top:1px solid var(--line);padding:.4rem 0}
table.agents td:first-child{white-space:nowrap}
@media (max-width:640px){main{padding:.75rem .75rem 2rem}header.top{padding:.5rem .75rem}th,td{padding:.35rem .4rem}
table.agents .wide{display:none}h1{font-size:1.25rem}}`;
