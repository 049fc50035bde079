// Compiles a rule's spec into a matcher for its tool kind: commands (command-spec.ts), path globs, domains.
import micromatch from 'micromatch';
import type { ToolKind } from '../catalog/tool-aliases.ts';
import { compileCommandSpec } from './command-spec.ts';

/** Shell specs: see command-spec.ts (an exact command, a word prefix, or a glob over the words). */
export { compileCommandSpec };

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
  /** For command specs: the first word every matching command starts with. */
  key?: string;
  /**
   * For command specs: a literal start of the command line (up to `LINE_KEY_WORDS` words) that every
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
  if (kind === 'read' || kind === 'write' || kind === 'edit' || kind === 'list' || kind === 'search')
    return compilePathSpec(spec, home);
  if (kind === 'fetch') {
    const re = globToRegExp(spec);
    return { test: (s) => s.url !== undefined && re.test(s.url) };
  }
  const re = globToRegExp(spec);
  return { test: (s) => s.text !== undefined && re.test(s.text) };
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

/** `*` matches any characters; everything else is literal. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map(escapeRegExp).join('[\\s\\S]*')}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
