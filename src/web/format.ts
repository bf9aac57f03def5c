// Pieces many pages show the same way: times, client states, scopes in plain words.
import type { ClientState } from '../oauth/storage.ts';
import { describeScope, familyTitles, type ScopeFamily } from '../oauth/scopes.ts';
import { html, type Html } from './html.ts';

/** A time as people read it, in UTC, with the machine form in the datetime attribute. */
export function time(ms: number | null): Html {
  if (ms === null) return html`<span class="muted">never</span>`;
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

const stateLabels: Record<ClientState, string> = {
  pending: 'Pending review',
  approved: 'Approved',
  rejected: 'Rejected',
  suspended: 'Suspended',
};

export function stateBadge(state: ClientState): Html {
  return html`<span class="badge state-${state}">${stateLabels[state]}</span>`;
}

export function awaitingBadge(): Html {
  return html`<span class="badge awaiting">Awaiting review</span>`;
}

/**
 * Scopes grouped by family, each in plain words (docs/rules.md#consent); developers and admins
 * also see the scope's name, users only the words.
 */
export function scopeList(scopes: readonly string[], marked: readonly string[] = [], options: { names?: boolean } = {}): Html {
  const showNames = options.names ?? true;
  const families = new Map<ScopeFamily, string[]>();
  for (const name of scopes) {
    const def = describeScope(name);
    if (def) families.set(def.family, [...(families.get(def.family) ?? []), name]);
  }
  return html`${[...families].map(
    ([family, members]) => html`<h3 class="family">${familyTitles[family]}</h3><ul class="scopes">${members.map(
      (name) => html`<li>${describeScope(name)!.description}${showNames ? html` <code>${name}</code>` : ''}${marked.includes(name) ? html` ${awaitingBadge()}` : ''}</li>`,
    )}</ul>`,
  )}`;
}

/** The host a redirect URI returns to: what a reviewer checks first. */
export function hostOf(uri: string): string {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
}

/**
 * A URL that may wrap after `/`, `?`, `&` and `=` (a <wbr> after each), so a long one
 * breaks between its parts rather than mid-word or off the edge of a phone's screen.
 */
export function breakableUrl(url: string): Html {
  const parts = url.split(/(?<=[/?&=])/);
  return html`${parts.map((part, i) => (i === 0 ? part : html`<wbr>${part}`))}`;
}

/**
 * The full stop after text someone typed (a name, a reviewer's note) that ends a sentence:
 * none when the text already ends in one, or in "!", "?" or "…", so "Acme Inc." never
 * becomes "Acme Inc..".
 */
export function fullStop(text: string | null | undefined): string {
  return text !== null && text !== undefined && /[.!?…]$/.test(text.trimEnd()) ? '' : '.';
}
