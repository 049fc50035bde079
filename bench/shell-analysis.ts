// Benchmark 3 (used until bench/shell.ts exists): shell analysis cost per command, cold and cached.
import { homedir } from 'node:os';
import { loadShellAnalyzer } from '../src/service/bash-language.ts';
import { atMost, type BenchOptions, type BenchResult } from './lib/result.ts';
import { percentile, round3, sampleUs } from './lib/stats.ts';

const BENCH = 'shell';

/** One-liners like the ones agents send; `i` makes each one unique so the cache cannot answer. */
const ONE_LINERS: ((i: number) => string)[] = [
  (i) => `git log --oneline -n ${i} -- src/module-${i}.ts`,
  (i) => `npm test -- --grep "case ${i}"`,
  (i) => `ls -la src/dir-${i} | head -n 40`,
  (i) => `rg -n "TODO ${i}" src | head -n 20`,
  (i) => `cd packages/p${i} && npm run build`,
  (i) => `git add src/app-${i}.ts && git commit -m "fix: handle empty input ${i}"`,
  (i) => `rm -rf /tmp/build-${i}`,
  (i) => `cat ~/.config/app-${i}.json | jq .version`,
];

/** A 2 KB release script: functions, loops, conditionals, pipes, substitutions, a here-doc. */
export function script2k(i: number): string {
  const lines = [
    '#!/usr/bin/env bash',
    'set -euo pipefail',
    `# release helper ${i}`,
    'ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"',
    'VERSION="$(node -p "require(\'./package.json\').version")"',
    'log() { printf \'[%s] %s\\n\' "$(date +%H:%M:%S)" "$*" >&2; }',
    'build_pkg() {',
    '  local dir="$1"',
    '  log "building $dir"',
    '  (cd "$ROOT/packages/$dir" && npm ci --silent && npm run build -- --mode production)',
    '}',
    `for pkg in core cli web-${i} docs; do`,
    '  if [ -d "$ROOT/packages/$pkg" ]; then',
    '    build_pkg "$pkg"',
    '  else',
    '    log "skipping $pkg (missing)"',
    '  fi',
    'done',
    'git fetch --tags origin',
    'if git rev-parse "v$VERSION" >/dev/null 2>&1; then',
    '  log "tag v$VERSION exists"; exit 1',
    'fi',
    'CHANGES=$(git log --oneline "$(git describe --tags --abbrev=0)"..HEAD | wc -l)',
    'log "$CHANGES changes since the last tag"',
    'find "$ROOT/dist" -name \'*.map\' -type f -delete',
    `tar -czf "/tmp/release-$VERSION-${i}.tgz" -C "$ROOT" dist package.json README.md`,
    `sha256sum "/tmp/release-$VERSION-${i}.tgz" | tee "/tmp/release-$VERSION-${i}.sha256"`,
    'cat > "$ROOT/dist/BUILD_INFO" <<BUILD',
    'version=$VERSION',
    'commit=$(git rev-parse HEAD)',
    'built=$(date -u +%Y-%m-%dT%H:%M:%SZ)',
    'BUILD',
    'while read -r file; do',
    '  case "$file" in',
    '    *.js) gzip -9 -k "$file" ;;',
    '    *.css) gzip -9 -k "$file" ;;',
    '    *) : ;;',
    '  esac',
    'done < <(find "$ROOT/dist" -type f)',
    'docker build -t "registry.example.com/app:$VERSION" --build-arg VERSION="$VERSION" "$ROOT"',
    'docker push "registry.example.com/app:$VERSION" || { log "push failed"; exit 2; }',
    'git tag -a "v$VERSION" -m "release $VERSION"',
    'git push origin "v$VERSION"',
    `curl -fsS -X POST -H 'content-type: application/json' -d "{\\"version\\":\\"$VERSION\\"}" https://hooks.example.com/release-${i}`,
    'log "released $VERSION"',
  ];
  let text = lines.join('\n') + '\n';
  // Pad with comment lines to 2 KB so every sample has the same size.
  while (text.length < 2048) text += `# ${'-'.repeat(Math.max(0, Math.min(60, 2048 - text.length - 3)))}\n`;
  return text;
}

/** Per-command analysis cost: unique one-liners (cold), unique 2 KB scripts (cold), repeated one-liners (cached). */
export async function benchShellFallback(options: BenchOptions): Promise<BenchResult> {
  const n = options.quick ? 200 : 5000;
  const scripts = options.quick ? 20 : 400;
  const analyzer = await loadShellAnalyzer({ home: homedir() });
  // JIT warm-up on commands the samples never repeat.
  for (let i = 0; i < 500; i++) analyzer.analyze(ONE_LINERS[i % ONE_LINERS.length]!(1_000_000 + i));
  for (let i = 0; i < 20; i++) analyzer.analyze(script2k(1_000_000 + i));
  // Each command is analysed exactly once: the cache cannot answer.
  const cold = sampleUs(n, (i) => analyzer.analyze(ONE_LINERS[i % ONE_LINERS.length]!(i)));
  const big = sampleUs(scripts, (i) => analyzer.analyze(script2k(i)));
  const hot = ONE_LINERS.map((f) => f(7));
  // The analyzer keeps a command from its second sight on (a one-off is not cached).
  for (const c of hot) {
    analyzer.analyze(c);
    analyzer.analyze(c);
  }
  const cached = sampleUs(n, (i) => analyzer.analyze(hot[i % hot.length]!));
  const sample = analyzer.analyze(script2k(1));
  if (!sample.ok) throw new Error(`the 2 KB script did not analyse: ${sample.error}`);
  options.log(
    `  one-liner cold p50 ${percentile(cold, 50).toFixed(1)} µs p99 ${percentile(cold, 99).toFixed(1)} µs · 2 KB p50 ${percentile(big, 50).toFixed(0)} µs p99 ${percentile(big, 99).toFixed(0)} µs · cached p50 ${percentile(cached, 50).toFixed(2)} µs p99 ${percentile(cached, 99).toFixed(2)} µs`,
  );
  return {
    bench: BENCH,
    figures: [
      atMost(
        BENCH,
        'one-liner, cold, p50',
        round3(percentile(cold, 50)),
        50,
        'µs',
        `p99 ${round3(percentile(cold, 99))} µs over ${n} unique commands`,
      ),
      atMost(
        BENCH,
        '2 KB script, cold, p99',
        round3(percentile(big, 99) / 1000),
        2,
        'ms',
        `p50 ${round3(percentile(big, 50) / 1000)} ms over ${scripts} unique scripts of ${script2k(0).length} bytes, ${sample.commands.length} simple commands each`,
      ),
      atMost(BENCH, 'cached, p99', round3(percentile(cached, 99)), 5, 'µs', `p50 ${round3(percentile(cached, 50))} µs`),
    ],
    raw: { oneLinerColdUs: summary(cold), script2kUs: summary(big), cachedUs: summary(cached) },
  };
}

function summary(values: number[]): { p50: number; p90: number; p99: number; max: number; n: number } {
  return {
    p50: percentile(values, 50),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    max: percentile(values, 100),
    n: values.length,
  };
}
