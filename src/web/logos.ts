// Application logos on the consent, login and review pages, served from
// Gatehouse's own origin so the pages' CSP stays img-src 'self' (docs/rules.md#security-headers). The developer's
// logo URL is fetched by the server — through the outbound-URL guard, connecting only to
// the addresses it judged (OUTBOUND_ALLOW_PRIVATE, docs/rules.md#outbound-urls), no redirects, at most 256 KiB of
// PNG, JPEG, GIF or WebP (never SVG, which can carry script) — and kept for an hour. An
// application without a logo, or whose logo cannot be had, gets a monogram drawn here.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { requireStoredClient, type ClientView } from '../services/clients/view.ts';
import { ServiceError } from '../services/errors.ts';
import { outboundRequest } from '../services/outbound-request.ts';
import { checkOutboundUrl, type OutboundPolicy } from '../services/outbound-url.ts';
import { escapeHtml, html, type Html } from './html.ts';

export const MAX_LOGO_BYTES = 256 * 1024;
const LOGO_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const FETCH_TIMEOUT_MS = 5_000;
const KEEP_MS = 60 * 60 * 1000;
const KEEP_FAILURE_MS = 10 * 60 * 1000;
const CACHE_ENTRIES = 500;

export function logoPath(clientId: string): string {
  return `/oauth-clients/${encodeURIComponent(clientId)}/logo`;
}

interface Image {
  type: string;
  body: Buffer;
}

/** The image at `url`, or undefined when it is not one Gatehouse will serve. */
export async function fetchLogo(url: string, policy: OutboundPolicy): Promise<Image | undefined> {
  const checked = await checkOutboundUrl(url, policy);
  if (!checked.ok) return undefined;
  const answer = await outboundRequest(checked, {
    method: 'GET',
    headers: { accept: [...LOGO_TYPES].join(', ') },
    timeoutMs: FETCH_TIMEOUT_MS,
    maxBytes: MAX_LOGO_BYTES,
    beyondLimit: 'refuse',
  }).catch(() => undefined);
  if (answer === undefined || answer.status !== 200 || !answer.whole || answer.body.length === 0) return undefined;
  const type = (answer.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return LOGO_TYPES.has(type) ? { type, body: answer.body } : undefined;
}

const palette = ['#0b5cad', '#067647', '#5925dc', '#b54708', '#c11574', '#155b75', '#3e4784'];

/** A square with the application's initial, in a colour of its own (stable per client). */
export function monogram(clientId: string, name: string): Image {
  const initial = [...name.trim()][0]?.toUpperCase() ?? '?';
  const colour = palette[createHash('sha256').update(clientId).digest()[0]! % palette.length];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><rect width="64" height="64" rx="14" fill="${colour}"/><text x="32" y="43" text-anchor="middle" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="30" font-weight="700" fill="#fff">${escapeHtml(initial)}</text></svg>`;
  return { type: 'image/svg+xml', body: Buffer.from(svg) };
}

/** Logos by client and URL, kept a while so that a page view is not a fetch. */
class LogoCache {
  private readonly entries = new Map<string, { image: Image | undefined; until: number }>();

  constructor(private readonly clock: () => number) {}

  async get(key: string, load: () => Promise<Image | undefined>): Promise<Image | undefined> {
    const now = this.clock();
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.until > now) return hit.image;
    const image = await load();
    this.entries.delete(key);
    if (this.entries.size >= CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { image, until: now + (image ? KEEP_MS : KEEP_FAILURE_MS) });
    return image;
  }
}

/** The logo (or the monogram) of a client, as an <img> of this origin. */
export function logoImage(client: Pick<ClientView, 'clientId'>, size: number, className = 'app-logo'): Html {
  return html`<img class="${className}" src="${logoPath(client.clientId)}" alt="" width="${size}" height="${size}">`;
}

export async function logoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const cache = new LogoCache(ctx.services.clock);
  app.get<{ Params: { clientId: string } }>('/oauth-clients/:clientId/logo', async (request, reply) => {
    const client = await requireStoredClient(ctx.services, request.params.clientId).catch((error: unknown) => {
      // No such client, or no id at all (/oauth-clients//logo): either way, no image here.
      if (error instanceof ServiceError && (error.kind === 'not_found' || error.kind === 'validation')) return undefined;
      throw error;
    });
    if (client === undefined) return reply.status(404).type('text/plain; charset=utf-8').send('no such application');
    const logoUrl = client.logoUrl;
    const image = (logoUrl && (await cache.get(`${client.id} ${logoUrl}`, () => fetchLogo(logoUrl, ctx.outbound)))) || monogram(client.id, client.name);
    return reply
      .type(image.type)
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      // Opened on its own, the image runs nothing (an SVG here is only ever our monogram).
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .send(image.body);
  });
}
