// Resolves a tree-sitter word node as bash would: quote removal, escapes, $'…', ~, $HOME, brace expansion.
import type { SyntaxNode } from './syntax.ts';
import { decodeAnsiC } from './ansi-c.ts';
import { subscriptCodeOf } from './subscripts.ts';
import { expandBraces } from './brace.ts';
import type { ExpansionBudget } from './limits.ts';
import {
  SPLIT,
  dynamicPart,
  escapeLiteral,
  expandTilde,
  literalText,
  splittableTemplate,
  templateHasGlob,
  templateIsDynamic,
  templateValue,
  unquotedTemplate,
} from './template.ts';
import { expansionValue, fieldSeparators, holdsSecret, runInner } from './word-expansion.ts';
export { runInner } from './word-expansion.ts';

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
  /** Static output of a `<(…)` this word is, when known (`source <(echo …)`). */
  processOutput?: string;
}

/** What a substitution inside a word runs, for judging code passed as data (`sh -c "$(curl …)"`). */
export interface InnerCommands {
  programs: string[];
  processSubstitution: boolean;
  /** A substitution inside printed a secret (`$(gh auth token)`): captured here, printed only if this word is. */
  secret?: boolean;
}

/** What word resolution needs from the walker. */
export interface WordScope {
  home: string;
  /** Known variables; a name mapped to undefined is known to be unknowable (loop variables). */
  vars: ReadonlyMap<string, string | undefined>;
  /** Element `index` of an array the script assigned with known elements (`${a[0]}`), else undefined. */
  arrayElement?(name: string, index: number): string | undefined;
  /** Runs (records) a `$(…)`; returns its static output (when known) and the programs it ran. */
  substitute(node: SyntaxNode): { output?: string; programs: string[]; secret?: boolean };
  /** Runs (records) a `<(…)`/`>(…)`; returns the programs inside and their static output. */
  processSubstitute(node: SyntaxNode): { programs: string[]; output?: string };
  /** Runs (records) code bash finds in text (a quoted array subscript); returns the programs it ran. */
  evaluate(code: string, origin: string): string[];
  /** Variables holding a secret copied from one (`x=$GITHUB_TOKEN`, a function's `$1` given one). */
  readonly secretVars?: ReadonlySet<string>;
  /** What the analysis may still expand (limits.ts): every value put into a word is charged to it. */
  readonly budget: ExpansionBudget;
}

interface Part {
  template: string;
  quoted: boolean;
  expanded: boolean;
  substituted: boolean;
  processOutput?: string;
}

/** Builds a Word from plain text (for argv produced by xargs, find -exec, decoded payloads). */
export function literalWord(value: string): Word {
  const template = escapeLiteral(value);
  return {
    value,
    template,
    dynamic: false,
    glob: false,
    expanded: false,
    substituted: false,
    braced: false,
    source: value,
  };
}

/** A word standing for something unknowable (the items xargs appends, find's `{}`). */
export function unknownWord(display: string): Word {
  return partlyUnknownWord(display, dynamicPart(display));
}

/** A word known in part: `template` holds its unknown stretches (`~/projects/` + find's `{}`). */
export function partlyUnknownWord(value: string, template: string): Word {
  return {
    value,
    template,
    dynamic: true,
    glob: false,
    expanded: true,
    substituted: false,
    braced: false,
    source: value,
  };
}

/** A bare word with nothing the shell would expand or unescape: its text is its value (the common case). */
const PLAIN_WORD = /^[^\\{},*?[\]~=\u0000-\u0005$`'"]+$/;

/** Resolves one argument node into one or more words (brace expansion and word splitting can multiply it). */
export function resolveWord(node: SyntaxNode, scope: WordScope): Word[] {
  if (node.type === 'word') {
    const text = node.text;
    if (PLAIN_WORD.test(text))
      return [
        {
          value: text,
          template: text,
          dynamic: false,
          glob: false,
          expanded: false,
          substituted: false,
          braced: false,
          source: text,
        },
      ];
  }
  const inner: InnerCommands = { programs: [], processSubstitution: false };
  const parts = collectParts(node, scope, inner);
  const expanded = parts.some((p) => p.expanded);
  const substituted = parts.some((p) => p.substituted);
  const innerOrUndefined = inner.programs.length || inner.processSubstitution || inner.secret ? inner : undefined;
  const template = parts.map((p) => p.template).join('');
  const expandedTemplates = expandBraces(template, scope.budget);
  const braced = expandedTemplates.length > 1 || expandedTemplates[0] !== template;
  // Unquoted expansions split into fields (`x="rm -rf"; $x ~`, `rm${IFS}-rf`): SPLIT marks where.
  const words = expandedTemplates
    .flatMap((t) =>
      expandTilde(t, scope.home)
        .split(SPLIT)
        .filter((f) => f !== '' || !t.includes(SPLIT)),
    )
    .map((t) => finish(t, node.text, expanded, substituted, braced, innerOrUndefined));
  if (expanded || braced) {
    scope.budget.words(words.length);
    for (const w of words) scope.budget.word(w.value.length);
  }
  if (parts.length === 1 && parts[0]!.processOutput !== undefined)
    for (const w of words) w.processOutput = parts[0]!.processOutput;
  evaluateLiteralSubscripts(words, node.text, scope, inner);
  return words;
}

/**
 * Static text that holds an array subscript with code (`'a[$(rm -rf ~)]'`, `"a[$""(…)]"`, `$'a[\x24(…)]'`, or a
 * value built from known variables) runs that code wherever bash later evaluates it as arithmetic — `(( x ))`,
 * `let`, `[[ x -eq 1 ]]`, `${b[x]}`, a name given to `printf -v`, `read`, `declare`, `unset`, `test -v`,
 * `wait -p`, a nameref — through any variable, function argument or positional parameter it is passed in. Where
 * it goes is not followed: the code is walked here, where the text is written.
 */
function evaluateLiteralSubscripts(words: Word[], origin: string, scope: WordScope, inner: InnerCommands): void {
  if (!words.some((w) => w.value.includes('['))) return;
  if (words.length === 1 && !/\$\(|`|\\/.test(words[0]!.value)) return;
  // The words together: a value split into fields (`z=$x$y`, `$(cat <<EOF …)`) is one text where it is assigned.
  const codes = subscriptCodeOf(
    words.length === 1 ? literalText(words[0]!.template) : words.map((w) => literalText(w.template)).join(' '),
  );
  if (codes.length === 0) return;
  for (const code of codes) inner.programs.push(...scope.evaluate(code, origin));
  for (const w of words) w.inner ??= inner;
}

function finish(
  template: string,
  source: string,
  expanded: boolean,
  substituted: boolean,
  braced: boolean,
  inner?: InnerCommands,
): Word {
  const word: Word = {
    value: templateValue(template),
    template,
    dynamic: templateIsDynamic(template),
    glob: templateHasGlob(template),
    expanded,
    substituted,
    braced,
    source,
  };
  if (inner) word.inner = inner;
  return word;
}

function collectParts(node: SyntaxNode, scope: WordScope, inner: InnerCommands): Part[] {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'brace_expression':
    case 'regex':
    case 'extglob_pattern':
    case 'test_operator':
      return [{ template: unquotedTemplate(node.text), quoted: false, expanded: false, substituted: false }];
    case 'raw_string':
      return [{ template: escapeLiteral(node.text.slice(1, -1)), quoted: true, expanded: false, substituted: false }];
    case 'ansi_c_string':
      return [
        {
          template: escapeLiteral(decodeAnsiC(node.text.slice(2, -1))),
          quoted: true,
          expanded: false,
          substituted: false,
        },
      ];
    case 'string':
    case 'translated_string':
      return [doubleQuoted(node, scope, inner)];
    case 'concatenation':
      return node.children.flatMap((c) => (c ? collectParts(c, scope, inner) : []));
    case 'simple_expansion':
    case 'expansion': {
      if (holdsSecret(node, scope)) inner.secret = true;
      const value = expansionValue(node, scope);
      if (value === undefined)
        return [
          {
            template: dynamicPart(node.text),
            quoted: false,
            expanded: true,
            substituted: runInner(node, scope, inner),
          },
        ];
      scope.budget.charge(value.length);
      return [
        {
          template: splittableTemplate(value, fieldSeparators(scope)),
          quoted: false,
          expanded: true,
          substituted: false,
        },
      ];
    }
    case 'command_substitution': {
      const { output: value, programs, secret } = scope.substitute(node);
      inner.programs.push(...programs);
      if (secret) inner.secret = true;
      if (value === undefined)
        return [{ template: dynamicPart(node.text), quoted: false, expanded: true, substituted: true }];
      scope.budget.charge(value.length);
      return [
        {
          template: splittableTemplate(value, fieldSeparators(scope)),
          quoted: false,
          expanded: true,
          substituted: true,
        },
      ];
    }
    case 'process_substitution': {
      const { programs, output } = scope.processSubstitute(node);
      inner.programs.push(...programs);
      inner.processSubstitution = true;
      const part: Part = { template: escapeLiteral('/dev/fd/63'), quoted: false, expanded: true, substituted: true };
      if (output !== undefined) part.processOutput = output;
      return [part];
    }
    default:
      // Arithmetic and anything exotic: not statically known, but substitutions inside still run.
      return [
        { template: dynamicPart(node.text), quoted: false, expanded: true, substituted: runInner(node, scope, inner) },
      ];
  }
}

/** `"…"`: literal pieces with the four double-quote escapes, expansions resolved or marked dynamic. */
function doubleQuoted(node: SyntaxNode, scope: WordScope, inner: InnerCommands): Part {
  const text = node.text;
  // No `$`, backtick or backslash: the contents are plain text (most quoted arguments).
  if (node.type === 'string' && !/[$`\\]/.test(text))
    return { template: escapeLiteral(text.slice(1, -1)), quoted: true, expanded: false, substituted: false };
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
      if (holdsSecret(child, scope)) inner.secret = true;
      const value = expansionValue(child, scope);
      if (value === undefined && runInner(child, scope, inner)) substituted = true;
      if (value !== undefined) scope.budget.charge(value.length);
      template += value === undefined ? dynamicPart(child.text) : escapeLiteral(value);
    } else if (child.type === 'command_substitution') {
      expanded = substituted = true;
      const { output: value, programs, secret } = scope.substitute(child);
      inner.programs.push(...programs);
      if (secret) inner.secret = true;
      if (value !== undefined) scope.budget.charge(value.length);
      template += value === undefined ? dynamicPart(child.text) : escapeLiteral(value);
    } else if (child.type === 'process_substitution') {
      inner.programs.push(...scope.processSubstitute(child).programs);
      template += escapeLiteral(child.text);
    } else {
      expanded = true;
      if (runInner(child, scope, inner)) substituted = true;
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
