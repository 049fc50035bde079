// Renders benchmark figures as a plain-text table (terminal) and as a Markdown table (RESULTS.md, README).
import type { Figure } from './result.ts';

function status(f: Figure): string {
  return f.ok === undefined ? '' : f.ok ? 'ok' : 'FAIL';
}

function value(f: Figure): string {
  return f.unit === '×' ? `${f.value}×` : `${f.value} ${f.unit}`;
}

/** A fixed-width table for the terminal. */
export function textTable(figures: readonly Figure[]): string {
  const rows = [
    ['bench', 'figure', 'value', 'target', '', 'detail'],
    ...figures.map((f) => [f.bench, f.name, value(f), f.target, status(f), f.detail ?? '']),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** A Markdown table (the README's performance section). */
export function markdownTable(figures: readonly Figure[]): string {
  const head = '| bench | figure | measured | target | holds |\n|---|---|---|---|---|';
  const rows = figures.map(
    (f) =>
      `| ${f.bench} | ${f.name}${f.detail ? ` <br><sub>${f.detail}</sub>` : ''} | ${value(f)} | ${f.target} | ${f.ok === undefined ? '' : f.ok ? '✓' : '✗'} |`,
  );
  return [head, ...rows].join('\n');
}
