// Inline code whose every spawn is a command line written out in literals (`subprocess.check_output(['git',
// 'rev-parse', 'HEAD'])`): such a spawn is judged as the command it runs, not asked as a spawn.
import { BACKTICK_LANGUAGES, TCL, type InlineCode } from './inline-code.ts';

/** Calls that run a program by name or command line (their first argument says which). */
const SPAWN_CALL =
  /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`|\b(?:os\s*\.\s*)?(system|popen|exec[lv]p?e?|spawn[lv]?p?e?|exec|spawn|execSync|execFile|execFileSync|spawnSync|check_output|check_call|call|run|Popen|getoutput|getstatusoutput|shell_exec|passthru)\b(\s*\()?/g;
/**
 * Other ways to start a program, or to reach one by a computed name or a second reference (`f = os.system`,
 * `cp['exec' + 'Sync']`, `.apply(`, `send(:system`): with any of them the spawn is not plainly known.
 */
const OTHER_SPAWN =
  /\b(fork|execa|Deno|Bun|Kernel|Open3|IO\s*\.\s*popen|pty|getattr|__import__|importlib|binding|Function|eval|compile|proc_open|do\s+shell\s+script|apply|bind|send|public_send|method|Reflect|globals|locals|vars|CORE|import\s+\w+\s+as)\b|\b(system|exec|spawn)\s+[$@]|%x[({[]|[\w)\]]\s*\[\s*["'`]|&\{|\bfrom\s+(os|subprocess|child_process)\s+import\b|\bimport\s*\{[^}]*\b(exec|spawn)/;
/** Keyword options a literal call may carry without changing what runs (not `input=`, `env=`, `executable=`, `shell:` a path). */
const PLAIN_OPTION =
  /^(check|capture_output|text|stdout|stderr|encoding|errors|timeout|universal_newlines|cwd|shell|bufsize|close_fds|stdio|maxBuffer|windowsHide|killSignal)$/;

/**
 * Whether every program the code starts is named by literals (`subprocess.check_output(['git', 'rev-parse',
 * 'HEAD'])`, `execSync('git describe --tags')`, Ruby's `` `git rev-parse HEAD` ``): those command lines are walked as
 * commands themselves (shellStringsIn), so the spawn tells nothing more. Each spawning name must be such a call (a
 * second reference — `f = os.system` — or a call with a computed argument, escapes in the literal, or options that
 * feed it input, environment or another executable, and nothing is known), and no other way of starting a program
 * may appear.
 */
export function spawnsOnlyKnownCommands(code: InlineCode): boolean {
  if (code.language === 'awk' || TCL.test(code.language) || OTHER_SPAWN.test(code.outside)) return false;
  // In Python and JavaScript exec(…) evaluates code: a string given to it is not a command line.
  if (!BACKTICK_LANGUAGES.test(code.language) && /\bexec\s*\(/.test(code.outside.replace(/\.\s*exec\s*\(/g, '')))
    return false;
  let calls = 0;
  for (const m of code.code.matchAll(SPAWN_CALL)) {
    const text = m[0];
    if (text.startsWith('`')) {
      if (BACKTICK_LANGUAGES.test(code.language)) {
        if (/[$@\\]|#\{/.test(text)) return false;
        calls++;
      }
      continue;
    }
    if (m[1] === undefined) continue; // a string literal, skipped whole
    // A spawning name that is not called here (`f = os.system`, `map(os.system, …)`): a reference that may run anything.
    if (m[2] === undefined) return false;
    if (!literalArguments(code.code, m.index + text.length)) return false;
    calls++;
  }
  return calls > 0;
}

/**
 * After a call's `(`: a string or a list of strings without escapes, then `)`; or, after a string (node's `spawn('git',
 * [...])`), a list of strings; then only plain keyword options (`check=True`, `{ stdio: 'inherit' }`).
 */
function literalArguments(code: string, at: number): boolean {
  const start = skipBlanks(code, at);
  let i = literalOrList(code, start);
  if (i < 0) return false;
  i = skipBlanks(code, i);
  if (code[i] === ',' && code[start] !== '[' && code[skipBlanks(code, i + 1)] === '[') {
    i = literalOrList(code, skipBlanks(code, i + 1));
    if (i < 0) return false;
    i = skipBlanks(code, i);
  } else if (code[start] !== '[') {
    // `system("make", "test")`: each further argument a plain string too.
    while (code[i] === ',' && /["']/.test(code[skipBlanks(code, i + 1)] ?? '')) {
      i = endOfLiteral(code, skipBlanks(code, i + 1));
      if (i < 0) return false;
      i = skipBlanks(code, i);
    }
  }
  return plainOptions(code, i);
}

/** `)`, or `, name=value …)` / `, { name: value, … })` with only PLAIN_OPTION names and simple values. */
function plainOptions(code: string, i: number): boolean {
  if (code[i] === ')') return true;
  if (code[i] !== ',') return false;
  const rest = code.slice(i + 1, i + 400);
  const close = /^\s*\{([^{}]*)\}\s*\)|^((?:\s*\w+\s*=\s*[\w.'"-]+\s*,?)*)\s*\)/.exec(rest);
  if (!close) return false;
  const pairs = (close[1] ?? close[2] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return pairs.every((p) => {
    const m = /^["']?(\w+)["']?\s*[:=]\s*(.+)$/.exec(p);
    return m !== null && PLAIN_OPTION.test(m[1]!) && !(m[1] === 'shell' && /^["']/.test(m[2]!));
  });
}

/** The index after a string literal (with no escapes) or a bracketed list of them at `i`, or -1. */
function literalOrList(code: string, i: number): number {
  if (code[i] === '"' || code[i] === "'") return endOfLiteral(code, i);
  if (code[i] !== '[') return -1;
  i = skipBlanks(code, i + 1);
  while (code[i] !== ']') {
    i = endOfLiteral(code, i);
    if (i < 0) return -1;
    i = skipBlanks(code, i);
    if (code[i] === ',') i = skipBlanks(code, i + 1);
    else if (code[i] !== ']') return -1;
  }
  return i + 1;
}

/** The index after a plain string literal at `i` (an escape inside — `\x7c`, `\u007c` — makes it not plain: -1). */
function endOfLiteral(code: string, i: number): number {
  const quote = code[i];
  if (quote !== '"' && quote !== "'") return -1;
  for (let k = i + 1; k < code.length; k++) {
    if (code[k] === '\\' || code[k] === '\n') return -1;
    if (code[k] === quote) return k + 1;
  }
  return -1;
}

function skipBlanks(code: string, i: number): number {
  while (i < code.length && /\s/.test(code[i]!)) i++;
  return i;
}
