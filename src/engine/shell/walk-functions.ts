// Functions the script defines: the definition walked once (what its body prints is judged at the calls), and each
// call's body walked again with the call's words as its parameters (functions.ts keeps the table).
import type { ScriptWalker } from './walker.ts';
import type { SyntaxNode } from './syntax.ts';
import { deeper, type Frame } from './frame.ts';
import type { Word } from './word.ts';
import { processBareRedirects } from './command.ts';
import { referencesSecret } from '../catalog/danger-secrets.ts';
import { ANALYSIS_FINDINGS } from '../catalog/analysis-findings.ts';
import { REDIRECT_TYPES } from './walk-nodes.ts';

/**
 * A function definition: its redirections count, its body is walked (what it prints is judged at the calls), and a
 * body that calls itself through a pipe or in the background is a fork bomb.
 */
export function defineFunction(walker: ScriptWalker, node: SyntaxNode, frame: Frame): undefined {
  const name = node.childForFieldName('name')?.text ?? '';
  const body = node.childForFieldName('body');
  const before = walker.commands.length;
  // `f() { cat; } < ~/.netrc`: a redirection written with the definition applies at every call: its files count.
  const redirects = node.namedChildren.filter((c): c is SyntaxNode => c !== null && REDIRECT_TYPES.has(c.type));
  if (redirects.length > 0)
    processBareRedirects(walker, walker.redirects(redirects, frame).redirects, frame, node.text);
  walker.state.functions.define(name, body);
  const pathsBefore = walker.paths.length;
  // What the body prints goes where a call's output goes: a secret printed is judged at the calls, not here.
  if (body) walker.state.secrets.capture(walker.state.secrets.within(() => walker.visit(body, frame)).output);
  // Paths the body names through its parameters (`grep -rn "$@"`) are unknown here; a call judges them with its words.
  walker.state.functions.defineDone(
    name,
    walker.paths.slice(pathsBefore).filter((p) => p.dynamic),
  );
  const selfCall = walker.commands.slice(before).find((c) => c.program === name || c.argv[0] === name);
  if (selfCall && body && /[|&]/.test(body.text)) {
    const f = ANALYSIS_FINDINGS.forkBomb;
    walker.found.push({ id: f.id, risk: f.risk, reason: f.reason, command: selfCall.text });
  }
  return undefined;
}

/**
 * A call of a function the script defined (`f ~/.ssh/id_rsa` after `f() { cat "$1"; }`): its body is walked again
 * with `$1 $2 …`, `$#` and `"$@"` bound to the call's words, so what it does with them is judged (its definition was
 * walked with them unknown).
 */
export function callFunction(walker: ScriptWalker, name: string, args: Word[], frame: Frame): void {
  if (frame.depth + 1 > walker.limits.maxDepth) return;
  const body = walker.state.functions.callBody(name, args, frame);
  if (!body) return;
  // Each call walks the body again: `f2() { f1 a; f1 b; }` … doubles per level, so the clock is read per call.
  walker.checkTime();
  const inner = deeper(frame);
  for (let i = 1; i <= 9; i++)
    inner.vars.set(String(i), args[i - 1] && !args[i - 1]!.dynamic ? args[i - 1]!.value : args[i - 1] ? undefined : '');
  inner.vars.set('#', String(args.length));
  // A secret passed in (`log "$GITHUB_TOKEN"`) is a secret in the body too.
  const secretArgs = args.flatMap((w, i) => (w.inner?.secret || referencesSecret(w.source) ? [String(i + 1)] : []));
  const addedSecrets = secretArgs.length
    ? [...secretArgs, '@', '*'].filter((n) => !walker.state.secrets.vars.has(n))
    : [];
  for (const n of addedSecrets) walker.state.secrets.vars.add(n);
  const saved = walker.state.array('@');
  walker.state.setArray('@', args.some((w) => w.dynamic) ? undefined : args);
  if (!args.some((w) => w.dynamic)) {
    // A call with known words judges what the definition could not: its unknown paths give way to the call's.
    const unknown = walker.state.functions.settle(name);
    if (unknown) {
      const drop = new Set(unknown);
      for (let i = walker.paths.length - 1; i >= 0; i--) if (drop.has(walker.paths[i]!)) walker.paths.splice(i, 1);
    }
  }
  try {
    walker.state.functions.calling(name, () => walker.visit(body, inner));
  } finally {
    for (const n of addedSecrets) walker.state.secrets.vars.delete(n);
    walker.state.setArray('@', saved);
  }
}
