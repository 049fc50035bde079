// Nested code of shells and shell builtins: `sh -c`, scripts and stdin, `source`, `eval`, aliases, traps, history,
// completion hooks, `script -c`, and the array subscripts that `read`, `mapfile` and `printf -v` store.
import type { CommandView } from '../view.ts';
import type { Word } from '../word.ts';
import { joinWords, suffixWord } from '../unwrap.ts';
import { SHELLS } from '../../catalog/programs.ts';
import { shellReadsStdin, STDIN_FILE } from '../../catalog/danger-exec.ts';
import { subscriptCodeOf } from '../subscripts.ts';
import { printfVariable } from '../static-eval.ts';
import { afterDashes, optionValues, script, stdinScript, text, writtenScript } from './support.ts';
import type { NestedCode, NestedEntry } from './support.ts';

/** `read x <<'EOF'⏎a[$(cmd)]⏎EOF`: the variable holds a subscript with code, which `(( x ))` or `let x` would run. */
function subscriptsRead(out: NestedCode[], view: CommandView): void {
  // (`printf -v 'a[$(cmd)]' x`, `read`, `declare`, `unset`, `test -v`: bash evaluates the array subscript of a name
  // it is given. Such a name is static text with a subscript, which word resolution walks: word.ts. A here-string
  // is a word, read for that as it is resolved.)
  if (view.stdin?.kind === 'heredoc' && view.stdin.text !== undefined)
    for (const code of subscriptCodeOf(view.stdin.text)) text(out, code);
}

/** Completion and array builtins run `-C 'cmd'`: `compgen -C` now, `complete -C` at the next completion, `mapfile -C` per line. */
function completionCommands(out: NestedCode[], args: Word[]): void {
  for (const code of optionValues(args, '-C')) script(out, code);
}

export const SHELL_ENTRIES: NestedEntry[] = [
  {
    programs: [...SHELLS],
    nested(out, view, args) {
      const c = args.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.value));
      const at = c < 0 ? -1 : args.findIndex((w, k) => k > c && (!w.value.startsWith('-') || w.value === '-'));
      // `sh -c 'rm -rf "$0"' ~/work`: the words after the script are $0, $1, …
      if (at >= 0) out.push({ kind: 'script', word: args[at]!, positional: args.slice(at + 1) });
      else if (shellReadsStdin(view)) stdinScript(out, view);
      else {
        const file = args.find((w) => !w.value.startsWith('-'));
        script(out, file, true);
        writtenScript(out, view, file); // `cat > x.sh <<'EOF' … EOF; bash x.sh`
      }
      // `bash --rcfile <(…) -i`: the file is read first.
      for (let i = 0; i < args.length - 1; i++) {
        if (args[i]!.value === '--rcfile' || args[i]!.value === '--init-file') script(out, args[i + 1], true);
      }
    },
  },
  {
    programs: ['source', '.'],
    nested(out, view, args) {
      const file = afterDashes(args)[0];
      if (file && STDIN_FILE.test(file.value)) stdinScript(out, view);
      else {
        script(out, file, true);
        writtenScript(out, view, file);
      }
    },
  },
  {
    programs: ['eval'],
    nested(out, _view, args) {
      const code = afterDashes(args);
      if (code.length) out.push({ kind: 'script', word: joinWords(code) });
    },
  },
  {
    programs: ['alias'],
    nested(out, _view, args) {
      for (const w of args) {
        const eq = w.value.indexOf('=');
        if (eq > 0) text(out, w.value.slice(eq + 1));
      }
    },
  },
  {
    programs: ['trap'],
    nested(out, _view, args) {
      script(out, afterDashes(args)[0]);
    },
  },
  {
    programs: ['compgen', 'complete'],
    nested(out, _view, args) {
      completionCommands(out, args);
    },
  },
  {
    programs: ['mapfile', 'readarray'],
    nested(out, view, args) {
      completionCommands(out, args);
      subscriptsRead(out, view);
    },
  },
  {
    programs: ['read'],
    nested(out, view) {
      subscriptsRead(out, view);
    },
  },
  {
    programs: ['printf'],
    nested(out, _view, args) {
      // `printf -v x '%s[%s(cmd)]' a '$'`: the variable holds what printf writes, maybe a subscript with code.
      const set = !args.some((w) => w.dynamic) ? printfVariable(args.map((w) => w.value)) : undefined;
      if (set?.value !== undefined) for (const code of subscriptCodeOf(set.value)) text(out, code);
    },
  },
  {
    programs: ['script'],
    nested(out, view, args) {
      // `script -qc 'cmd' /dev/null` runs cmd in a shell; without -c the shell reads stdin (`echo cmd | script -q f`).
      const c = args.findIndex((w) => /^-[a-zA-Z]*c$/.test(w.value) || w.value === '--command');
      const eq = args.find((w) => w.value.startsWith('--command='));
      if (c >= 0) script(out, args[c + 1]);
      else if (eq) script(out, suffixWord(eq, 10));
      else stdinScript(out, view);
    },
  },
  {
    programs: ['fc'],
    nested(out, _view, args) {
      // `fc -e 'cmd' -1` runs cmd as the editor of the history entry (and then the entry); FCEDIT likewise.
      for (const code of optionValues(args, '-e')) script(out, code);
    },
  },
  {
    programs: ['history'],
    nested(out, _view, args) {
      // `history -s 'cmd'` puts a command in the history, which `fc -s` then runs.
      if (args[0]?.value === '-s') out.push({ kind: 'script', word: joinWords(args.slice(1)) });
    },
  },
];
