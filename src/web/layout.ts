// The one page frame and stylesheet every page shares.
import { Html, html } from './html.ts';

const stylesheet = `
:root { --fg:#1b1f24; --muted:#57606a; --line:#d0d7de; --accent:#0b5cad; --bad:#b42318; --ok:#067647; --bg:#f6f8fa; }
* { box-sizing: border-box; }
body { margin:0; font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--fg); background:var(--bg); }
header.top { background:#fff; border-bottom:1px solid var(--line); padding:.75rem 1rem; display:flex; gap:1rem; align-items:center; flex-wrap:wrap; }
header.top .brand { font-weight:700; color:var(--fg); text-decoration:none; margin-right:auto; }
header.top a { color:var(--accent); }
header.top nav.top-nav { display:flex; gap:.4rem 1rem; flex-wrap:wrap; align-items:center; }
main { max-width:44rem; margin:1.5rem auto; padding:0 1rem; }
.card { background:#fff; border:1px solid var(--line); border-radius:8px; padding:1.25rem 1.5rem; margin-bottom:1rem; }
h1 { font-size:1.5rem; margin:0 0 1rem; } h2 { font-size:1.1rem; margin:1.25rem 0 .5rem; }
label { display:block; font-weight:600; margin:.75rem 0 .25rem; }
input[type=text], input[type=email], input[type=password], input[type=url], textarea, select { width:100%; padding:.55rem .6rem; border:1px solid var(--line); border-radius:6px; font:inherit; }
input:focus, button:focus, a:focus, textarea:focus { outline:3px solid #8cb8ff; outline-offset:1px; }
button, .button { display:inline-block; padding:.55rem 1.1rem; border-radius:6px; border:1px solid var(--accent); background:var(--accent); color:#fff; font:inherit; font-weight:600; cursor:pointer; text-decoration:none; }
button.secondary, .button.secondary { background:#fff; color:var(--fg); border-color:var(--line); }
button.danger { background:var(--bad); border-color:var(--bad); }
.actions { display:flex; gap:.75rem; margin-top:1.25rem; flex-wrap:wrap; }
.error { color:var(--bad); font-weight:600; } .field-error { color:var(--bad); font-size:.9rem; margin:.25rem 0 0; }
.notice { border-left:4px solid var(--accent); background:#eef5ff; padding:.6rem .9rem; border-radius:4px; }
.muted { color:var(--muted); } code { background:#eef1f4; padding:.1rem .3rem; border-radius:4px; word-break:break-all; }
ul.scopes { padding-left:1.2rem; } ul.scopes li { margin:.2rem 0; }
/* Settings and admin pages */
main:has(table) { max-width:60rem; }
.title-row { display:flex; flex-wrap:wrap; gap:.5rem 1rem; align-items:center; margin-bottom:.75rem; }
.title-row h1, .title-row h2 { margin:0; margin-right:auto; }
.crumbs { margin:0 0 .75rem; font-size:.95rem; }
.card > h2:first-child, .card > .title-row:first-child h2 { margin-top:0; }
h3 { font-size:1rem; margin:1rem 0 .35rem; } h3.family { color:var(--muted); font-size:.95rem; }
.hint { color:var(--muted); font-size:.9rem; margin:.1rem 0 .3rem; }
textarea { min-height:4.5rem; resize:vertical; }
input[aria-invalid=true], textarea[aria-invalid=true], fieldset[aria-invalid=true] { border-color:var(--bad); border-width:2px; }
fieldset { border:1px solid var(--line); border-radius:6px; margin:1rem 0 0; padding:.5rem .9rem .75rem; min-width:0; }
legend { font-weight:600; padding:0 .3rem; }
.check { display:flex; gap:.6rem; align-items:flex-start; margin:.45rem 0; }
.check input { margin-top:.3rem; width:1.1rem; height:1.1rem; flex:none; }
.check label { font-weight:400; margin:0; }
.check.confirm { margin-top:1rem; padding:.6rem .75rem; border:1px solid var(--bad); border-radius:6px; }
details.scope-family { border-top:1px solid var(--line); padding:.4rem 0; }
details.scope-family summary { cursor:pointer; font-weight:600; padding:.25rem 0; }
.error-summary { border:2px solid var(--bad); border-radius:6px; padding:.5rem 1rem; margin-bottom:1rem; background:#fff5f4; }
.error-summary h2 { margin:.25rem 0; color:var(--bad); } .error-summary a { color:var(--bad); }
.notice.bad { border-left-color:var(--bad); background:#fff5f4; }
.flash { border-left:4px solid var(--ok); background:#ecfdf3; padding:.6rem .9rem; border-radius:4px; }
.badge { display:inline-block; font-size:.8rem; font-weight:600; padding:.1rem .55rem; border-radius:999px; border:1px solid var(--line); background:#eef1f4; white-space:nowrap; vertical-align:middle; }
.badge.state-approved { background:#ecfdf3; border-color:#a6f4c5; color:var(--ok); }
.badge.state-pending, .badge.awaiting { background:#fffaeb; border-color:#fedf89; color:#93370d; }
.badge.state-rejected, .badge.state-suspended { background:#fff5f4; border-color:#fecdca; color:var(--bad); }
.badge.legacy { background:#f4f3ff; border-color:#d9d6fe; color:#5925dc; }
.card.held { border-color:#fedf89; background:#fffdf5; }
dl.facts { display:grid; grid-template-columns:minmax(8rem,max-content) 1fr; gap:.4rem 1rem; margin:.5rem 0 1rem; }
dl.facts dt { font-weight:600; } dl.facts dd { margin:0; min-width:0; overflow-wrap:anywhere; }
ul.plain { list-style:none; padding:0; margin:0; } ul.plain li { margin:.15rem 0; }
ul.stack > li + li { border-top:1px solid var(--line); margin-top:1rem; padding-top:.5rem; }
ul.stack h3 { font-size:1.05rem; margin:.5rem 0 .25rem; } ul.stack .actions { margin-top:.75rem; }
.table-wrap { overflow-x:auto; } table { border-collapse:collapse; width:100%; font-size:.95rem; }
th, td { text-align:left; padding:.45rem .5rem; border-bottom:1px solid var(--line); vertical-align:top; }
th { font-weight:600; color:var(--muted); }
table.events td:first-child, table.events code, table.secrets td { white-space:nowrap; }
.secret-box { border:2px solid var(--ok); background:#ecfdf3; border-radius:6px; padding:.75rem 1rem; margin:.5rem 0 1rem; }
.copy-row { display:flex; gap:.5rem; } .copy-row input { font-family:ui-monospace,Menlo,Consolas,monospace; }
form.decision { border-top:1px solid var(--line); padding-top:.5rem; margin-top:.75rem; }
form.decision .actions { margin-top:.5rem; }
.visually-hidden { position:absolute; width:1px; height:1px; overflow:hidden; clip:rect(0 0 0 0); white-space:nowrap; }
@media (max-width: 36rem) {
  dl.facts { grid-template-columns:1fr; } dl.facts dd { margin-bottom:.5rem; }
  .card { padding:1rem; } main { margin:1rem auto; }
  .actions button, .actions .button { flex:1 1 auto; text-align:center; }
  table.events td code { display:none; }
}
`;

// Progressive enhancement only: without JavaScript the secret stays selectable in its field.
const copyScript = `document.querySelectorAll('button[data-copy]').forEach(function (b) {
  var field = document.getElementById(b.getAttribute('data-copy'));
  if (!field) return;
  b.hidden = false;
  b.addEventListener('click', function () {
    field.select();
    var done = function () { b.textContent = 'Copied'; };
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand('copy'); done(); });
    else { document.execCommand('copy'); done(); }
  });
});`;

export interface PageOptions {
  title: string;
  user?: { name: string; email: string; is_admin?: number } | undefined;
  body: Html;
}

export function page({ title, user, body }: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Gatehouse</title>
<style>${new Html(stylesheet)}</style>
</head>
<body>
<header class="top">
  <a class="brand" href="/">Gatehouse</a>
  ${user
    ? html`<nav aria-label="Account" class="top-nav"><span class="muted">${user.name}</span><a href="/settings/teams">Teams</a><a href="/settings/authorized-apps">Authorized apps</a><a href="/settings/developer/oauth-clients">Developer settings</a>${user.is_admin === 1 ? html`<a href="/admin/oauth-clients">Client review</a>` : ''}<a href="/logout">Log out</a></nav>`
    : html`<a href="/login">Log in</a>`}
</header>
<main>
${body}
</main>
<script>${new Html(copyScript)}</script>
</body>
</html>`.value;
}
