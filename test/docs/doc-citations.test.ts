// Comments cite the project's own documents (ARCHITECTURE.md#<practice>, SECURITY.md,
// docs/operating.md#<section>, …) or RFC sections, never a document outside the repository
// (CONTRIBUTING.md, Commits and comments). This fails, naming file and line, when a cited
// document or its anchor does not exist, and when a comment still cites a README section
// that moved to docs/ or the engineering practices by number. Anchors into docs/rules.md are
// checked by rules-citations.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/project-root.ts';
import { anchorsOf, explicitAnchorsOf } from '../helpers/markdown.ts';

const cited = /\b(ARCHITECTURE\.md|SECURITY\.md|CONTRIBUTING\.md|bench\/README\.md|docs\/(?!rules\.md)[\w-]+\.md)(?:#([\w-]+))?/g;
/** Citations of the README's old sections (they moved to docs/) and of practices by number. */
const stale = /README,\s+["“]?[A-Z]|README ["“][A-Z]|STYLE practice/g;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? walk(path) : /\.(?:ts|mts|mjs|js)$/.test(name) ? [path] : [];
  });
}

const files = [...['src', 'test', 'bench', 'scripts'].flatMap((d) => walk(join(projectRoot, d))), join(projectRoot, 'eslint.config.js')];
const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(document: string): Set<string> | undefined {
  const path = join(projectRoot, document);
  if (!existsSync(path)) return undefined;
  if (!anchorCache.has(document)) {
    const text = readFileSync(path, 'utf8');
    anchorCache.set(document, new Set([...anchorsOf(text), ...explicitAnchorsOf(text)]));
  }
  return anchorCache.get(document);
}

describe('citations of the project’s own documents in code and tests', () => {
  const findings = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => {
        const where = `${relative(projectRoot, file)}:${i + 1}`;
        const broken = [...line.matchAll(cited)].flatMap((m) => {
          const anchors = anchorsOfFile(m[1]!);
          if (anchors === undefined) return [`${where}: no document ${m[1]}`];
          return m[2] !== undefined && !anchors.has(m[2]) ? [`${where}: no anchor #${m[2]} in ${m[1]}`] : [];
        });
        const old = [...line.matchAll(stale)].map((m) => `${where}: cites "${m[0]}…", which is no longer a place to read`);
        return [...broken.map((b) => ({ kind: 'broken', text: b })), ...old.map((o) => ({ kind: 'stale', text: o }))];
      }),
  );

  it('name documents and anchors that exist', () => {
    expect(findings.filter((f) => f.kind === 'broken').map((f) => f.text)).toEqual([]);
  });

  it('cite no README section that moved and no practice by number', () => {
    expect(findings.filter((f) => f.kind === 'stale' && !f.text.startsWith('test/docs/doc-citations.test.ts')).map((f) => f.text)).toEqual([]);
  });

  it('are found at all: the pattern sees the citations this repository makes (over a hundred)', () => {
    const count = files.reduce((n, file) => n + [...readFileSync(file, 'utf8').matchAll(cited)].length, 0);
    expect(count).toBeGreaterThan(100);
  });
});
