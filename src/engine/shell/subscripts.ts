// Array subscripts with code in them: bash evaluates an indexed array's subscript as arithmetic, and runs the
// `$(…)` and backquotes in it, quoted or not (`printf -v 'a[$(rm -rf ~)]' x`, `x='a[$(…)]'; (( x ))`).
import { decodeAnsiC } from './ansi-c.ts';

/** Where a subscript opens: a variable name and `[`, or a key of an array literal (`a=(['…']=1)`). */
const SUBSCRIPT_START = /(?:[A-Za-z_][A-Za-z0-9_]*|(?<=^|[\s(]))\[/g;

/**
 * The subscripts with code in them (`'a[$(rm -rf ~)]'` → `: $(rm -rf ~)`, `'a[${x[0]}$(…)]'` too), as bash would
 * evaluate them; a subscript is read to its matching `]`, or to the end of the text. Only source text with single
 * quotes has any: elsewhere tree-sitter-bash parses the `$(…)` itself and the walker walks it already.
 */
export function subscriptCode(text: string): string[] {
  return text.includes("'") ? subscriptCodeOf(text) : [];
}

/**
 * The subscripts with code in them in any text: a value bash may later evaluate as an arithmetic expression
 * (`x='a[$(rm -rf ~)]'; (( x ))`, `let x`, `[[ x -eq 1 ]]`, `${b[x]}` all run the `$(…)`).
 */
export function subscriptCodeOf(text: string): string[] {
  if (!text.includes('[')) return [];
  // `\x24(…)`, `\44(…)`: escapes that `printf`, `${x@E}` and `$'…'` turn into a `$`.
  if (text.includes('\\')) {
    const decoded = decodeAnsiC(text);
    if (decoded !== text && (decoded.includes('$(') || decoded.includes('`'))) text = decoded;
  }
  if (!text.includes('$(') && !text.includes('`')) return [];
  const out: string[] = [];
  let covered = 0;
  for (const m of text.matchAll(SUBSCRIPT_START)) {
    const start = m.index + m[0].length;
    // A subscript inside one already read (`a[b[$(…)]]`) is part of that one's code, walked as bash code with it:
    // reading each again would make `a[a[a[…` quadratic.
    if (start <= covered) continue;
    let depth = 1;
    let end = start;
    for (; end < text.length && depth > 0; end++) {
      if (text[end] === '[') depth++;
      else if (text[end] === ']') depth--;
    }
    covered = end;
    // Quotes inside a subscript do not stop bash from running what is in it (`a['$(…)']=1`): they are dropped.
    const inner = text.slice(start, depth === 0 ? end - 1 : end).replace(/['"]/g, '');
    // Text that ends inside a subscript and a `$(` (`x='a[$('`) is no code bash could run.
    if (depth !== 0 && !inner.includes('`') && inner.lastIndexOf(')') < inner.indexOf('$(')) continue;
    // As the argument of `:`: the substitutions run, and their output is a number, not a command to run.
    if (inner.includes('$(') || inner.includes('`')) out.push(`: ${inner}`);
  }
  return out;
}
