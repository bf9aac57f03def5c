// "unknown scope: profile_read (did you mean PROFILE_READ?)": the registry's name for what
// was mistyped, found by case and separator folding, or else by at most two edits. ASCII
// only, since the message also goes out as an OAuth error_description (RFC 6749 §4.1.2.1).

/** Edit distance (insertions, deletions, substitutions), rows of the classic table. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** The known name closest to `name`, if one is close enough to be what was meant. */
export function closestScope(name: string, known: readonly string[]): string | undefined {
  const folded = name.toUpperCase().replace(/[-. ]/g, '_');
  if (known.includes(folded)) return folded;
  let best: { name: string; d: number } | undefined;
  for (const candidate of known) {
    const d = distance(folded, candidate);
    if (best === undefined || d < best.d) best = { name: candidate, d };
  }
  return best !== undefined && best.d <= 2 ? best.name : undefined;
}

/** The message for names not in the registry, with the names they were probably meant to be. */
export function unknownScopesMessage(unknown: readonly string[], known: readonly string[]): string {
  const names = [...new Set(unknown)];
  const hints = [...new Set(names.map((n) => closestScope(n, known)).filter((n): n is string => n !== undefined))];
  return `unknown scope: ${names.join(', ')}${hints.length > 0 ? ` (did you mean ${hints.join(', ')}?)` : ''}`;
}
