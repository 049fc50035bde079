// Finds code handed to interpreters inline (python -c, perl -e, node -e, awk programs, here-docs) and what it does.
import { writtenContents, type CommandView } from '../shell/view.ts';
import { interpreterOf } from './programs.ts';
import { dataUrlText } from '../file-url.ts';

/** One piece of inline code and its language. */
export interface InlineCode {
  language: string;
  code: string;
  /** The code with its string literals blanked (codeOutsideStrings), which several entries test: made once. */
  outside: string;
}

function piece(language: string, code: string): InlineCode {
  return { language, code, outside: codeOutsideStrings(code) };
}

/** Calls that delete files or trees, in the common scripting languages. */
const DELETE_API =
  /\b(shutil\s*\.\s*rmtree|rmtree|remove_tree|delete-directory|Remove-Item|os\s*\.\s*(remove|unlink|rmdir|removedirs)|rm_rf|rm_r|FileUtils\s*\.\s*(rm|remove)\w*|fs\s*\.\s*(rm|rmdir|unlink)(Sync)?|rmSync|rmdirSync|unlinkSync|remove_dir_all|Deno\s*\.\s*remove|File\s*\.\s*delete|\bunlink\b\s*[(\s]|\brmdir\s*\()/;

/** Calls that delete one file (or an empty directory) by the path they are given. */
const DELETE_ONE =
  /(?:\bos\s*\.\s*(?:remove|unlink|rmdir)|\bFileUtils\s*\.\s*(?:rm|remove)(?!_)|\bfs\s*\.\s*(?:rm|unlink|rmdir)(?:Sync)?|\b(?:rmSync|unlinkSync|rmdirSync)|\bDeno\s*\.\s*remove(?:Sync)?|\bFile\s*\.\s*delete|(?<![.\w])(?:unlink|rmdir))\s*(?:\(\s*|\s+)|(?:\bPath|\bpathlib\s*\.\s*Path)\s*\(\s*(?=(["'])[^"'\n]*\1\s*\)\s*\.\s*unlink\s*\()/g;

/** A delete function handed on by name to run over a list: PHP's `array_map('unlink', …)`, `array_walk(…, 'unlink')`. */
const CALLBACK_DELETE = /\b(?:array_map|array_walk|call_user_func(?:_array)?)\s*\([^;]*?["'](?:unlink|rmdir)["']/;

/** Logs, caches and scratch files a program writes again: the globs a PHP cleanup may delete over. */
const SCRATCH_GLOB = /^(?!\/|~|\.\.)(?:[\w.-]+\/)*(?:logs?|cache|caches|tmp|temp|sessions|views)\/[^/]*$|\.log$/;

/**
 * Whether inline code deletes files or trees (DELETE_API) other than named files of the project: a call deleting one
 * file given as a relative string literal (`os.remove('coverage.xml')`, `fs.unlinkSync('dist/a.js')`,
 * `Path('out.txt').unlink()`) deletes no more than `rm coverage.xml` does. A tree deletion, `recursive`, a path
 * from a variable, an absolute, home, parent or hidden path (`.git/…`) still count.
 */
export function deletesFiles(code: InlineCode): boolean {
  // PHP's delete handed on by name over a list (`array_map("unlink", glob("app/Models/*.php"))`).
  // Logs and caches cleared so (`glob("storage/logs/*.log")`, `bootstrap/cache/*`) are as `rm storage/logs/*.log`.
  if (CALLBACK_DELETE.test(code.code)) {
    const globs = [...code.code.matchAll(/\bglob\s*\(\s*["']([^"'\n]*)["']/g)].map((m) => m[1]!);
    if (globs.length === 0 || !globs.every((g) => SCRATCH_GLOB.test(g))) return true;
  }
  if (!DELETE_API.test(code.outside)) return false;
  if (/recursive|rmtree|remove_tree|removedirs|rm_r|remove_dir|File::Path|delete-directory|-Recurse/i.test(code.code))
    return true;
  let calls = 0;
  for (const m of code.code.matchAll(DELETE_ONE)) {
    calls++;
    const rest = code.code.slice(m.index + m[0].length);
    const literal = /^(["'])([^"'\\\n]*)\1/.exec(rest);
    if (!literal || literal[2] === '' || /^[~/]|(^|\/)\.|\$|\{/.test(literal[2]!)) return true;
    // A path built on the literal (`unlinkSync('src/' + f)`, `unlink("lib/" . $f)`, `Path('src') / f`) names any file.
    if (/^\s*[+./]/.test(rest.slice(literal[0].length))) return true;
  }
  return calls === 0;
}

/**
 * The home directory found at run time, in the usual spellings: Python's `os.environ["HOME"]`, `os.getenv('HOME')`,
 * `Path.home()`, `expanduser("~")` (or of anything but one whole literal path, which the path check reads itself),
 * `getpwuid(…)`; node's `os.homedir()`, `process.env.HOME`; Ruby's `Dir.home`, `ENV["HOME"]`, `File.expand_path("~")`;
 * Perl's `$ENV{HOME}`, `glob("~")`; PHP's `getenv("HOME")`, `$_SERVER["HOME"]`.
 */
const HOME_AT_RUN_TIME =
  /\benviron\s*(?:\[\s*|\.\s*get\s*\(\s*)["']HOME["']|\bgetenv\s*\(\s*["']HOME["']|\bPath\s*\.\s*home\s*\(|\bexpanduser\s*\(\s*(?!(["'])~?\/[^"'\n]*[^/"'\n]\1\s*\))|\bgetpwuid\b|\bhomedir\s*\(|\benv\s*(?:\.\s*HOME\b|\[\s*["']HOME["'])|\bDir\s*\.\s*home\b|\bENV\s*(?:\[\s*["']HOME["']|\.\s*fetch\s*\(\s*["']HOME["'])|\bexpand_path\s*\(\s*["']~["']|\$ENV\s*\{\s*["']?HOME["']?\s*\}|\bglob\s*\(\s*["']~["']|\$_(?:SERVER|ENV)\s*\[\s*["']HOME["']/;

/** Calls that read a file's contents. */
const FILE_READ =
  /(?<![\w.])open\s*\(|\bio\s*\.\s*open\s*\(|\bcodecs\s*\.\s*open\s*\(|\.\s*(?:read_text|read_bytes|open)\s*\(|\bshutil\s*\.\s*copy\w*\s*\(|\b(?:readFileSync|readFile|createReadStream|copyFileSync|copyFile|cpSync|readTextFile|readTextFileSync)\s*\(|\bBun\s*\.\s*file\s*\(|\b(?:File|IO)\s*\.\s*(?:read|binread|readlines|open|foreach)\b|\bFileUtils\s*\.\s*cp\w*|\bopen\s*(?:my\s+)?[\w$]|\b(?:file_get_contents|fopen|readfile|file)\s*\(/;

/** Names a statement assigns (`h = …`, `const p = …, q = …`, `my $h = …`). */
const ASSIGNED_NAMES = /(?:^|[\s,(])\$?([A-Za-z_]\w*)\s*=(?![=>~])/g;

/**
 * Whether inline code reads a file under a path it builds from the home directory at run time
 * (`open(os.path.join(os.environ["HOME"], ".s"+"sh", "id_rsa"))`, `fs.readFileSync(path.join(os.homedir(), ".ss"+"h/id_rsa"))`):
 * pieces glued at run time name any file, so no literal in the code shows which. Judged a statement at a time: a
 * statement reading a file with the home in it, or a variable holding it (`h = Path.home()`, `p = h / x`, then
 * `open(p)`). Code that only prints the home, or reads files of the project beside it, does not count.
 */
export function readsUnderHome(code: InlineCode): boolean {
  if (!HOME_AT_RUN_TIME.test(code.code) || !FILE_READ.test(code.code)) return false;
  const holders: string[] = [];
  for (const statement of code.code.split(/[;\n]/)) {
    const home =
      HOME_AT_RUN_TIME.test(statement) || holders.some((h) => new RegExp(`(?<![\\w.])\\$?${h}\\b`).test(statement));
    if (!home) continue;
    if (FILE_READ.test(statement)) return true;
    for (const m of statement.matchAll(ASSIGNED_NAMES)) if (holders.length < 64) holders.push(m[1]!);
  }
  return false;
}

/** Calls that start a shell or another program. */
export const SPAWN_API =
  /\b(from\s+(?:os|subprocess|pty)\s+import\b|os\s*\.\s*(system|popen|exec\w*|spawn\w*)|getattr\s*\(\s*__import__|process\s*\.\s*binding\s*\(|subprocess|pty\s*\.\s*spawn|child_process|execSync|execFileSync|spawnSync|spawn\s*\(|(?<!\.)system\s*\(|IO\s*\.\s*popen|Kernel\s*\.\s*(exec|system|spawn)|Open3|proc_open|shell_exec|passthru|popen\s*\(|Deno\s*\.\s*(run|Command)|Bun\s*\.\s*spawn|do\s+shell\s+script)/;

/** Backticks and `%x(…)` run a shell command in Perl, Ruby and PHP, and make Julia's commands (in JavaScript they quote a template). */
const BACKTICK_SPAWN = /`[^`]+`|%x[({[]/;
export const BACKTICK_LANGUAGES = /^(perl|ruby|php|julia)/;

/**
 * Perl's and Ruby's `system`/`exec`/`spawn` called without parentheses on a variable, an array or a list of strings
 * (`system $c`, `system @argv`, `exec "rm", "-rf", Dir.home`), tested on code outside strings. A bare word after the
 * name is not taken (`print if /system error/` is a regular expression).
 */
export const BARE_SPAWN = /(?:^|[^\w.$@:>])(?:system|exec|spawn)\s*[$@"'(]/;
const BARE_SPAWN_LANGUAGES = /^(perl|ruby)/;

/** Whether inline code starts a program (SPAWN_API, and for Perl and Ruby BARE_SPAWN). */
export function spawnsProgram(code: InlineCode): boolean {
  return (
    SPAWN_API.test(code.outside) ||
    (BARE_SPAWN_LANGUAGES.test(code.language) && BARE_SPAWN.test(code.outside)) ||
    (BACKTICK_LANGUAGES.test(code.language) && BACKTICK_SPAWN.test(code.outside))
  );
}

/**
 * Code that evaluates what it has just decoded: `exec(base64.b64decode(…))`, `eval(Buffer.from(…, 'base64')…)`,
 * `eval(atob(…))`, `exec(zlib.decompress(…))`. Tested on code outside strings (the payload is a string).
 */
export const DECODED_EVAL =
  /\b(?:exec|eval|(?<!\.)compile|Function|execfile|runInThisContext|runInNewContext|system|popen|execSync|spawnSync)\s*\([\s\S]{0,200}?(?:b64decode|a85decode|b32decode|fromhex|unhexlify|decompress|marshal\s*\.\s*loads|codecs\s*\.\s*decode|atob\s*\(|fromCharCode|Buffer\s*\.\s*from|pack\s*\(\s*["']H)/;

/**
 * A socket opened (`socket.socket(…)`, Perl's `socket(S, …)`, `fsockopen`, `TCPSocket`, `net.connect`) and wired to a
 * shell or a spawned process: a reverse shell. `socket.gethostname()` opens nothing; `cursor.execute` is no exec.
 */
export const REVERSE_SHELL =
  /(socket\s*\.\s*(?:socket|create_connection)\s*\(|(?<![\w.])socket\s*\(|fsockopen|TCPSocket|net\s*\.\s*(connect|Socket)|IO::Socket)[\s\S]{0,400}(dup2|pty\s*\.\s*spawn|\/bin\/(ba)?sh|subprocess|\bexec(?!ute)|spawn|popen)/;

/** PowerShell (the language name is the program's). */
export const POWERSHELL = /^(pwsh|powershell)(\.exe)?$/;

/** The home as PowerShell code writes it at the start of a path: `~`, `$HOME`, `$env:HOME`, `$env:USERPROFILE`, `C:\Users\dev`. */
const POWERSHELL_HOME =
  /^(?:~|\$HOME|\$\{HOME\}|\$env:(?:HOME|USERPROFILE)|\$\{env:(?:HOME|USERPROFILE)\}|[a-z]:[\\/]Users[\\/][^\\/]+)(?=[\\/]|$)/i;

/**
 * Paths PowerShell code names, as bare words or in quotes (`Get-Content ~/.ssh/id_rsa`, `gc $env:USERPROFILE\.aws\credentials`,
 * `[IO.File]::ReadAllText("$HOME/.netrc")`): a word starting at the home (written `~/…`) or at `/`, backslashes as
 * slashes. Issue 26, round 5.
 */
export function powershellPaths(code: string): string[] {
  const out: string[] = [];
  for (const token of code.split(/[\s;|(),{}=]+/)) {
    const word = token.replace(/^["']|["']$/g, '');
    const home = POWERSHELL_HOME.exec(word);
    const path = (home ? '~' + word.slice(home[0].length) : word).replace(/\\/g, '/');
    if (/^(~(\/|$)|\/[^/])/.test(path) && out.length < 32) out.push(path);
  }
  return out;
}

/** Tcl interpreters (the language name is the program's). */
export const TCL = /^(tclsh|wish|expect)/;

/**
 * Code that fetches from the network and evaluates it: `exec(urlopen(…).read())`, `eval(await (await fetch(u)).text())`,
 * `fetch(u).then(r => r.text()).then(eval)`, `pickle.loads(requests.get(u).content)`, PHP's `include 'http://…'`,
 * Ruby's and Perl's `eval URI.open(u).read` / `eval get(u)`, PowerShell's `iwr u | iex`. A method named `load` (`json.load(urlopen(…))`)
 * only parses data; node's `require('https')` loads a module, not the URL it fetches later.
 */
export const REMOTE_EVAL =
  /(?:(?<![\w.$])(?:exec|eval|Function|load)\s*\(|(?<![\w.$])eval\s+|\b(?:pickle|marshal|dill|cloudpickle)\s*\.\s*loads?\s*\()\s*.{0,200}(?:urlopen|urllib|requests\s*\.\s*get|https?:\/\/|fetch\s*\(|http\s*\.\s*get|Net::HTTP|open-uri|LWP)|\b(?:require|include)(?:_once)?\s*\(?\s*["'](?:https?|ftp):\/\/|\bfetch\s*\([\s\S]{0,300}\bthen\s*\(\s*(?:eval|Function)\s*\)|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString|DownloadData)\b[\s\S]{0,300}\b(?:iex|Invoke-Expression)\b|\b(?:iex|Invoke-Expression)\b[\s\S]{0,300}\b(?:DownloadString|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b/is;

/** The awk program of an awk command (first operand, unless -f gives a file). */
function awkProgram(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-f' || a === '--file') return undefined;
    if (a === '-v' || a === '-F' || a === '--assign' || a === '--field-separator') {
      i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) continue;
    return a;
  }
  return undefined;
}

/** The code with the contents of its string literals blanked: API names inside strings are only data. */
function codeOutsideStrings(code: string): string {
  return code.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (m) => m[0]! + m[0]!);
}

/** Several entries and the path finder ask for the same command's code, one view after another: the last is kept. */
let memo: { view: CommandView; code: InlineCode[] } | undefined;

/** Every piece of inline code the command hands to an interpreter. */
export function inlineCode(view: CommandView): InlineCode[] {
  if (memo?.view !== view) memo = { view, code: findInlineCode(view) };
  return memo.code;
}

function findInlineCode(view: CommandView): InlineCode[] {
  const out: InlineCode[] = [];
  if (/^(awk|gawk|mawk|nawk|busybox-awk)$/.test(view.program)) {
    const program = awkProgram(view.args);
    if (program !== undefined) out.push(piece('awk', program));
    // `awk -f -` / `-f /dev/stdin`: the program is the known stdin.
    else if (
      view.stdin?.text !== undefined &&
      view.args.some(
        (a, i) => (a === '-f' || a === '--file') && /^(-|\/dev\/stdin|\/dev\/fd\/0)$/.test(view.args[i + 1] ?? ''),
      )
    )
      out.push(piece('awk', view.stdin.text));
    return out;
  }
  const spec = interpreterOf(view.program);
  if (!spec) return out;
  const { args } = view;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    // `-e code`, `--eval code`, and clusters ending in the flag (`perl -le 'code'`).
    const clusterEnd = /^-[a-zA-Z]+$/.test(a) && spec.inline.some((f) => f.length === 2 && a.endsWith(f[1]!));
    if (spec.inline.includes(a) || clusterEnd) {
      const code = args[++i];
      if (code !== undefined) out.push(piece(view.program, code));
    } else if (spec.inline.some((f) => f.startsWith('--') && a.startsWith(f + '='))) {
      out.push(piece(view.program, a.slice(a.indexOf('=') + 1)));
    }
  }
  // `node --import 'data:text/javascript,…'`: a module given as a data: URL is code in the command line.
  if (view.program === 'node' || view.program === 'deno' || view.program === 'bun') {
    for (let i = 0; i < args.length; i++) {
      const m = /^(?:--import|--require|-r|--loader|--experimental-loader)(?:=(.*))?$/s.exec(args[i]!);
      const url = m ? (m[1] ?? args[i + 1]) : undefined;
      const code = url === undefined ? undefined : dataUrlText(url);
      if (code !== undefined) out.push(piece('node', code));
    }
  }
  // A here-doc or here-string given to an interpreter without a script is its program.
  if (
    view.stdin &&
    view.stdin.text !== undefined &&
    !view.stdin.dynamic &&
    !args.some((a) => !a.startsWith('-') || a === '-')
  ) {
    out.push(piece(view.program, view.stdin.text));
  }
  // `echo 'import shutil; …' > x.py; python3 x.py`: a script this command line wrote with known contents.
  if (out.length === 0) {
    const contents = writtenContents(view.written, scriptOperand(args));
    if (contents !== undefined) out.push(piece(view.program, contents));
  }
  return out;
}

/** The script an interpreter or shell runs: its first operand (none with -c/-e code or -m module). */
export function scriptOperand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (/^-[a-zA-Z]*[cemE]$/.test(a) || a === '--eval' || a === '-r') return undefined;
    if (a === '--') return args[i + 1];
    if (a.startsWith('-')) continue;
    return a;
  }
  return undefined;
}

/**
 * Calls that start a program from a list of arguments, as the command line they amount to: `os.execvp("rm", ["rm",
 * "-rf", "/root"])`, `spawn("rm", ["-rf", dir])`, `execFileSync('rm', […])`, Perl's `system "rm", "-rf", $ENV{HOME}`.
 * The home in its usual spellings is `~`; any other expression is an unknown word.
 */
function argvCalls(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(ARGV_CALL)) {
    const program = m[2]!;
    let args = [...m[3]!.matchAll(ARGV_ITEM)].map((x) =>
      x[2] !== undefined ? x[2] : HOME_EXPRESSION.test(x[3]!) ? '~' : '"$ARG"',
    );
    if (/^\s*\[/.test(m[3]!) && args[0] !== undefined && args[0].replace(/^.*\//, '') === program.replace(/^.*\//, ''))
      args = args.slice(1); // execvp's argv[0]
    out.push(
      [program, ...args]
        .map((a) => (a === '~' || a === '"$ARG"' || /^[\w./~=:@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`))
        .join(' '),
    );
  }
  return out;
}

/** A call naming a program and then its arguments: varargs, or a list (the program's name is group 2, the rest group 3). */
const ARGV_CALL =
  /\b(?:os\s*\.\s*(?:exec|spawn)[lv]p?e?|spawn(?:Sync)?|execFile(?:Sync)?|System\s*\.\s*cmd|system|exec|Popen|call|run|check_call|check_output)\s*\(?\s*(["'])([^"'\n]+)\1\s*,\s*((?:\[[^\]]*\]|[^;)\n])+)/g;
/** One item of an argument list: a string literal (group 2) or another expression (group 3). */
const ARGV_ITEM = /(["'])((?:(?!\1)[^\\\n]|\\.)*)\1|([$\w][\w.$(){}'"[\]]*)/g;
/** The home directory as code writes it: Perl's $ENV{HOME}, Ruby's Dir.home, node's os.homedir(), process.env.HOME, Python's expanduser('~'). */
const HOME_EXPRESSION =
  /^(\$ENV\{['"]?HOME['"]?\}|Dir\.home|os\.homedir\(\)|homedir\(\)|process\.env\.HOME|Path\.home\(\))$/;

/** Shell command strings visible in inline code: `system("…")`, `os.system('…')`, Lua's `os.execute("…")`, `execSync("…")`, `subprocess.run([...])`. */
export function shellStringsIn(code: string, language?: string): string[] {
  const out: string[] = [];
  const call =
    /(?:\bos\.execute|\b(?:system|popen|execSync|exec|spawnSync|check_output|check_call|call|run|Popen|getoutput|getstatusoutput|shell_exec|passthru|spawn))\s*\(\s*(\[[^\]]*\]|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/g;
  for (const m of code.matchAll(call)) {
    const arg = m[1]!;
    if (arg.startsWith('[')) {
      const items = [...arg.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)].map((x) => x[1] ?? x[2] ?? '');
      if (items.length)
        out.push(items.map((s) => (/^[\w./~=:@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`)).join(' '));
    } else out.push(arg.slice(1, -1).replace(/\\(["'\\])/g, '$1'));
  }
  if (language === undefined || BACKTICK_LANGUAGES.test(language))
    for (const m of code.matchAll(/`([^`]+)`|%x[({[](.*?)[)}\]]/g)) out.push(m[1] ?? m[2] ?? '');
  out.push(...argvCalls(code));
  // Lisps: `(shell-command "cmd")` in Emacs, `(system "cmd")` in Racket and Guile.
  for (const m of code.matchAll(
    /\((?:shell-command|call-process-shell-command|async-shell-command|system|shell)\s+"((?:[^"\\]|\\.)*)"/g,
  ))
    out.push(m[1]!.replace(/\\(["\\])/g, '$1'));
  // Perl and Ruby without parentheses: `exec "cmd"`, `system 'cmd'`; Perl's `qx{cmd}` and `open(F, "cmd |")`.
  for (const m of code.matchAll(/\b(?:system|exec)\s+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/g))
    out.push(m[1]!.slice(1, -1).replace(/\\(["'\\])/g, '$1'));
  for (const m of code.matchAll(/\bqx\s*(?:\{([^}]*)\}|\(([^)]*)\)|\[([^\]]*)\]|<([^>]*)>|([^\w\s])(.*?)\5)/g))
    out.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[6] ?? '');
  for (const m of code.matchAll(
    /\bopen\s*\(?\s*[\w$]+\s*,\s*(?:"([^"]*)\|\s*"|'([^']*)\|\s*'|"-\|"\s*,|'\|-'\s*,\s*"([^"]*)")/g,
  ))
    out.push(m[1] ?? m[2] ?? m[3] ?? '');
  // Tcl and expect: `exec prog args` (a command at the start of a line, after `;`, or in `[…]`), `spawn prog args`, `open "|cmd"`.
  if (language !== undefined && TCL.test(language)) {
    for (const m of code.matchAll(/(?:^|[;[{\n])\s*(?:exec|spawn)\s+((?:-\S+\s+)*)([^\n;\]}]+)/g))
      out.push(m[2]!.replace(/\s+&\s*$/, ''));
    for (const m of code.matchAll(/\bopen\s+["{]\|([^"}]+)["}]/g)) out.push(m[1]!);
  }
  return out.filter((s) => s.trim() !== '');
}

/** Inline code that fetches from the network (Python, Node, Ruby, Perl, PHP, PowerShell). */
const FETCHES =
  /\burlopen\s*\(|\burlretrieve\s*\(|\brequests\s*\.\s*get\s*\(|\bhttpx\s*\.\s*(?:get|stream)\s*\(|\bfetch\s*\(|\bhttps?\s*\.\s*get\s*\(|\baxios\b|open-uri|URI\s*\.\s*open|Net::HTTP|\bLWP\b|HTTP::Tiny|\bgetstore\s*\(|\bmirror\s*\(|\.\s*get\s*\(\s*["'](?:https?|ftp):|\b(?:file_get_contents|copy|fopen)\s*\(\s*["'](?:https?|ftp):|Invoke-WebRequest|\biwr\b|DownloadFile|curl_exec/i;

/**
 * The files inline code saves a download to, given as string literals: PHP's `copy(URL, 'f')` and
 * `file_put_contents('f', file_get_contents(URL))`, Python's `urlretrieve(u, 'f')` and `open('f', 'wb').write(…)`,
 * Node's `fs.writeFileSync('f', …)` / `createWriteStream('f')`, Ruby's `File.write('f', URI.open(u).read)` and
 * `IO.copy_stream(…, 'f')`, Perl's `getstore(u, 'f')` / `mirror(u, 'f')`, PowerShell's `-OutFile f` and `DownloadFile(u, 'f')`.
 * Only code that fetches counts: a script writing its own output is not a download.
 */
export function savedDownloads({ code }: InlineCode): string[] {
  const out: string[] = [];
  if (!FETCHES.test(code)) return out;
  for (const m of code.matchAll(SAVED_TO)) {
    const file = m.slice(1).find((g) => g !== undefined);
    if (file && !/^(?:https?|ftp):/.test(file) && out.length < 32) out.push(file.replace(/^\.\//, ''));
  }
  return out;
}

/**
 * Inline code that saves a download and runs it itself: `urlretrieve(u, 'i.sh'); os.system('sh i.sh')`,
 * `os.chmod('tool', 0o755)`, `subprocess.run(['./tool'])` — a command line it runs names the saved file.
 */
export function runsSavedDownload(c: InlineCode): boolean {
  const saved = savedDownloads(c);
  if (saved.length === 0) return false;
  const named = (text: string): boolean => text.split(/[\s'"]+/).some((t) => saved.includes(t.replace(/^\.\//, '')));
  return (
    shellStringsIn(c.code, c.language).some(named) ||
    [...c.code.matchAll(/\bchmod(?:Sync)?\s*\(\s*["']([^"'\n]+)["']/g)].some((m) => named(m[1]!))
  );
}
const Q = String.raw`["']([^"'\n]+)["']`;
const SAVED_TO = new RegExp(
  [
    String.raw`\b(?:copy|urlretrieve|getstore|mirror|DownloadFile|copy_stream)\s*\(\s*(?:[^,()]|\([^()]*\))+,\s*${Q}`,
    String.raw`\b(?:file_put_contents|writeFileSync|writeFile|createWriteStream|write_bytes|write_text)\s*\(\s*${Q}`,
    String.raw`\b(?:File|IO)\s*\.\s*(?:write|binwrite)\s*\(\s*${Q}`,
    String.raw`\b(?:File\s*\.\s*)?open\s*\(\s*${Q}\s*,\s*["'](?:w|wb|ab?|xb?|w\+b?)["']`,
    String.raw`\bPath\s*\(\s*${Q}\s*\)\s*\.\s*write_(?:bytes|text)`,
    String.raw`\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*["']>{1,2}["']\s*,\s*${Q}`,
    String.raw`\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*["']>{1,2}\s*([^"'\n]+)["']`,
    String.raw`-OutFile\s+["']?([^"'\s;)]+)`,
  ].join('|'),
  'g',
);
