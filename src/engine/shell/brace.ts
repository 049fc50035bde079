// Bash brace expansion over an escaped word template (`\x` marks a quoted or escaped character).
import { DEFAULT_EXPANSION_LIMITS, ExpansionBudget, tooLarge } from './limits.ts';

/** Index of the `}` closing the `{` at `open`, and the top-level commas in between; undefined if none. */
function findClose(t: string, open: number): { close: number; commas: number[] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < t.length; i++) {
    const c = t[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return { close: i, commas };
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  return undefined;
}

/**
 * Expands `{a,b}` and `{1..3}` / `{a..c}` sequences; returns the template itself when nothing expands. Past the
 * budget's `maxArrayLength` words, or its characters, it throws `too large to analyse`: the words cut off could be
 * anything (`cat {{1..300},~/.ssh/id_rsa}` ends in a key), so stopping early and judging the rest would be unsafe.
 */
export function expandBraces(t: string, budget = new ExpansionBudget(DEFAULT_EXPANSION_LIMITS)): string[] {
  if (!t.includes('{')) return [t];
  const words = expandFrom(t, { max: budget.limits.maxArrayLength, work: 4 * budget.limits.maxExpandedChars });
  if (words.length === 1 && words[0] === t) return words;
  budget.array(words.length, 'a brace expansion');
  let chars = 0;
  for (const w of words) chars += w.length;
  budget.charge(chars);
  return words;
}

/** How far one expansion may go: words (`max`, stopped one past it) and characters scanned (`work`, counted down). */
interface Reach {
  max: number;
  work: number;
}

/** The expansion, stopped one word past `reach.max` (the caller then aborts). */
function expandFrom(t: string, reach: Reach): string[] {
  // `{a,b}{a,b}…` ten thousand times: each level rescans and copies the word; the words are few, the work is not.
  reach.work -= t.length;
  if (reach.work < 0) throw tooLarge('a brace expansion would take too long to expand');
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '\\') {
      i++;
      continue;
    }
    if (t[i] !== '{') continue;
    const found = findClose(t, i);
    // A `{` that closes nowhere (or far away) was scanned to its end: `{{{{…` would scan the word once per brace.
    reach.work -= (found?.close ?? t.length) - i;
    if (reach.work < 0) throw tooLarge('a brace expansion would take too long to expand');
    if (!found) continue;
    const prefix = t.slice(0, i);
    const suffix = t.slice(found.close + 1);
    const inner = t.slice(i + 1, found.close);
    let alternatives: string[] | undefined;
    if (found.commas.length > 0) {
      const cuts = [i, ...found.commas, found.close];
      alternatives = cuts.slice(0, -1).map((start, k) => t.slice(start + 1, cuts[k + 1]));
    } else {
      alternatives = sequence(inner, reach.max);
    }
    if (!alternatives) continue;
    const out: string[] = [];
    for (const alt of alternatives) {
      for (const tail of expandFrom(prefix + alt + suffix, reach)) {
        out.push(tail);
        if (out.length > reach.max) return out;
      }
    }
    return out;
  }
  return [t];
}

/** `1..5`, `a..e` (with an optional step) → the items; undefined when not a sequence. */
function sequence(inner: string, max: number): string[] | undefined {
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  if (num) {
    const [a, b] = [Number(num[1]), Number(num[2])];
    const step = Math.abs(Number(num[3] ?? 1)) || 1;
    const out: string[] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) {
      out.push(String(v));
      if (out.length > max) break;
    }
    return out;
  }
  const chr = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(inner);
  if (chr) {
    const [a, b] = [chr[1]!.charCodeAt(0), chr[2]!.charCodeAt(0)];
    const out: string[] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? 1 : -1) out.push(String.fromCharCode(v));
    return out;
  }
  return undefined;
}
