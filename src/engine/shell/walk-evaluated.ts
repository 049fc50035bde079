// Code bash runs while it evaluates: arithmetic (`(( … ))`, `$(( … ))`), the operands of tests, and the array
// subscripts in names it is given (subscripts.ts), each walked one level deeper.
import type { ScriptWalker } from './walker.ts';
import type { SyntaxNode } from './syntax.ts';
import { deeper, type Frame } from './frame.ts';
import { resolveWord, runInner } from './word.ts';
import { subscriptCode } from './subscripts.ts';

/** Nodes of a test's operands that are words (resolved as such, so their static text is read for subscripts). */
const OPERAND_WORDS = new Set([
  'word',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'number',
  'regex',
  'extglob_pattern',
  'test_operator',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'variable_name',
]);

/** Arithmetic: its substitutions run, and single-quoted ones too (`(( '$(cmd)' ))`: quotes do not quote there). */
export function walkArithmetic(walker: ScriptWalker, node: SyntaxNode, frame: Frame): void {
  runInner(node, walker.wordScope(frame), { programs: [], processSubstitution: false }, true);
}

/** The operands of a test or an `unset`, resolved as words (expressions are followed down to them). */
export function walkOperands(walker: ScriptWalker, node: SyntaxNode, frame: Frame): void {
  for (const c of node.namedChildren) {
    if (c.type === 'comment') continue;
    if (OPERAND_WORDS.has(c.type)) walkWords(walker, c, frame);
    else if (c.type.endsWith('_expression') || c.type === 'test_command') walkOperands(walker, c, frame);
    else walker.visit(c, frame);
  }
}

/** Code in the array subscripts of names a test or declaration evaluates (`declare 'a[$(…)]=1'`), one level deeper. */
export function walkSubscripts(walker: ScriptWalker, node: SyntaxNode, frame: Frame): void {
  walkEvaluated(walker, subscriptCode(node.text), frame, node.text);
}

/** Walks code bash runs when it evaluates a subscript (see subscripts.ts), one level deeper. */
export function walkEvaluated(walker: ScriptWalker, codes: string[], frame: Frame, origin: string): void {
  if (codes.length === 0) return;
  const inner = deeper(frame);
  for (const code of codes) walker.nestedScript(code, inner, origin);
}

/** Resolves words only for their side effects (substitutions inside them run). */
export function walkWords(walker: ScriptWalker, node: SyntaxNode, frame: Frame): void {
  const word = node.type === 'variable_assignment' ? node.childForFieldName('value') : node;
  if (word) resolveWord(word, walker.wordScope(frame));
}
