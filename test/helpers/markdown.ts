// What a Markdown document offers to be linked to, for the tests that keep the documentation's
// links and the code's citations true (test/docs/).

/** GitHub's anchors for a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[^]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading!
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The explicit anchors of a document (`<a id="…"></a>`), which survive a heading's rewording. */
export function explicitAnchorsOf(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!));
}
