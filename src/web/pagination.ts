// Lists that grow with what anyone may create (docs/integrating.md#connect-an-ai-agent-mcp: the admin queue) are shown a page
// at a time, server-rendered, with links to the previous and next page. A page is named by a
// query parameter per list, so that several lists of one page turn independently.
import { validation } from '../services/errors.ts';
import { html, type Html } from './html.ts';

export const PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  /** 1-based; a number past the last page shows the last. */
  number: number;
  count: number;
  total: number;
}

/** The page number in `query[name]`: absent is 1; anything but a whole number from 1 is refused. */
export function pageNumber(query: unknown, name: string): number {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  if (value === undefined) return 1;
  if (typeof value !== 'string' || !/^[1-9]\d{0,5}$/.test(value)) throw validation(`${name}: page numbers are whole numbers from 1`, name);
  return Number(value);
}

export function pageOf<T>(items: T[], requested: number, size = PAGE_SIZE): Page<T> {
  const count = Math.max(1, Math.ceil(items.length / size));
  const number = Math.min(requested, count);
  return { items: items.slice((number - 1) * size, number * size), number, count, total: items.length };
}

/**
 * "Page n of m" with the links around it, nothing when everything fits on one page. `href`
 * gives the address of another page of this list.
 */
export function pageLinks(page: Page<unknown>, href: (number: number) => string): Html | '' {
  if (page.count === 1) return '';
  const prev = page.number > 1 ? html`<a rel="prev" href="${href(page.number - 1)}">Previous page</a> ` : '';
  const next = page.number < page.count ? html` <a rel="next" href="${href(page.number + 1)}">Next page</a>` : '';
  return html`<nav class="pages" aria-label="Pages">${prev}<span>Page ${page.number} of ${page.count}</span>${next}</nav>`;
}
