// Escaped word templates: how a resolved word keeps track of which characters the shell still treats as special.
//
// A template is the word's text where every quoted or backslash-escaped special character is written `\c`,
// and every part that cannot be resolved statically is wrapped as DYN_OPEN raw-text DYN_CLOSE. Brace
// expansion, tilde expansion and glob detection then only look at the unescaped characters.

export const DYN_OPEN = '\u0000';
export const DYN_CLOSE = '\u0001';
/** Stands in for a `{` that starts a brace-expanded command word, which tree-sitter cannot parse (see walker.ts). */
export const BRACE_PLACEHOLDER = '\u0002';
/** Stands in for a lone `~` on a re-parse: tree-sitter-bash reads `[[ -d ~ ]]` as an operator (see walker.ts). */
export const TILDE_PLACEHOLDER = '\u0004';
/** In a template: a field-splitting point (whitespace produced by an unquoted expansion). */
export const SPLIT = '\u0005';

/** Bash's field separators when IFS is not set. */
export const DEFAULT_IFS = ' \t\n';

/**
 * The template of an unquoted expansion's value: split at the characters of IFS (whitespace unless the script set it:
 * `IFS=,; x="rm,-rf,$HOME"; $x` is `rm -rf $HOME`), globs live, nothing else special. Runs of separators make one
 * split here (bash keeps an empty field between two non-blank ones; no command is hidden by that difference).
 */
export function splittableTemplate(value: string, ifs: string = DEFAULT_IFS): string {
  const unglob = (t: string) => t.replace(/\\([*?[\]])/g, '$1');
  if (ifs === DEFAULT_IFS) return unglob(escapeLiteral(value)).replace(/[ \t\n]+/g, SPLIT);
  if (ifs === '') return unglob(escapeLiteral(value));
  const separators = new RegExp(`[${ifs.replace(/[\\\]^-]/g, '\\$&')}]+`);
  return value
    .split(separators)
    .map((field) => unglob(escapeLiteral(field)))
    .join(SPLIT);
}
/** In a template: any number of directories, hidden ones included (what `find ROOT -name X` searches). */
export const DEEP = '\u0003';
const SPECIAL = new Set(['\\', '{', '}', ',', '*', '?', '[', ']', '~', '=', DYN_OPEN, DYN_CLOSE]);

/** SPECIAL and TILDE_PLACEHOLDER as a character class: the characters escapeLiteral rewrites. */
const ESCAPED = /[\\{},*?[\]~=\u0000\u0001\u0004]/;

/** Escapes text that is quoted (or otherwise literal) so that nothing in it is special. */
export function escapeLiteral(text: string): string {
  if (!ESCAPED.test(text)) return text; // most text (paths, words) has nothing to escape
  let out = '';
  for (const c of text) out += c === TILDE_PLACEHOLDER ? '\\~' : SPECIAL.has(c) ? '\\' + c : c;
  return out;
}

/** Marks an unresolvable part (its raw source is kept for display). */
export function dynamicPart(raw: string): string {
  return DYN_OPEN + escapeLiteral(raw) + DYN_CLOSE;
}

/** The text of an unquoted `word` node as a template: backslash escapes become escaped characters. */
export function unquotedTemplate(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      const n = raw[++i]!;
      if (n === '\n') continue; // line continuation
      out += SPECIAL.has(n) ? '\\' + n : n;
    } else if (c === BRACE_PLACEHOLDER) out += '{';
    else if (c === TILDE_PLACEHOLDER) out += '~';
    else out += c === DYN_OPEN || c === DYN_CLOSE ? '\\' + c : c;
  }
  return out;
}

/** The display value of a template: escapes removed, unresolvable parts shown as their source. */
export function templateValue(t: string): string {
  let out = '';
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === '\\' && i + 1 < t.length) out += t[++i];
    else if (c !== DYN_OPEN && c !== DYN_CLOSE) out += c;
  }
  return out;
}

/**
 * The characters of a template that are static text — quoted, escaped, written plainly, or the known value of an
 * expansion — with each unresolvable part replaced by `0`: a `$(` in it is data the shell did not run here.
 */
export function literalText(t: string): string {
  let out = '';
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === '\\' && i + 1 < t.length) out += t[++i];
    else if (c === DYN_OPEN) {
      const close = t.indexOf(DYN_CLOSE, i);
      i = close < 0 ? t.length : close;
      out += '0';
    } else if (c !== DYN_CLOSE) out += c;
  }
  return out;
}

/** True when the template has an unescaped glob character. */
export function templateHasGlob(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || c === '[') return true;
  }
  return false;
}

/** True when the template has an unresolvable part. */
export function templateIsDynamic(t: string): boolean {
  return t.includes(DYN_OPEN);
}

/** Expands a leading unescaped `~` or `~user` (bash: `~root` → /root, other users → /home/NAME). */
export function expandTilde(t: string, home: string): string {
  if (!t.startsWith('~')) return t;
  // `~+` is $PWD (the directory the command runs in: `.`); `~-` is $OLDPWD, unknown here.
  if (/^~\+(?=\/|$)/.test(t)) return `.${t.slice(2)}`;
  if (/^~-(?=\/|$)/.test(t)) return `${DYN_OPEN}~-${DYN_CLOSE}${t.slice(2)}`;
  const m = /^~([A-Za-z0-9._-]*)(?=\/|$)/.exec(t);
  if (!m) return t;
  const user = m[1]!;
  const dir = user === '' ? home : user === 'root' ? '/root' : `/home/${user}`;
  return escapeLiteral(dir) + t.slice(m[0].length);
}
