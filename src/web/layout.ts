// The one page frame every page shares; its stylesheet and script are files of this origin
// (src/http/assets), never inline (SECURITY.md). On a narrow screen the account links fold
// behind a Menu toggle (a checkbox and its label: no script needed), so the header stays one line.
import { assets } from '../http/assets.ts';
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
<title>${title === 'Gatehouse' ? title : `${title} · Gatehouse`}</title>
<link rel="icon" type="image/svg+xml" href="${assets.favicon.path}">
<link rel="stylesheet" href="${assets.stylesheet.path}">
</head>
<body>
<header class="top">
  <a class="brand" href="/"><img src="${assets.favicon.path}" alt="" width="24" height="24">Gatehouse</a>
  ${user
    ? html`<input type="checkbox" id="menu-toggle" class="menu-toggle" aria-controls="top-nav">
<label for="menu-toggle"><span class="visually-hidden">Show the </span>Menu</label>
<nav aria-label="Account" class="top-nav" id="top-nav"><span class="muted who" title="${user.email}">${user.name}</span><a href="/settings/teams">Teams</a><a href="/settings/authorized-apps">Authorized apps</a><a href="/settings/webhooks">Webhooks</a><a href="/settings/developer/oauth-clients">Developer settings</a>${user.isAdmin ? html`<a href="/admin/oauth-clients">Client review</a>` : ''}<a href="/logout">Log out</a></nav>`
    : html`<a href="/login">Log in</a>`}
</header>
<main>
${body}
</main>
<script src="${assets.copyScript.path}"></script>
</body>
</html>`.value;
}
