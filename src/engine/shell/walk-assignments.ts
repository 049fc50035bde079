// Assignments and declarations: the values variables and arrays get, the secrets they hold, the paths they hand the
// programs started later, the code their values run, and what the catalogue says about setting them.
import type { ScriptWalker } from './walker.ts';
import type { SyntaxNode } from './syntax.ts';
import { deeper, type Frame } from './frame.ts';
import { resolveWord, type Word, type WordScope } from './word.ts';
import { programName } from './unwrap.ts';
import { variableCode } from './code-variables.ts';
import { assignedPaths } from './paths.ts';
import { subscriptCodeOf } from './subscripts.ts';
import { referencesSecret } from '../catalog/danger-secrets.ts';
import { assignmentFindings } from '../catalog/danger.ts';
import { walkEvaluated, walkSubscripts, walkWords } from './walk-evaluated.ts';

/** `declare`, `export`, `local`, `readonly`, `typeset`: their assignments, and the words of the rest. */
export function walkDeclaration(walker: ScriptWalker, node: SyntaxNode, frame: Frame): undefined {
  // An assignment's subscript is read in walkAssignment; a quoted name (`declare 'a[$(…)]=1'`) is static text with a
  // subscript, which word resolution walks.
  for (const c of node.namedChildren) {
    if (c.type === 'variable_assignment') walkAssignment(walker, c, frame, node.text);
    else walkWords(walker, c, frame);
  }
  return undefined;
}

/** An assignment (`x=…`, `a[i]=…`, `x+=…`, `a=(…)`); in a declaration `statement` is the whole declaration. */
export function walkAssignment(walker: ScriptWalker, node: SyntaxNode, frame: Frame, statement = node.text): void {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  if (!name) return;
  if (name.type === 'subscript') {
    // `a[$(rm -rf ~)]=1`, `a['$(…)']=1`: bash evaluates the subscript.
    walker.visit(name, frame);
    walkSubscripts(walker, name, frame);
  }
  // A value's own static text is read for subscripts with code as it is resolved (word.ts), its words split or not.
  const scope = walker.wordScope(frame);
  // An array's elements are words of their own (`a=(['$(cmd)']=1 "b")`), each read as it is resolved.
  const words = !value ? [] : value.type === 'array' ? arrayElements(walker, value, scope) : resolveWord(value, scope);
  // `x=$GITHUB_TOKEN`: x holds the secret now (and no longer does once given something else).
  if (name.type !== 'subscript') {
    if (words.some((w) => w.inner?.secret || referencesSecret(w.source))) walker.state.secrets.vars.add(name.text);
    else if (walker.state.secrets.vars.size > 0) walker.state.secrets.vars.delete(name.text);
  }
  // `export K=~/.aws/credentials`: the programs started later are handed the path.
  if (statement !== node.text && /^(export|declare\s+-[a-zA-Z]*x|typeset\s+-[a-zA-Z]*x)\b/.test(statement))
    walker.paths.push(...assignedPaths(name.text, words, statement, frame.base, walker.homeOf(frame)));
  const known = value?.type !== 'array' && words.length <= 1 && !words.some((w) => w.dynamic);
  // An array's `$a` is its first element (`a=(~/.ssh/id_rsa); cat $a`).
  const first = value?.type === 'array' && words[0] && !words[0].dynamic ? words[0].value : undefined;
  let assigned = known ? (words[0]?.value ?? '') : first;
  if (node.text.startsWith('+=', name.endIndex - node.startIndex)) {
    // `x='a[$'; x+='(cmd)]'`: the value is what the two make together, read again as a whole.
    const before = frame.vars.get(name.text);
    assigned = before === undefined || assigned === undefined ? undefined : before + assigned;
    if (assigned !== undefined) walker.budget.word(assigned.length, "a variable's value");
    if (assigned !== undefined && before)
      walkEvaluated(
        walker,
        subscriptCodeOf(assigned).filter((code) => !subscriptCodeOf(before).includes(code)),
        frame,
        node.text,
      );
  }
  walkVariableCode(walker, name.text, words, node.text, frame);
  if (assigned !== undefined && name.type !== 'subscript')
    assignmentStatement(walker, name.text, assigned, statement, frame);
  frame.vars.set(name.text, assigned);
  if (value?.type === 'array' && !words.some((w) => w.dynamic)) walker.state.setArray(name.text, words);
  else if (name.type !== 'subscript') walker.state.setArray(name.text, undefined);
}

/**
 * The elements of an array literal; `"${a[@]}"` of an array known here stands for its elements
 * (`a=("${a[@]}" "${a[@]}")` doubles it: its length is bounded like any expansion).
 */
function arrayElements(walker: ScriptWalker, array: SyntaxNode, scope: WordScope): Word[] {
  const words: Word[] = [];
  for (const c of array.namedChildren) {
    if (c.type === 'comment') continue;
    const whole = /^"?\$\{(\w+)\[@\]\}"?$/.exec(c.text);
    const known = whole ? walker.state.array(whole[1]!) : undefined;
    if (known) {
      let chars = 0;
      for (const w of known) chars += w.value.length;
      walker.budget.charge(chars);
      walker.budget.words(known.length);
      words.push(...known);
    } else words.push(...resolveWord(c, scope));
    walker.budget.array(words.length);
  }
  return words;
}

/** A prefix assignment (`X=1 cmd`): lasts for the command, so only what its value runs matters. */
export function prefixAssignment(walker: ScriptWalker, node: SyntaxNode, frame: Frame): void {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  const words = value ? resolveWord(value, walker.wordScope(frame)) : [];
  if (!name) return;
  // `K=~/.aws/credentials python3 -c '…os.environ["K"]…'`, `GIT_WORK_TREE=$HOME git add …`: a path the command is handed.
  walker.paths.push(...assignedPaths(name.text, words, node.text, frame.base, walker.homeOf(frame)));
  walkVariableCode(walker, name.text, words, node.text, frame);
  // `HISTFILE=/dev/null bash`: the shell it starts keeps no history.
  if (!words.some((w) => w.dynamic) && words.length <= 1)
    assignmentStatement(walker, name.text, words[0]?.value ?? '', node.text, frame);
}

/** Walks what a variable's value runs as code (`PROMPT_COMMAND`, `PS4`, `EDITOR`, `BASH_ENV`: code-variables.ts). */
function walkVariableCode(walker: ScriptWalker, name: string, words: Word[], origin: string, frame: Frame): void {
  const value = words.some((w) => w.dynamic) ? undefined : words.map((w) => w.value).join(' ');
  const code = variableCode(
    name,
    value,
    words.length === 1 ? words[0]!.processOutput : undefined,
    frame.base !== undefined && frame.base !== '.',
  );
  if (code.scripts.length === 0 && !code.unknown) return;
  const inner = deeper(frame);
  for (const script of code.scripts) walker.nestedScript(script, inner, origin);
  if (code.unknown) walker.unknownCode(origin, inner.depth);
}

/**
 * A variable set (or unset) by `statement`, judged by the catalogue (`HISTFILE=/dev/null`). A statement that raises
 * a finding is listed with the commands, so the finding names what it came from and an allow rule can cover it.
 */
function assignmentStatement(
  walker: ScriptWalker,
  name: string,
  value: string | undefined,
  statement: string,
  frame: Frame,
): void {
  const before = walker.found.length;
  assignmentFindings(name, value, statement, walker.found);
  if (walker.found.length === before || walker.commands.some((c) => c.text === statement)) return;
  const argv = statement.split(/\s+/);
  walker.commands.push({
    words: argv,
    argv,
    program: programName(argv[0]!),
    wrappers: [],
    text: statement,
    literal: true,
    depth: frame.depth,
  });
}

/** `unset NAME…` of variables (not `-f` functions): the catalogue judges each name unset (`unset HISTFILE`). */
export function walkUnset(walker: ScriptWalker, node: SyntaxNode, frame: Frame): void {
  const names = node.namedChildren
    .filter((c) => c.type !== 'comment')
    .map((c) => c.text.replace(/^(['"])(.*)\1$/, '$2'));
  if (names.includes('-f')) return;
  for (const name of names) if (!name.startsWith('-')) assignmentStatement(walker, name, undefined, node.text, frame);
}
