/**
 * The docs that are made or indexed: docs/cli.md's reference is what the command line's own table makes today,
 * every decision is listed in docs/decisions/README.md and short enough to read (80 lines at most, its figures on
 * the measurements page when they are a machine's), and every relative link of README.md and docs/ leads to a file
 * that exists and, when it names a heading, to that heading.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { CLI_DOC, currentCliDoc } from '../../../tools/docs-cli.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const DECISIONS = resolve(ROOT, 'docs/decisions');

describe('docs/cli.md', () => {
  it('lists every command and option as the command line reads them (npm run docs:cli)', () => {
    expect(readFileSync(CLI_DOC, 'utf8')).toBe(currentCliDoc());
  });
});

describe('docs/decisions', () => {
  const files = readdirSync(DECISIONS).filter((f) => /^\d{4}-.+\.md$/.test(f));
  const index = readFileSync(resolve(DECISIONS, 'README.md'), 'utf8');

  it('indexes every decision, and only decisions that exist', () => {
    const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((m) => m[1]);
    expect([...linked].sort()).toEqual([...files].sort());
  });

  it.each(files)('%s is at most 80 lines', (file) => {
    expect(readFileSync(resolve(DECISIONS, file), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(80);
  });
});

/** Every Markdown file a reader of the repository meets: README.md and everything under docs/. */
function markdownFiles(): string[] {
  const docs = readdirSync(resolve(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => resolve(ROOT, 'docs', f));
  return [resolve(ROOT, 'README.md'), ...docs];
}

/** A Markdown text without its fenced blocks, which hold examples: no heading or link of the page's. */
const unfenced = (markdown: string): string => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** The text a reader sees as prose: no fenced blocks, no code spans. */
const prose = (markdown: string): string => unfenced(markdown).replace(/(`+)[^`\n]*?\1/g, '');

/** Every link target of a Markdown text (inline links and images; a title after the target is left out). */
const linkTargets = (markdown: string): string[] => [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);

/** The anchors GitHub gives a Markdown file's headings (lower case, punctuation dropped, spaces as hyphens, repeats numbered). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of unfenced(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

describe('links in README.md and docs/', () => {
  const files = markdownFiles();

  it('finds the docs and their links', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => linkTargets(readFileSync(f, 'utf8'))).length).toBeGreaterThan(100);
  });

  it("reads a heading's anchor as GitHub makes it", () => {
    const anchors = headingAnchors('# Top\n## The MCP server (`offline-gov-api mcp`)\n### `wage_histogram`\n## Top\n```\n# not a heading\n```\n');
    expect([...anchors]).toEqual(['top', 'the-mcp-server-offline-gov-api-mcp', 'wage_histogram', 'top-1']);
  });

  it.each(files.map((f) => relative(ROOT, f)))('%s: every relative link leads to a file, and to a heading it names', (file) => {
    const path = resolve(ROOT, file);
    const broken: string[] = [];
    for (const target of linkTargets(readFileSync(path, 'utf8'))) {
      // Another site, a mail address or the site's root: not a file of this repository.
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
      const [part, anchor] = target.split('#', 2);
      const linked = part ? resolve(dirname(path), decodeURIComponent(part)) : path;
      if (!existsSync(linked)) {
        broken.push(`${target}: no ${relative(ROOT, linked)}`);
        continue;
      }
      if (anchor && linked.endsWith('.md') && !headingAnchors(readFileSync(linked, 'utf8')).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, linked)}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
