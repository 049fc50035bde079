// Bash brace expansion over an escaped word template (`\x` marks a quoted or escaped character).

/** Upper bound on the words one brace expression may produce: past it we stop expanding. */
export const MAX_BRACE_WORDS = 256;

/** Index of the `}` closing the `{` at `open`, and the top-level commas in between; undefined if none. */
function findClose(t: string, open: number): { close: number; commas: number[] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < t.length; i++) {
    const c = t[i];
    if (c === '\\') { i++; continue; }
    if (c === '{') depth++;
    else if (c === '}') { depth--; if (depth === 0) return { close: i, commas }; }
    else if (c === ',' && depth === 1) commas.push(i);
  }
  return undefined;
}

/** Expands `{a,b}` and `{1..3}` / `{a..c}` sequences; returns the template itself when nothing expands. */
export function expandBraces(t: string): string[] {
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '\\') { i++; continue; }
    if (t[i] !== '{') continue;
    const found = findClose(t, i);
    if (!found) continue;
    const prefix = t.slice(0, i);
    const suffix = t.slice(found.close + 1);
    const inner = t.slice(i + 1, found.close);
    let alternatives: string[] | undefined;
    if (found.commas.length > 0) {
      const cuts = [i, ...found.commas, found.close];
      alternatives = cuts.slice(0, -1).map((start, k) => t.slice(start + 1, cuts[k + 1]));
    } else {
      alternatives = sequence(inner);
    }
    if (!alternatives) continue;
    const out: string[] = [];
    for (const alt of alternatives) {
      for (const tail of expandBraces(prefix + alt + suffix)) {
        out.push(tail);
        if (out.length >= MAX_BRACE_WORDS) return out;
      }
    }
    return out;
  }
  return [t];
}

/** `1..5`, `a..e` (with an optional step) → the items; undefined when not a sequence. */
function sequence(inner: string): string[] | undefined {
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  if (num) {
    const [a, b] = [Number(num[1]), Number(num[2])];
    const step = Math.abs(Number(num[3] ?? 1)) || 1;
    const out: string[] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) {
      out.push(String(v));
      if (out.length >= MAX_BRACE_WORDS) break;
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
