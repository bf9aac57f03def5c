// The stylesheet, script and images the pages and the API reference load, served from this
// origin so the pages' CSP needs no inline allowance (SECURITY.md). Each file's address carries a
// hash of its content, so a browser may keep it for a year and still gets a new version the
// moment it changes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

interface Asset {
  path: string;
  type: string;
  body: string;
}

function asset(file: string, type: string): Asset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url), 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  const dot = file.lastIndexOf('.');
  return { path: `/assets/${file.slice(0, dot)}.${hash}${file.slice(dot)}`, type, body };
}

export const assets = {
  stylesheet: asset('app.css', 'text/css; charset=utf-8'),
  copyScript: asset('copy.js', 'text/javascript; charset=utf-8'),
  favicon: asset('favicon.svg', 'image/svg+xml'),
  docsLogo: asset('docs-logo.svg', 'image/svg+xml'),
  docsStylesheet: asset('docs.css', 'text/css; charset=utf-8'),
};

export async function assetRoutes(app: FastifyInstance): Promise<void> {
  for (const a of Object.values(assets)) {
    app.get(a.path, async (_request, reply) =>
      reply.type(a.type).header('cache-control', 'public, max-age=31536000, immutable').send(a.body),
    );
  }
  // Browsers ask for /favicon.ico on their own, pages or not; an SVG answers it (Chromium
  // and Firefox go by the content type, not the name).
  app.get('/favicon.ico', async (_request, reply) =>
    reply.type(assets.favicon.type).header('cache-control', 'public, max-age=86400').send(assets.favicon.body),
  );
}
