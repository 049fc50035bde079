// Nested code of programs that run commands later or elsewhere on this machine: crontab lines, at and batch jobs,
// screen and tmux sessions, daemons started by start-stop-daemon.
import { writtenContents, type CommandView } from '../view.ts';
import type { Word } from '../word.ts';
import { joinWords } from '../unwrap.ts';
import { optionValues, script, stdinScript, text, writtenScript } from './support.ts';
import type { NestedCode, NestedEntry } from './support.ts';

/**
 * `crontab FILE` or `crontab -` (stdin) installs a table whose lines are commands cron runs later: `* * * * * cmd`,
 * `@reboot cmd`. The table is known from a here-doc, a here-string, an evaluable pipe or a file written earlier in
 * the same command line (known lines of a partly known stdin count: `(crontab -l; echo '@reboot cmd') | crontab -`).
 * `-l`, `-r`, `-e` install nothing from here.
 */
function cronCode(out: NestedCode[], view: CommandView, args: Word[]): void {
  if (args.some((w) => /^-[a-zA-Z]*[lre]/.test(w.value) && !w.value.startsWith('--'))) return;
  const file =
    args.find((w, i) => !w.value.startsWith('-') && args[i - 1]?.value !== '-u') ?? args.find((w) => w.value === '-');
  const table = file === undefined || file.value === '-' ? view.stdin?.text : writtenContents(view.written, file);
  if (table === undefined) return;
  for (const line of table.split('\n')) {
    const entry = line.trim();
    if (entry === '' || entry.startsWith('#') || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(entry)) continue;
    const m = /^(?:@\w+|(?:\S+\s+){4}\S+)\s+(.*)$/s.exec(entry);
    // An unescaped `%` ends the command (the rest is its stdin).
    if (m) text(out, m[1]!.replace(/(^|[^\\])%.*$/s, '$1').replace(/\\%/g, '%'));
  }
}

/** screen options that take a value, and options after which no command is started (attach, list, wipe). */
const SCREEN_WITH_ARG = ['-S', '-c', '-e', '-h', '-p', '-s', '-t', '-T', '-Logfile'];
const SCREEN_NO_COMMAND = /^-(r|R|RR|x|ls|list|wipe|v|-version|D|d)$/;

/**
 * `screen -dm cmd args` starts cmd; `screen -X stuff 'text'` (or `-Q`) types the text into the session's shell
 * (`\n` and `^M` end a line there).
 */
function screenCode(out: NestedCode[], args: Word[]): void {
  const x = args.findIndex((w) => w.value === '-X' || w.value === '-Q');
  if (x >= 0) {
    if (args[x + 1]?.value === 'stuff' && args.length > x + 2) {
      const typed = args
        .slice(x + 2)
        .map((w) => w.value)
        .join(' ');
      text(out, typed.replace(/\\n|\^M|\\r/g, '\n'));
    }
    return;
  }
  if (args.some((w) => SCREEN_NO_COMMAND.test(w.value)) && !args.some((w) => /^-[dD]m$|^-m$/.test(w.value))) return;
  // `-dmS name`: a cluster whose last letter takes a value takes the next word.
  let at = 0;
  while (at < args.length && args[at]!.value.startsWith('-')) {
    at += SCREEN_WITH_ARG.includes(args[at]!.value) || /^-[a-zA-Z]*[ScehpstT]$/.test(args[at]!.value) ? 2 : 1;
  }
  if (at < args.length) out.push({ kind: 'argv', words: args.slice(at) });
}

/** tmux subcommands that start a shell command (their operands), with the letters of their options that take a value. */
const TMUX_RUNS: Record<string, string> = {
  'new-session': 'cefFnstxy',
  new: 'cefFnstxy',
  'new-window': 'ceFnt',
  neww: 'ceFnt',
  'split-window': 'celtF',
  splitw: 'celtF',
  'respawn-pane': 'cet',
  respawnp: 'cet',
  'respawn-window': 'cet',
  respawnw: 'cet',
  'run-shell': 'cdt',
  run: 'cdt',
  'if-shell': 't',
  if: 't',
  'display-popup': 'bcdehsStTwxy',
  popup: 'bcdehsStTwxy',
  'send-keys': 'cNt',
  send: 'cNt',
};

/** The operands of a tmux subcommand: options (`-d`, `-t name`, `-tname`, `-dc dir`) left out. */
function tmuxOperands(words: Word[], valueLetters: string): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const a = words[i]!.value;
    if (a === '--') {
      out.push(...words.slice(i + 1));
      break;
    }
    if (/^-[a-zA-Z]+$/.test(a)) {
      // In a cluster, the first letter that takes a value takes the rest of the word, or the next word.
      const at = [...a.slice(1)].findIndex((c) => valueLetters.includes(c));
      if (at >= 0 && at === a.length - 2) i++;
      continue;
    }
    out.push(words[i]!);
  }
  return out;
}

/** Keys `send-keys` names that type no text (Enter ends the line the words before it typed). */
const TMUX_KEYS = /^(Enter|C-m|C-j|KPEnter|Space|Tab|Escape|BSpace)$/;

/**
 * tmux commands that run shell code: `new-session 'cmd'`, `split-window cmd args`, `run-shell 'cmd'`, and
 * `send-keys 'text' Enter`, which types the text into the shell of a pane.
 */
function tmuxCode(out: NestedCode[], args: Word[]): void {
  // Global options first (`-L socket`, `-f file`, `-S path`), then commands separated by `;`.
  let start = 0;
  while (start < args.length && args[start]!.value.startsWith('-'))
    start += /^-[LSfcT]$/.test(args[start]!.value) ? 2 : 1;
  while (start < args.length) {
    let end = args.findIndex((w, k) => k > start && (w.value === ';' || w.value === '\\;'));
    if (end < 0) end = args.length;
    const letters = TMUX_RUNS[args[start]!.value];
    if (letters !== undefined) {
      let operands = tmuxOperands(args.slice(start + 1, end), letters);
      if (args[start]!.value.startsWith('send')) operands = operands.filter((w) => !TMUX_KEYS.test(w.value));
      if (operands.length) out.push({ kind: 'script', word: joinWords(operands) });
    }
    start = end + 1;
  }
}

export const SCHEDULER_ENTRIES: NestedEntry[] = [
  {
    programs: ['crontab'],
    nested(out, view, args) {
      cronCode(out, view, args);
    },
  },
  {
    programs: ['at', 'batch'],
    nested(out, view, args) {
      // `at now <<< 'cmd'`, `echo cmd | at now`: the commands come from stdin, or from the file `-f` names.
      if (args.some((w) => /^-[a-zA-Z]*[lrdc]$/.test(w.value) || w.value === '--list')) return;
      const file = optionValues(args, '-f')[0];
      if (file) {
        script(out, file, true);
        writtenScript(out, view, file);
      } else stdinScript(out, view);
    },
  },
  {
    programs: ['screen'],
    nested(out, _view, args) {
      screenCode(out, args);
    },
  },
  {
    programs: ['tmux'],
    nested(out, _view, args) {
      tmuxCode(out, args);
    },
  },
  {
    programs: ['start-stop-daemon'],
    nested(out, _view, args) {
      // `--exec PROG … -- ARGS`: with --start it runs PROG with the words after `--`.
      const exec = optionValues(args, '--exec', '-x', '--startas', '-a').at(-1);
      const dashes = args.findIndex((w) => w.value === '--');
      if (!exec || !args.some((w) => w.value === '--start' || w.value === '-S')) return;
      out.push({ kind: 'argv', words: [exec, ...(dashes >= 0 ? args.slice(dashes + 1) : [])] });
    },
  },
];
