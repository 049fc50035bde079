// The architecture's "nevers" (docs/design.md, "Layers"): imports between layers that must not exist.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** The layer a file under src/ belongs to (its first directory, or `config` for src/config.ts). */
function layerOf(path: string): string | undefined {
  const rel = relative(SRC, path).split('/');
  if (rel.length === 1) return rel[0] === 'config.ts' ? 'config' : undefined;
  return rel[0];
}

/** Every relative import (static, dynamic, `import type` and `export … from`) of a file, resolved. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((spec) => join(dirname(file), spec));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** [from, to, why]: `from` must never import `to`. */
const NEVER: [string, string, string][] = [
  ['engine', 'store', 'the engine is pure and synchronous'],
  ['engine', 'service', 'the engine knows nothing of queues or I/O'],
  ['engine', 'http', 'the engine knows no transport'],
  ['engine', 'cli', 'the engine knows no terminal'],
  ['store', 'service', 'storage does not call up'],
  ['store', 'http', 'storage knows no transport'],
  ['service', 'http', 'the service is transport-free'],
  ['service', 'cli', 'the service knows no terminal'],
  ['client', 'engine', 'the client stays thin: hooks load it per tool call'],
];

/** Every import edge between two layers: `from → to: file imports target`. */
function edges(files: string[]): { from: string; to: string; text: string }[] {
  return files.flatMap((file) =>
    importsOf(file).map((target) => ({
      from: layerOf(file)!,
      to: layerOf(target) ?? '',
      text: `${relative(SRC, file)} imports ${relative(SRC, target)}`,
    })),
  );
}

describe('layers', () => {
  const all = edges(sourceFiles(SRC));

  for (const [from, to, why] of NEVER) {
    it(`${from} never imports ${to} (${why})`, () => {
      assert.deepEqual(
        all.filter((e) => e.from === from && e.to === to).map((e) => e.text),
        [],
      );
    });
  }

  it('sees the imports that do exist (control)', () => {
    assert.ok(
      all.some((e) => e.from === 'service' && e.to === 'engine'),
      'service imports engine',
    );
    assert.ok(
      all.some((e) => e.from === 'http' && e.to === 'service'),
      'http imports service',
    );
    assert.ok(
      all.some((e) => e.from === 'store' && e.to === 'engine'),
      'store imports engine types',
    );
  });
});
