// The one page frame every page shares; its stylesheet and script are files of this origin
// (src/web/assets), never inline (SPEC §7).
import { assets } from './assets.ts';
import { html, type Html } from './html.ts';

export interface PageOptions {
  title: string;
  user?: { name: string; email: string; isAdmin?: boolean } | undefined;
  body: Html;
}

export function page({ title, user, body }: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Gatehouse</title>
<link rel="stylesheet" href="${assets.stylesheet.path}">
</head>
<body>
<header class="top">
  <a class="brand" href="/">Gatehouse</a>
  ${user
    ? html`<nav aria-label="Account" class="top-nav"><span class="muted">${user.name}</span><a href="/settings/teams">Teams</a><a href="/settings/authorized-apps">Authorized apps</a><a href="/settings/developer/oauth-clients">Developer settings</a>${user.isAdmin ? html`<a href="/admin/oauth-clients">Client review</a>` : ''}<a href="/logout">Log out</a></nav>`
    : html`<a href="/login">Log in</a>`}
</header>
<main>
${body}
</main>
<script src="${assets.copyScript.path}"></script>
</body>
</html>`.value;
}
