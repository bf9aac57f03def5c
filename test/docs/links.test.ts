// Every relative link of the documentation leads somewhere: to a file or folder of the
// repository and, when it names a heading of another document (or of its own), to that
// heading. Anchors into docs/rules.md are checked with the rules' own test, not here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/project-root.ts';
import { anchorsOf } from '../helpers/markdown.ts';

const documents = [
  'README.md',
  'SECURITY.md',
  'CONTRIBUTING.md',
  'ARCHITECTURE.md',
  'bench/README.md',
  ...readdirSync(join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Markdown links and images: `[text](target)`, the target up to a space or `)`. */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

describe.each(documents)('the links of %s', (document) => {
  const text = readFileSync(join(projectRoot, document), 'utf8');
  const relativeLinks = linksOf(text).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));

  it('lead to files of the repository, and to headings that exist', () => {
    const broken: string[] = [];
    for (const target of relativeLinks) {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(projectRoot, document) : join(projectRoot, dirname(document), decodeURIComponent(path));
      if (!existsSync(file)) {
        broken.push(`${target}: no file ${relative(projectRoot, file)}`);
        continue;
      }
      const linked = relative(projectRoot, file);
      if (anchor === undefined || anchor === '' || linked === 'docs/rules.md' || !linked.endsWith('.md') || statSync(file).isDirectory()) continue;
      if (!anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor))) broken.push(`${target}: no heading #${anchor} in ${linked}`);
    }
    expect(broken, `${document} has links that lead nowhere`).toEqual([]);
  });
});

describe('the anchors of headings, as GitHub makes them', () => {
  it('drops punctuation and code marks, keeps hyphens and underscores, numbers repeats', () => {
    expect([...anchorsOf('## Connect an AI agent (MCP)\n### `gatehouse clients create`\n## Health, metrics, logs\n## A\n## A\n## RATE_LIMIT_X')]).toEqual([
      'connect-an-ai-agent-mcp',
      'gatehouse-clients-create',
      'health-metrics-logs',
      'a',
      'a-1',
      'rate_limit_x',
    ]);
  });
});
