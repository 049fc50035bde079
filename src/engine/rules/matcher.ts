// Compiles a rule's spec into a matcher for its tool kind: command globs, word prefixes, word sequences, path globs, domains.
import micromatch from 'micromatch';
import type { ToolKind } from '../catalog/tool-aliases.ts';

/** What a matcher is tested against. */
export interface MatchSubject {
  /** Shell: the words of one simple command (one variant: as written, or unwrapped). */
  words?: readonly string[];
  /** Shell: the same words joined by single spaces. */
  line?: string;
  /** File tools: absolute path and cwd-relative path. */
  absPath?: string;
  relPath?: string;
  /** Fetch tools. */
  url?: string;
  host?: string;
  /** Anything else: canonical JSON of the args. */
  text?: string;
}

/** A compiled spec, with the literal parts the rule index files it under (a spec without any is tested for every call). */
export interface SpecMatcher {
  test(subject: MatchSubject): boolean;
  /** For command specs: the first word the command must start with (anchored) or contain (sequence). */
  key?: string;
  /** For command specs: whether `key` may occur anywhere in the command (word-sequence patterns). */
  anywhere?: boolean;
  /**
   * For anchored command specs: a literal start of the command line (up to `LINE_KEY_WORDS` words) that every
   * matching line begins with, followed by a space or the end of the line.
   */
  lineKey?: string;
  /** For path specs: the literal leading directories every matching path starts with (`/srv/data` for `/srv/data/**`). */
  pathKey?: string;
  /** For domain specs: the domain every matching host is, or ends with after a dot. */
  domainKey?: string;
}

/** How many leading words of a command pattern the rule index uses. */
export const LINE_KEY_WORDS = 4;

/** Compiles a spec for a tool of the given kind. `home` expands `~` in path specs. */
export function compileSpec(spec: string, kind: ToolKind | 'any', home: string): SpecMatcher {
  if (kind === 'shell') return compileCommandSpec(spec);
  if (kind === 'fetch' && spec.startsWith('domain:')) return compileDomainSpec(spec.slice('domain:'.length).trim());
  if (kind === 'read' || kind === 'write' || kind === 'edit' || kind === 'list' || kind === 'search') return compilePathSpec(spec, home);
  if (kind === 'fetch') {
    const re = globToRegExp(spec);
    return { test: (s) => s.url !== undefined && re.test(s.url) };
  }
  const re = globToRegExp(spec);
  return { test: (s) => s.text !== undefined && re.test(s.text) };
}

/**
 * Command specs (docs/rules.md, "Rules"): `git:*` is a word prefix; a spec with `*` is a glob over the command line
 * where a trailing ` *` also matches the bare command; a spec without wildcard is a contiguous word sequence.
 */
export function compileCommandSpec(spec: string): SpecMatcher {
  if (spec.endsWith(':*')) {
    const prefix = splitWords(spec.slice(0, -2));
    const lineKey = prefix.length ? prefix.slice(0, LINE_KEY_WORDS).join(' ') : undefined;
    return { key: prefix[0], lineKey, test: (s) => s.words !== undefined && startsWithWords(s.words, prefix) };
  }
  if (spec.includes('*')) {
    const re = globToRegExp(spec, true);
    const first = splitWords(spec)[0] ?? '';
    const key = first.includes('*') ? undefined : first;
    return { key, lineKey: key === undefined ? undefined : globLineKey(spec), test: (s) => s.line !== undefined && re.test(s.line) };
  }
  const seq = splitWords(spec);
  return { key: seq[0], anywhere: true, test: (s) => s.words !== undefined && containsWords(s.words, seq) };
}

function compilePathSpec(spec: string, home: string): SpecMatcher {
  let glob = spec.startsWith('//') ? spec.slice(1) : spec;
  if (glob === '~' || glob.startsWith('~/')) glob = home + glob.slice(1);
  if (glob.startsWith('./')) glob = glob.slice(2);
  const isMatch = micromatch.matcher(glob, { dot: true });
  const absolute = glob.startsWith('/');
  return {
    pathKey: globPathKey(glob),
    test: (s) => {
      if (absolute) return s.absPath !== undefined && isMatch(s.absPath);
      return (s.relPath !== undefined && isMatch(s.relPath)) || (s.absPath !== undefined && isMatch(s.absPath));
    },
  };
}

function compileDomainSpec(domain: string): SpecMatcher {
  const d = domain.toLowerCase();
  if (d.startsWith('*.')) {
    const base = d.slice(2);
    return { domainKey: base, test: (s) => s.host !== undefined && (s.host === base || s.host.endsWith('.' + base)) };
  }
  return { domainKey: d, test: (s) => s.host !== undefined && (s.host === d || s.host.endsWith('.' + d)) };
}

/**
 * The index key of a command glob: the literal text before its first `*`, cut back to a point every matching line
 * has a space (or its end) after, and to at most LINE_KEY_WORDS words. `git log *` → `git log` (the trailing ` *`
 * is optional), `git lo*` → `git`, `*foo` → none.
 */
function globLineKey(spec: string): string | undefined {
  let literal: string;
  let boundary: boolean;
  if (spec.endsWith(' *') && !spec.slice(0, -2).includes('*')) {
    literal = spec.slice(0, -2);
    boundary = true; // the line is `literal` or `literal …`
  } else {
    literal = spec.slice(0, spec.indexOf('*'));
    boundary = false;
  }
  let key = boundary ? literal : literal.slice(0, Math.max(0, literal.lastIndexOf(' ')));
  let spaces = 0;
  for (let i = 0; i < key.length; i++) {
    if (key[i] === ' ' && ++spaces === LINE_KEY_WORDS) {
      key = key.slice(0, i);
      break;
    }
  }
  return key === '' ? undefined : key;
}

// Path segments micromatch reads literally: no glob, brace, extglob, class or escape characters, not `.` or `..`.
const LITERAL_SEGMENT = /^(?!\.\.?$)[A-Za-z0-9_.,:=%~-]+$/;

/** The literal leading directories of a path glob (`/srv/data` for `/srv/data/**`, `src` for `src/*.ts`), or none. */
function globPathKey(glob: string): string | undefined {
  const segments = glob.split('/');
  const literal: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (i === 0 && segment === '') {
      literal.push('');
      continue;
    }
    if (!LITERAL_SEGMENT.test(segment)) break;
    literal.push(segment);
  }
  const key = literal.join('/');
  return key === '' ? undefined : key;
}

/** `*` matches any characters; with `trailingOptional`, a final ` *` also matches nothing. Everything else is literal. */
export function globToRegExp(glob: string, trailingOptional = false): RegExp {
  let body = glob;
  let tail = '';
  if (trailingOptional && body.endsWith(' *')) {
    body = body.slice(0, -2);
    tail = '(?: [\\s\\S]*)?';
  }
  const source = body.split('*').map(escapeRegExp).join('[\\s\\S]*');
  return new RegExp(`^${source}${tail}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function splitWords(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean);
}

function startsWithWords(words: readonly string[], prefix: readonly string[]): boolean {
  if (words.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (words[i] !== prefix[i]) return false;
  return true;
}

function containsWords(words: readonly string[], seq: readonly string[]): boolean {
  outer: for (let i = 0; i + seq.length <= words.length; i++) {
    for (let j = 0; j < seq.length; j++) if (words[i + j] !== seq[j]) continue outer;
    return true;
  }
  return false;
}
