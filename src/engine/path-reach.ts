// Whether a path's segments may reach a protected root: globs, `**` and unknown names on either side, within a budget
// of steps per root.
import micromatch from 'micromatch';
import type { Seg } from './path-segments.ts';
import type { Root, RootSeg } from './protected-roots.ts';

/** Steps `reaches` may take for one candidate and root (globstars and unknown parts branch). */
export const REACH_BUDGET = 2000;

/**
 * Could some concrete path matching `cand` be `root` or lie under it? A `dyn` segment may stand for any
 * number of names but, to keep `$DIR/file` from matching everything, never for the root's last name:
 * an unresolvable path only counts when its literal part names the protected entry (`$X/.ssh/id_rsa`).
 */
export function reaches(cand: Seg[], root: RootSeg[], i: number, j: number, budget: { left: number }): boolean {
  if (--budget.left < 0) return false;
  if (j === root.length) return true;
  if (i === cand.length) {
    for (let k = j; k < root.length; k++) if (root[k]!.kind !== 'globstar') return false;
    return true;
  }
  const c = cand[i]!;
  const r = root[j]!;
  if (r.kind === 'globstar') return reaches(cand, root, i, j + 1, budget) || reaches(cand, root, i + 1, j, budget);
  // A name with known parts is one name matching its pattern (and, unknown, may stand for more names too).
  if (
    c.kind === 'dyn' &&
    c.pattern !== undefined &&
    (r.kind === 'lit' ? globMatcher(c.pattern)(r.text) : globsMayMeet(c.pattern, r.pattern)) &&
    reaches(cand, root, i + 1, j + 1, budget)
  )
    return true;
  if (c.kind === 'deep' || c.kind === 'dyn') {
    if (reaches(cand, root, i + 1, j, budget)) return true;
    const absorbable = c.kind === 'deep' || j < root.length - 1;
    return absorbable && reaches(cand, root, i, j + 1, budget);
  }
  let compatible: boolean;
  if (c.kind === 'lit') compatible = r.kind === 'lit' ? c.text === r.text : r.isMatch(c.text);
  else compatible = r.kind === 'lit' ? globMatcher(c.pattern)(r.text) : globsMayMeet(c.pattern, r.pattern);
  return compatible && reaches(cand, root, i + 1, j + 1, budget);
}

/**
 * Whether two glob patterns over one name may match a common name. Exact intersection is not worth its cost here:
 * they cannot when their literal beginnings or their literal ends disagree (`*:` and `ssh_host_*_key` cannot: one
 * name does not end in both `:` and `_key`); otherwise they may.
 */
function globsMayMeet(a: string, b: string): boolean {
  const head = (p: string) => p.slice(0, p.search(GLOB_CHAR) < 0 ? p.length : p.search(GLOB_CHAR));
  const tail = (p: string) => {
    let k = p.length;
    while (k > 0 && !GLOB_CHAR.test(p[k - 1]!)) k--;
    return p.slice(k);
  };
  const [ha, hb, ta, tb] = [head(a), head(b), tail(a), tail(b)];
  return (ha.startsWith(hb) || hb.startsWith(ha)) && (ta.endsWith(tb) || tb.endsWith(ta));
}

/** Characters that make a glob segment match more than its own text. */
const GLOB_CHAR = /[*?[\]{}()!+@\\]/;

/** Compiled glob segments of paths (compiling one costs more than the rest of a check): the last 256 are kept. */
const GLOB_MATCHERS = new Map<string, (name: string) => boolean>();

function globMatcher(pattern: string): (name: string) => boolean {
  let isMatch = GLOB_MATCHERS.get(pattern);
  if (!isMatch) {
    // Bash negates a bracket with `!` (`.s[!x]h`), micromatch with `^`.
    isMatch = micromatch.matcher(pattern.replace(/\[!/g, '[^'), { dot: false });
    if (GLOB_MATCHERS.size >= 256) GLOB_MATCHERS.delete(GLOB_MATCHERS.keys().next().value!);
    GLOB_MATCHERS.set(pattern, isMatch);
  }
  return isMatch;
}

/** A literal path naming one of the files a protected directory leaves open, right inside it (`~/.ssh/id_rsa.pub`). */
export function openInside(segs: Seg[], root: Root, open: (name: string) => boolean = root.open!): boolean {
  if (segs.length !== root.segs.length + 1 || !segs.every((s) => s.kind === 'lit')) return false;
  const last = segs.at(-1) as { kind: 'lit'; text: string };
  if (!open(last.text)) return false;
  const budget = { left: REACH_BUDGET };
  return reaches(segs.slice(0, -1), root.segs, 0, 0, budget);
}
