// Loops: a `for` over a few known items walks its body once per item; a `while true` that only forks is a fork loop.
import type { ScriptWalker } from './walker.ts';
import type { SyntaxNode } from './syntax.ts';
import type { Frame } from './frame.ts';
import type { Stdin } from './view.ts';
import { resolveWord, type Word } from './word.ts';
import { wordPath } from './paths.ts';
import { ANALYSIS_FINDINGS } from '../catalog/analysis-findings.ts';

/** How many known items of a `for` loop are walked one by one (each walk of the body costs a walk). */
const LOOP_ITEMS_WALKED = 4;

/** A `while` (or `until`) loop. */
export function walkWhile(walker: ScriptWalker, node: SyntaxNode, frame: Frame, stdin: Stdin | undefined): undefined {
  walker.children(node, frame, stdin);
  if (isForkLoop(node)) {
    const f = ANALYSIS_FINDINGS.forkLoop;
    walker.found.push({ id: f.id, risk: f.risk, reason: f.reason, command: node.text });
  }
  return undefined;
}

/** A `for` loop: its items resolved, its body walked per known item or once with the variable unknown. */
export function walkFor(walker: ScriptWalker, node: SyntaxNode, frame: Frame): undefined {
  const variable = node.childForFieldName('variable');
  if (variable) frame.vars.set(variable.text, undefined);
  const items: Word[] = [];
  for (const c of node.namedChildren) {
    if (c.type === 'do_group') {
      // `for f in ~/.??h/*; do cat "$f"; done`: the files a glob in the list matches are what the body reads.
      for (const w of items) if (w.glob) walker.paths.push(wordPath(w, node.text, frame.base));
      // `for d in src lib; do grep -rn x "$d"; done`: a few known items are walked one by one, the variable
      // set to each (a glob stands for its matches: `packages/*/`); more, or unknown ones, leave it unknown.
      if (variable && items.length > 0 && items.length <= LOOP_ITEMS_WALKED && !items.some((w) => w.dynamic)) {
        for (const w of items) {
          walker.checkTime();
          frame.vars.set(variable.text, w.value);
          walker.visit(c, frame);
        }
      } else walker.visit(c, frame);
    } else if (c !== variable) items.push(...resolveWord(c, walker.wordScope(frame)));
  }
  return undefined;
}

/**
 * `while true; do bash & done`: a loop whose condition is always true (`true`, `:`, `[ 1 ]`, `(( 1 ))`) and whose body
 * puts commands in the background without anything that waits, sleeps or leaves the loop.
 */
function isForkLoop(node: SyntaxNode): boolean {
  const condition = node.childForFieldName('condition')?.text.replace(/;\s*$/, '').trim();
  const body = node.childForFieldName('body')?.text ?? '';
  if (
    condition === undefined ||
    !/^(true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))$/.test(condition) ||
    !node.text.startsWith('while')
  )
    return false;
  return /(^|[^&])&(?!&)/.test(body.replace(/>&|&>|<&/g, '')) && !/\b(sleep|wait|break|exit|return|read)\b/.test(body);
}
