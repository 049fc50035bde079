// Every relative link in the README and docs/ points at a file that exists (and, into a Markdown file, at a heading it has).
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  'bench/RESULTS.md',
  'src/engine/shell/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The link targets of a Markdown page, outside code blocks and code spans: `[text](target)` and `![alt](target)`. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** GitHub's heading anchors of a Markdown page (lower case, punctuation dropped, spaces as hyphens, duplicates numbered). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, title] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = title!
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('relative links in the documentation', () => {
  for (const page of PAGES) {
    it(`${page}: every relative link resolves`, () => {
      const text = readFileSync(join(ROOT, page), 'utf8');
      const broken: string[] = [];
      for (const target of linkTargets(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
        const [path, anchor] = target.split('#', 2) as [string, string | undefined];
        const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURIComponent(path));
        if (!file.startsWith(ROOT) || !existsSync(file)) {
          broken.push(`${target} (no file ${relative(ROOT, file)})`);
          continue;
        }
        if (anchor !== undefined && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor))
          broken.push(`${target} (no heading #${anchor})`);
      }
      assert.deepEqual(broken, [], `${page} has broken links`);
    });
  }

  it('catches a broken link (control)', () => {
    assert.deepEqual(linkTargets('see [x](docs/nope.md) and `[y](z)` and [w](https://example.com)'), [
      'docs/nope.md',
      'https://example.com',
    ]);
    assert.ok(anchors('# A title: `with code`\n## A title: with code\n').has('a-title-with-code-1'));
  });
});
