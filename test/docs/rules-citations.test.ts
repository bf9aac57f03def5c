// Citations of the product rules stay true. Code, tests and documents cite a rule of
// docs/rules.md by its anchor (`docs/rules.md#<id>`, or `rules.md#<id>` from a document beside
// it); this fails, naming file and line, when a cited anchor is not defined there, and when a
// file still points at the specification that lives outside the repository. It also fails
// when a rule is cited nowhere and not listed below as deliberately uncited, so a rule that
// no code relies on any more shows up instead of going stale.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const rulesFile = join(root, 'docs', 'rules.md');

/**
 * Rules that no file cites today, each with the reason. Remove an entry once something
 * cites the rule; a rule that nothing implements any more belongs out of docs/rules.md.
 */
const deliberatelyUncited: Record<string, string> = {
  'agent-refresh': 'no code of its own: agents are public clients, and refresh-rotation covers them',
};

/** What a file must not mention: the specification outside the repository. Spelt in parts so this file passes its own check. */
const outsideReferences = [['SPEC', ' §'].join(''), ['SPEC', '.md'].join(''), ['..', '/shared'].join('')];

const citation = /(?:docs\/)?rules\.md#([A-Za-z0-9_-]+)/g;
const textFile = /\.(?:ts|mts|cts|js|mjs|cjs|json|md|css|html|svg|sh|sql|txt|ya?ml)$/;

function walk(dir: string, keep: (path: string) => boolean): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    if (name.startsWith('.') || name === 'node_modules') return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path, keep);
    return keep(path) ? [path] : [];
  });
}

/** The files whose citations are checked: src/, test/, bench/, scripts/, and the Markdown of the root and of docs/. */
function scannedFiles(): string[] {
  const code = ['src', 'test', 'bench', 'scripts'].flatMap((dir) => walk(join(root, dir), (p) => textFile.test(p)));
  const rootDocs = readdirSync(root)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, name));
  const docs = walk(join(root, 'docs'), (p) => p.endsWith('.md'));
  return [...code, ...rootDocs, ...docs, join(root, 'eslint.config.js')];
}

function definedAnchors(): string[] {
  return [...readFileSync(rulesFile, 'utf8').matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!);
}

interface Finding {
  where: string;
  text: string;
}

function problemsIn(file: string, anchors: Set<string>): { unknown: Finding[]; outside: Finding[]; cited: string[] } {
  const unknown: Finding[] = [];
  const outside: Finding[] = [];
  const cited: string[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, index) => {
    const where = `${relative(root, file)}:${index + 1}`;
    for (const m of line.matchAll(citation)) {
      cited.push(m[1]!);
      if (!anchors.has(m[1]!)) unknown.push({ where, text: m[0] });
    }
    for (const reference of outsideReferences) {
      if (line.includes(reference)) outside.push({ where, text: reference });
    }
  });
  return { unknown, outside, cited };
}

const format = (findings: Finding[]) => findings.map((f) => `${f.where}: ${f.text}`);

describe('citations of docs/rules.md', () => {
  const anchors = definedAnchors();
  const known = new Set(anchors);
  const files = scannedFiles();
  const readme = join(root, 'README.md');
  const results = new Map(files.map((file) => [file, problemsIn(file, known)]));

  it('defines each anchor once, as a short lowercase hyphenated id right before a heading', () => {
    const text = readFileSync(rulesFile, 'utf8').split('\n');
    const badIds = anchors.filter((id) => !/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/.test(id));
    const repeated = anchors.filter((id, i) => anchors.indexOf(id) !== i);
    const notBeforeHeading = text.flatMap((line, i) => (/^<a id="[^"]+"><\/a>$/.test(line) && !/^#{2,4} /.test(text[i + 1] ?? '') ? [`docs/rules.md:${i + 1}`] : []));
    expect({ badIds, repeated, notBeforeHeading }).toEqual({ badIds: [], repeated: [], notBeforeHeading: [] });
    expect(anchors.length).toBeGreaterThan(30);
  });

  it('links inside docs/rules.md go to anchors it defines', () => {
    const lines = readFileSync(rulesFile, 'utf8').split('\n');
    const broken = lines.flatMap((line, i) => [...line.matchAll(/\]\(#([^)]+)\)/g)].filter((m) => !known.has(m[1]!)).map((m) => `docs/rules.md:${i + 1}: #${m[1]}`));
    expect(broken).toEqual([]);
  });

  it('every cited anchor exists (src/, test/, bench/, scripts/, eslint.config.js, root and docs/ Markdown but README.md)', () => {
    const unknown = files.filter((f) => f !== readme).flatMap((f) => format(results.get(f)!.unknown));
    expect(unknown).toEqual([]);
  });

  it('nothing points at the specification outside the repository (the same files but README.md)', () => {
    // The loader of the platform's published API description reads it where CI keeps it, beside
    // the project: a data location, not a citation of the specification.
    const referenceLoader = 'test/helpers/calcom-reference.ts';
    const outside = files.filter((f) => f !== readme && !f.endsWith(referenceLoader)).flatMap((f) => format(results.get(f)!.outside));
    expect(outside).toEqual([]);
  });

  // Its own `it`, so that a README still being rewritten shows apart from the rest.
  it('README.md cites only anchors that exist and nothing outside the repository', () => {
    const found = results.get(readme);
    expect(found === undefined ? [] : [...format(found.unknown), ...format(found.outside)]).toEqual([]);
  });

  it('every rule is cited somewhere, or listed as deliberately uncited', () => {
    const cited = new Set(files.filter((f) => f !== rulesFile).flatMap((f) => results.get(f)!.cited));
    const uncited = anchors.filter((id) => !cited.has(id) && !(id in deliberatelyUncited));
    const listedButCited = Object.keys(deliberatelyUncited).filter((id) => cited.has(id) || !known.has(id));
    expect({ uncited, listedButCited }).toEqual({ uncited: [], listedButCited: [] });
  });
});
