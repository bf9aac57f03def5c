// /settings/webhooks (docs/rules.md#webhooks): the user's own webhooks, as the /v2 webhooks routes made
// them, with their recent deliveries: time, event, state, status code, attempts, next
// attempt and the first 1 KB of the answer; and why Gatehouse turned one off.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { personalWebhooks, type WebhookWithDeliveries } from '../services/webhooks/recent.ts';
import { signedIn } from './access.ts';
import { time } from './format.ts';
import { html } from './html.ts';
import { sendPage } from './pages.ts';

export const WEBHOOKS_PAGE = '/settings/webhooks';

const state = (d: WebhookWithDeliveries['deliveries'][number]) =>
  d.status === 'delivered' ? 'delivered' : d.status === 'failed' ? 'failed' : d.attempts === 0 ? 'waiting' : 'retrying';

function webhookCard({ webhook: w, deliveries }: WebhookWithDeliveries) {
  return html`<section class="card webhook" id="webhook-${w.id}" aria-labelledby="webhook-title-${w.id}">
<h2 id="webhook-title-${w.id}"><code>${w.subscriberUrl}</code></h2>
<p>${w.active ? 'Active' : 'Off'} · ${w.triggers.join(', ')}</p>
${w.disabledReason ? html`<p class="notice bad" id="disabled-${w.id}">Turned off by Gatehouse: ${w.disabledReason}</p>` : ''}
${deliveries.length === 0
  ? html`<p class="muted">Nothing sent yet.</p>`
  : html`<div class="table-wrap"><table class="deliveries" id="deliveries-${w.id}">
<thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">State</th><th scope="col">Status code</th><th scope="col">Attempts</th><th scope="col">Next attempt</th><th scope="col">Answer (first 1 KB)</th></tr></thead>
<tbody>${deliveries.map(
      (d) => html`<tr data-delivery="${d.id}"><td>${time(d.createdAt)}</td><td><code>${d.event}</code></td><td>${state(d)}</td><td>${d.responseStatus === null ? html`<span class="muted">—</span>` : String(d.responseStatus)}</td><td>${String(d.attempts)}</td><td>${d.status === 'pending' ? time(d.nextAttemptAt) : html`<span class="muted">—</span>`}</td><td>${d.error ? html`<span class="error">${d.error}</span>` : html`<code>${d.responseBody ?? ''}</code>`}</td></tr>`,
    )}</tbody></table></div>`}
</section>`;
}

export async function webhooksRoutes(web: FastifyInstance, ctx: AppContext): Promise<void> {
  web.get(WEBHOOKS_PAGE, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const hooks = await personalWebhooks(ctx.services, user.id);
    return sendPage(
      reply,
      request,
      200,
      'Webhooks',
      html`<div class="card"><h1>Webhooks</h1>
<p>Your webhooks, created through the API (<code>/v2/webhooks</code>), and what was sent to them. Redeliver one with <code>POST /v2/webhooks/:webhookId/deliveries/:deliveryId/redeliver</code>.</p>
${hooks.length === 0 ? html`<p class="muted" id="no-webhooks">You have no webhooks.</p>` : ''}
</div>
${hooks.map(webhookCard)}`,
    );
  });
}
