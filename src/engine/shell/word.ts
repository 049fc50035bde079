// Resolves a tree-sitter word node as bash would: quote removal, escapes, $'…', ~, $HOME, brace expansion.
import type { Node } from 'web-tree-sitter';
import { decodeAnsiC } from './ansi-c.ts';
import { expandBraces } from './brace.ts';
import {
  dynamicPart, escapeLiteral, expandTilde, templateHasGlob, templateIsDynamic, templateValue, unquotedTemplate,
} from './template.ts';

/** One resolved shell word. */
export interface Word {
  /** Display value: quotes removed, escapes applied, unresolvable parts shown as written. */
  value: string;
  /** Escaped template (see template.ts) for glob and path matching. */
  template: string;
  dynamic: boolean;
  glob: boolean;
  /** A variable or substitution took part (even when it was resolved). */
  expanded: boolean;
  /** A command substitution took part. */
  substituted: boolean;
  /** Brace expansion produced this word. */
  braced: boolean;
  /** Source text of the word. */
  source: string;
  /** Commands run by `$(…)`/`<(…)` inside this word (filled by the walker). */
  inner?: InnerCommands;
}

/** What a substitution inside a word runs, for judging code passed as data (`sh -c "$(curl …)"`). */
export interface InnerCommands {
  programs: string[];
  processSubstitution: boolean;
}

/** What word resolution needs from the walker. */
export interface WordScope {
  home: string;
  /** Known variables; a name mapped to undefined is known to be unknowable (loop variables). */
  vars: ReadonlyMap<string, string | undefined>;
  /** Runs (records) a `$(…)` and returns its static output, or undefined when it cannot be known. */
  substitute(node: Node): string | undefined;
  /** Runs (records) a `<(…)`/`>(…)`; returns the programs inside. */
  processSubstitute(node: Node): string[];
}

interface Part { template: string; quoted: boolean; expanded: boolean; substituted: boolean; splittable?: string }

/** Builds a Word from plain text (for argv produced by xargs, find -exec, decoded payloads). */
export function literalWord(value: string): Word {
  const template = escapeLiteral(value);
  return { value, template, dynamic: false, glob: false, expanded: false, substituted: false, braced: false, source: value };
}

/** A word standing for something unknowable (the items xargs appends, find's `{}`). */
export function unknownWord(display: string): Word {
  const template = dynamicPart(display);
  return { value: display, template, dynamic: true, glob: false, expanded: true, substituted: false, braced: false, source: display };
}

/** Resolves one argument node into one or more words (brace expansion and word splitting can multiply it). */
export function resolveWord(node: Node, scope: WordScope): Word[] {
  const inner: InnerCommands = { programs: [], processSubstitution: false };
  const parts = collectParts(node, scope, inner);
  const expanded = parts.some((p) => p.expanded);
  const substituted = parts.some((p) => p.substituted);
  const innerOrUndefined = inner.programs.length || inner.processSubstitution ? inner : undefined;
  // An unquoted expansion that stands alone is split on whitespace (`x="rm -rf"; $x ~`).
  if (parts.length === 1 && parts[0]!.splittable !== undefined) {
    const pieces = parts[0]!.splittable.split(/[ \t\n]+/).filter(Boolean);
    return pieces.map((piece) => finish(unquotedTemplate(piece), node.text, expanded, substituted, false, innerOrUndefined));
  }
  const template = parts.map((p) => p.template).join('');
  const expandedTemplates = expandBraces(template);
  const braced = expandedTemplates.length > 1 || expandedTemplates[0] !== template;
  return expandedTemplates.map((t) => finish(expandTilde(t, scope.home), node.text, expanded, substituted, braced, innerOrUndefined));
}

function finish(template: string, source: string, expanded: boolean, substituted: boolean, braced: boolean, inner?: InnerCommands): Word {
  const word: Word = {
    value: templateValue(template), template, dynamic: templateIsDynamic(template), glob: templateHasGlob(template),
    expanded, substituted, braced, source,
  };
  if (inner) word.inner = inner;
  return word;
}

function collectParts(node: Node, scope: WordScope, inner: InnerCommands): Part[] {
  switch (node.type) {
    case 'word': case 'number': case 'brace_expression': case 'regex': case 'extglob_pattern': case 'test_operator':
      return [{ template: unquotedTemplate(node.text), quoted: false, expanded: false, substituted: false }];
    case 'raw_string':
      return [{ template: escapeLiteral(node.text.slice(1, -1)), quoted: true, expanded: false, substituted: false }];
    case 'ansi_c_string':
      return [{ template: escapeLiteral(decodeAnsiC(node.text.slice(2, -1))), quoted: true, expanded: false, substituted: false }];
    case 'string': case 'translated_string':
      return [doubleQuoted(node, scope, inner)];
    case 'concatenation':
      return node.children.flatMap((c) => (c ? collectParts(c, scope, inner) : []));
    case 'simple_expansion': case 'expansion': {
      const value = expansionValue(node, scope);
      if (value === undefined) return [{ template: dynamicPart(node.text), quoted: false, expanded: true, substituted: false }];
      return [{ template: unquotedTemplate(value).replace(/[{},~]/g, '\\$&'), quoted: false, expanded: true, substituted: false, splittable: value }];
    }
    case 'command_substitution': {
      const value = scope.substitute(node);
      inner.programs.push(...innerPrograms(node));
      if (value === undefined) return [{ template: dynamicPart(node.text), quoted: false, expanded: true, substituted: true }];
      return [{ template: unquotedTemplate(value).replace(/[{},~]/g, '\\$&'), quoted: false, expanded: true, substituted: true, splittable: value }];
    }
    case 'process_substitution':
      inner.programs.push(...scope.processSubstitute(node));
      inner.processSubstitution = true;
      return [{ template: escapeLiteral('/dev/fd/63'), quoted: false, expanded: true, substituted: true }];
    default:
      // Arithmetic and anything exotic: not statically known.
      return [{ template: dynamicPart(node.text), quoted: false, expanded: true, substituted: false }];
  }
}

/** `"…"`: literal pieces with the four double-quote escapes, expansions resolved or marked dynamic. */
function doubleQuoted(node: Node, scope: WordScope, inner: InnerCommands): Part {
  const text = node.text;
  const base = node.startIndex;
  const open = node.type === 'translated_string' ? 2 : 1;
  let template = '';
  let cursor = base + open;
  let expanded = false;
  let substituted = false;
  for (const child of node.namedChildren) {
    if (!child || child.type === 'string_content') continue;
    template += quotedLiteral(text, cursor - base, child.startIndex - base);
    cursor = child.endIndex;
    if (child.type === 'simple_expansion' || child.type === 'expansion') {
      expanded = true;
      const value = expansionValue(child, scope);
      template += value === undefined ? dynamicPart(child.text) : escapeLiteral(value);
    } else if (child.type === 'command_substitution') {
      expanded = substituted = true;
      const value = scope.substitute(child);
      inner.programs.push(...innerPrograms(child));
      template += value === undefined ? dynamicPart(child.text) : escapeLiteral(value);
    } else if (child.type === 'process_substitution') {
      inner.programs.push(...scope.processSubstitute(child));
      template += escapeLiteral(child.text);
    } else {
      expanded = true;
      template += dynamicPart(child.text);
    }
  }
  template += quotedLiteral(text, cursor - base, node.endIndex - 1 - base);
  return { template, quoted: true, expanded, substituted };
}

/** A literal stretch of a double-quoted string, with its four escapes (`\$ \` \" \\`) and line continuations applied. */
function quotedLiteral(text: string, from: number, to: number): string {
  if (to <= from) return '';
  return escapeLiteral(text.slice(from, to).replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c)));
}

/** The value of `$x` / `${x}` when statically known (HOME is the sidecar's home unless reassigned). */
function expansionValue(node: Node, scope: WordScope): string | undefined {
  const names = node.namedChildren.filter((c) => c !== null);
  if (names.length !== 1 || names[0]!.type !== 'variable_name') return undefined;
  // `${#x}`, `${!x}` and friends put an operator before the name.
  if (node.type === 'expansion' && !/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(node.text)) return undefined;
  const name = names[0]!.text;
  if (scope.vars.has(name)) return scope.vars.get(name);
  return name === 'HOME' ? scope.home : undefined;
}

/** Program names of the commands directly inside a substitution (for judging where code comes from). */
function innerPrograms(node: Node): string[] {
  const out: string[] = [];
  collectPrograms(node, out);
  return out;
}

function collectPrograms(n: Node, out: string[]): void {
  if (n.type === 'command') {
    const name = n.childForFieldName('name');
    if (name) out.push(name.text.replace(/^.*\//, '').replace(/^\\/, ''));
  }
  for (const c of n.namedChildren) collectPrograms(c, out);
}
