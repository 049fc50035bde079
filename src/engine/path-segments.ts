// A path template split into segments, one per name: a literal name, a glob over one name, any number of names
// (`**`), or a name partly or wholly unknown (a variable). The protected-path matcher compares these with its roots.
import { DEEP, DYN_CLOSE, DYN_OPEN } from './shell/template.ts';

/** A path segment: literal name, glob over one name, any number of names (`DEEP`), or unknown text (a variable). */
export type Seg =
  | { kind: 'lit'; text: string }
  | { kind: 'glob'; pattern: string }
  | { kind: 'deep' }
  | { kind: 'dyn'; pattern?: string };

/** Characters micromatch reads as syntax: escaped in a glob segment's pattern when the template had them quoted. */
const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/;

/**
 * Splits an escaped template into segments (escapes make quoted glob characters literal). One pass, no closure:
 * a segment without escapes is sliced from the template instead of being built a character at a time.
 */
export function templateSegs(template: string): Seg[] {
  const segs: Seg[] = [];
  let from = 0;
  let escaped = false;
  let glob = false;
  let dyn = false;
  let deep = false;
  for (let i = 0; i <= template.length; i++) {
    const c = template[i];
    if (c === '\\' && i + 1 < template.length) {
      escaped = true;
      i++;
      continue;
    }
    if (c === DYN_OPEN) {
      const end = template.indexOf(DYN_CLOSE, i);
      i = end < 0 ? template.length - 1 : end;
      dyn = true;
      continue;
    }
    if (c === DEEP) {
      deep = true;
      continue;
    }
    if (c === '*' || c === '?' || c === '[') {
      glob = true;
      continue;
    }
    if (c !== '/' && c !== undefined) continue;
    // The end of a segment: template[from, i).
    // A name partly unknown (`.s${x}sh`, `.${x:-ssh}`): its known parts make a pattern (`.s*sh`, `.*`) for one name.
    // Known parts that say nothing (`$IMAGE:$TAG`, `$NAME.json`: see namesPart) leave the name wholly unknown.
    if (dyn) {
      const pattern = dynPattern(template, from, i);
      segs.push(pattern === undefined || !namesPart(pattern) ? { kind: 'dyn' } : { kind: 'dyn', pattern });
    } else if (deep) segs.push({ kind: 'deep' });
    else if (glob)
      segs.push({ kind: 'glob', pattern: escaped ? segmentPattern(template, from, i) : template.slice(from, i) });
    else {
      const text = escaped ? segmentText(template, from, i) : template.slice(from, i);
      if (text === '..') {
        const last = segs.pop();
        if (last && last.kind !== 'lit') segs.push(last, { kind: 'dyn' });
      } else if (text !== '' && text !== '.') segs.push({ kind: 'lit', text });
    }
    from = i + 1;
    escaped = glob = dyn = deep = false;
  }
  return segs;
}

/** A segment's literal text: escapes removed (no DYN or DEEP markers inside: those segments are not literal). */
function segmentText(template: string, from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i++) text += template[i] === '\\' && i + 1 < to ? template[++i] : template[i];
  return text;
}

/** A glob segment's micromatch pattern: escaped characters that micromatch reads as syntax stay escaped. */
function segmentPattern(template: string, from: number, to: number): string {
  let pattern = '';
  for (let i = from; i < to; i++) {
    const c = template[i]!;
    if (c === '\\' && i + 1 < to) {
      const n = template[++i]!;
      pattern += GLOB_SYNTAX.test(n) ? '\\' + n : n;
    } else pattern += c;
  }
  return pattern;
}

/** The pattern of a segment with unknown parts and known ones (each unknown part a `*`), or undefined if all unknown. */
function dynPattern(template: string, from: number, to: number): string | undefined {
  let pattern = '';
  let known = false;
  for (let i = from; i < to; i++) {
    const c = template[i]!;
    if (c === DYN_OPEN) {
      const end = template.indexOf(DYN_CLOSE, i);
      i = end < 0 ? to : end;
      if (!pattern.endsWith('*')) pattern += '*';
    } else if (c === '\\' && i + 1 < to) {
      const n = template[++i]!;
      pattern += GLOB_SYNTAX.test(n) ? '\\' + n : n;
      known = true;
    } else if (c !== DEEP) {
      pattern += c;
      known = true;
    }
  }
  return known ? pattern : undefined;
}

/**
 * Whether the known parts of a partly unknown name say something about it: a literal beginning or end of two
 * characters or more, an extension aside (`.s${x}sh`, `id_$k`, `${x}_rsa` do; `$IMAGE:$TAG`, `$NAME.json`,
 * `$A@$B` do not). Only such a name is taken for a protected one: `$OUT_DIR/$NAME.json` is not the registry logins.
 */
function namesPart(pattern: string): boolean {
  const star = pattern.indexOf('*');
  if (star < 0) return true;
  const head = pattern.slice(0, star);
  const tail = pattern.slice(pattern.lastIndexOf('*') + 1).replace(/^\.[A-Za-z0-9]{1,6}$/, '');
  return head.length >= 2 || tail.length >= 2;
}
