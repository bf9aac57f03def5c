// The one page frame and stylesheet every page shares.
import { Html, html } from './html.ts';

const stylesheet = `
:root { --fg:#1b1f24; --muted:#57606a; --line:#d0d7de; --accent:#0b5cad; --bad:#b42318; --ok:#067647; --bg:#f6f8fa; }
* { box-sizing: border-box; }
body { margin:0; font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--fg); background:var(--bg); }
header.top { background:#fff; border-bottom:1px solid var(--line); padding:.75rem 1rem; display:flex; gap:1rem; align-items:center; flex-wrap:wrap; }
header.top .brand { font-weight:700; color:var(--fg); text-decoration:none; margin-right:auto; }
header.top a { color:var(--accent); }
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
`;

export interface PageOptions {
  title: string;
  user?: { name: string; email: string } | undefined;
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
    ? html`<span class="muted">${user.name}</span><a href="/settings/authorized-apps">Authorized apps</a><a href="/logout">Log out</a>`
    : html`<a href="/login">Log in</a>`}
</header>
<main>
${body}
</main>
</body>
</html>`.value;
}
