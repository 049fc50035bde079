// One simple command in three stages: resolve what runs (resolve.ts), judge it in the script's state before it runs
// (judge.ts), then apply what running it changes for the commands after it (effects.ts).
import type { ScriptWalker } from './walker.ts';
import type { Frame } from './frame.ts';
import type { CommandView, Redirect } from './view.ts';
import type { Word } from './word.ts';
import { fileWrites, resolveCommand, type CommandInfo } from './resolve.ts';
import { judgeCommand, lookupOutput } from './judge.ts';
import { applyEffects } from './effects.ts';
import { commandPaths } from './paths.ts';
import { evaluateCommand } from './static-eval.ts';
import { matchDanger } from '../catalog/danger.ts';

export type { CommandInfo, NameKind } from './resolve.ts';

/** Analyses one simple command given as resolved words; returns its static stdout when it is evaluable. */
export function processCommand(walker: ScriptWalker, words: Word[], info: CommandInfo): string | undefined {
  walker.checkTime();
  if (words.length === 0) {
    processBareRedirects(walker, info.redirects, info.frame, info.text);
    return undefined;
  }
  const resolved = resolveCommand(walker, words, info, processCommand);
  if (!('run' in resolved)) return resolved.judgedAs;
  const { run } = resolved;
  const view = judgeCommand(walker, run);
  if (run.noExec) return lookupOutput(run);
  const evaluable = run.wrappers.length === 0 && !run.argv.some((w) => w.dynamic);
  const output = evaluable ? evaluateCommand(run.program, view.args, info.stdin?.text) : undefined;
  if (output !== undefined) walker.budget.word(output.length, "a command's output");
  applyEffects(walker, run, view, output);
  return output;
}

/** Redirections with no command (`> f`, `$(<file)`, `{ …; } > /dev/sda`): paths and device writes still count. */
export function processBareRedirects(walker: ScriptWalker, redirects: Redirect[], frame: Frame, text: string): void {
  if (redirects.length === 0) return;
  const { state } = walker;
  const view: CommandView = {
    argv: [],
    words: [],
    program: '',
    args: [],
    wrappers: [],
    redirects,
    text,
    home: walker.home,
    downloads: state.downloads,
    written: state.written,
  };
  walker.report(matchDanger(view));
  walker.paths.push(...commandPaths(view, redirects, frame.base));
  if (fileWrites(redirects).length > 0) walker.readOnly = false;
}
