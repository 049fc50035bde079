// Shell command specs (docs/rules.md "Rule semantics"): an exact command, a word prefix, or a glob over the words.
//
// The table, the same for the engine, `rules import/export`, `rules test`, the review page and lint — and the one
// Claude Code documents for `Bash(…)` rules (its shellRuleMatching: exact / prefix / wildcard):
//
//   spec                 kind     matches (the command's words, after quote removal)
//   git status           exact    `git status` only — not `git status -s`, `sudo git status`, `x git status`
//   npm run test:*       prefix   `npm run test`, `npm run test --watch` — not `npm run testing`
//   git *                prefix   `git`, `git log` — not `gitk` (a trailing ` *`, the only `*`, is a word prefix)
//   git * main           glob     `git push origin main`; `*` is any text, spaces included
//   ls*                  glob     `ls -la` and `lsof`
//   rm '*'  /  rm \*     exact    the literal word `*`: a quoted or escaped star is not a wildcard
//
// Words are compared, not text: the spec is split into words the way the shell splits a command (quotes and
// backslashes removed), so `git commit -m "fix it"` and `git commit -m 'fix it'` are the same spec.

import { LINE_KEY_WORDS, type MatchSubject, type SpecMatcher } from './matcher.ts';

/** A wildcard inside a spec word. */
const STAR = 0;

/** A spec word: literal text and wildcards, in order. */
type SpecWord = (string | typeof STAR)[];

/** The kind of a compiled command spec. */
export type CommandSpecKind = 'exact' | 'prefix' | 'glob';

/** A command spec with its kind (for lint, docs and tests). */
export interface CommandSpec extends SpecMatcher {
  kind: CommandSpecKind;
}

/** What separates the words of a command when a glob is matched against it: no shell word can contain it. */
const SEPARATOR = '\u0000';

/** Compiles the spec of a shell rule (`bash(SPEC)`). */
export function compileCommandSpec(spec: string): CommandSpec {
  let body = spec.trim();
  // Claude Code's legacy `prefix:*` (its permissionRuleExtractPrefix: `^(.+):\*$`) is the same as `prefix *`.
  const legacyPrefix = body.endsWith(':*') && body.slice(0, -2).trim() !== '';
  if (legacyPrefix) body = body.slice(0, -2);
  const words = tokenizeSpec(body);
  const stars = words.reduce((n, w) => n + w.filter((p) => p === STAR).length, 0);
  if (legacyPrefix && stars === 0) return prefixSpec(words.map(literalText));
  if (!legacyPrefix && stars === 0) return exactSpec(words.map(literalText));
  const last = words[words.length - 1];
  if (!legacyPrefix && stars === 1 && words.length > 1 && last!.length === 1 && last![0] === STAR)
    return prefixSpec(words.slice(0, -1).map(literalText));
  return globSpec(words, legacyPrefix);
}

/** A word of a spec as a spec writes it: quoted when the shell (or the spec reader) would split or expand it. */
export function specWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./~^-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The exact spec of a command's words: `bash(<this>)` allows exactly that command. */
export function exactSpecOf(words: readonly string[]): string {
  return words.map(specWord).join(' ');
}

function exactSpec(expected: string[]): CommandSpec {
  return {
    kind: 'exact',
    ...keys(expected),
    test: (s) =>
      s.words !== undefined && s.words.length === expected.length && expected.every((w, i) => s.words![i] === w),
  };
}

function prefixSpec(prefix: string[]): CommandSpec {
  return { kind: 'prefix', ...keys(prefix), test: (s) => s.words !== undefined && startsWithWords(s.words, prefix) };
}

function globSpec(words: SpecWord[], optionalTail: boolean): CommandSpec {
  let source = words.map((w) => w.map((p) => (p === STAR ? '[\\s\\S]*' : escapeRegExp(p))).join('')).join(SEPARATOR);
  if (optionalTail) source += `(?:${SEPARATOR}[\\s\\S]*)?`;
  const re = new RegExp(`^${source}$`);
  const leading: string[] = [];
  for (const w of words) {
    if (w.includes(STAR)) break;
    leading.push(literalText(w));
  }
  return {
    kind: 'glob',
    ...keys(leading),
    test: (s: MatchSubject) => s.words !== undefined && re.test(s.words.join(SEPARATOR)),
  };
}

/** The index keys of a spec whose matching commands all begin with these literal words. */
function keys(literal: string[]): Pick<SpecMatcher, 'key' | 'lineKey'> {
  const first = literal[0];
  if (first === undefined || first === '') return {};
  let lineKey = literal.join(' ');
  let spaces = 0;
  for (let i = 0; i < lineKey.length; i++) {
    if (lineKey[i] === ' ' && ++spaces === LINE_KEY_WORDS) {
      lineKey = lineKey.slice(0, i);
      break;
    }
  }
  return { key: first, lineKey };
}

/**
 * Splits a spec into words as the shell splits a command: unquoted blanks separate words; `'…'` is literal;
 * `"…"` is literal but for `\"`, `\\`, `\$` and `` \` ``; `\x` outside quotes is `x`. An unquoted, unescaped `*` is
 * a wildcard. An unclosed quote is read as a literal quote character.
 */
function tokenizeSpec(spec: string): SpecWord[] {
  const words: SpecWord[] = [];
  let word: SpecWord | undefined;
  let text = '';
  const flush = (): void => {
    if (text !== '') word!.push(text);
    text = '';
  };
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (word) {
        flush();
        words.push(word);
        word = undefined;
      }
      continue;
    }
    word ??= [];
    if (c === '*') {
      flush();
      word.push(STAR);
    } else if (c === '\\' && i + 1 < spec.length) {
      text += spec[++i];
    } else if (c === "'" && spec.indexOf("'", i + 1) > i) {
      const close = spec.indexOf("'", i + 1);
      text += spec.slice(i + 1, close);
      i = close;
    } else if (c === '"' && closingDoubleQuote(spec, i) > i) {
      const close = closingDoubleQuote(spec, i);
      text += spec.slice(i + 1, close).replace(/\\(["\\$`])/g, '$1');
      i = close;
    } else {
      text += c;
    }
  }
  if (word) {
    flush();
    words.push(word);
  }
  return words;
}

function closingDoubleQuote(spec: string, open: number): number {
  for (let i = open + 1; i < spec.length; i++) {
    if (spec[i] === '\\') i++;
    else if (spec[i] === '"') return i;
  }
  return -1;
}

function literalText(word: SpecWord): string {
  return word.join('');
}

function startsWithWords(words: readonly string[], prefix: readonly string[]): boolean {
  if (words.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (words[i] !== prefix[i]) return false;
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
