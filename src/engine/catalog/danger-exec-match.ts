// The tests the code-execution entries (danger-exec.ts) use: shells and runners fed from pipes, GNU parallel,
// editors' shell escapes, and what inline code does with the network and files.
import type { CommandView } from '../shell/view.ts';
import { atBase } from '../shell/view.ts';
import { CODE_RUNNERS, SHELLS, interpreterOf } from './programs.ts';
import { inlineCode } from './inline-code.ts';

/** Shell options that take a value (so their value is not the script operand). */
const SHELL_WITH_ARG = ['-o', '-O', '+O', '+o', '--rcfile', '--init-file'];
/** Paths that name the process's own stdin. */
export const STDIN_FILE = /^(\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0|-)$/;

/** Does this shell read its commands from stdin (no -c, no script file, or -s)? */
export function shellReadsStdin(v: CommandView): boolean {
  for (let i = 0; i < v.args.length; i++) {
    const a = v.args[i]!;
    if (a === '-s') return true;
    if (a === '--') return i + 1 >= v.args.length || STDIN_FILE.test(v.args[i + 1]!);
    if (SHELL_WITH_ARG.includes(a)) {
      i++;
      continue;
    }
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) return false;
    if (a.startsWith('-') || a.startsWith('+')) continue;
    // `bash /dev/stdin <<< …`: the script file is the shell's own stdin.
    return STDIN_FILE.test(a);
  }
  return true;
}

/** GNU parallel options that take a value (the next word). */
const PARALLEL_WITH_ARG = new Set([
  '-j',
  '--jobs',
  '-P',
  '--max-procs',
  '-S',
  '--sshlogin',
  '--slf',
  '--sshloginfile',
  '-a',
  '--arg-file',
  '-C',
  '--colsep',
  '-d',
  '--delimiter',
  '-E',
  '--eof',
  '-n',
  '--max-args',
  '-N',
  '-L',
  '--max-lines',
  '-l',
  '--delay',
  '--timeout',
  '--joblog',
  '--results',
  '--res',
  '--tmpdir',
  '--tempdir',
  '--workdir',
  '--wd',
  '--env',
  '--halt',
  '--halt-on-error',
  '--retries',
  '--tagstring',
  '--tag-string',
  '--memfree',
  '--load',
  '--nice',
  '--basefile',
  '--bf',
  '--return',
  '--transferfile',
  '--tf',
  '--termseq',
  '--block',
  '--block-size',
  '--recstart',
  '--recend',
  '--limit',
  '--rpl',
  '--ssh',
  '--sshdelay',
  '--sqlmaster',
  '--sqlworker',
  '--sqlandworker',
  '--shebang-wrap',
]);
/** Where GNU parallel's inputs start in its arguments: `:::` (words), `::::` (files), `:::+`/`::::+` (linked). */
export const PARALLEL_SOURCE = /^::::?\+?$/;

/**
 * Where GNU parallel's command is in its arguments: `parallel -j4 gzip -9 ::: *.log` → words 1 to 3 (the end is the
 * first input source or the end). An empty command (start === end) means each input is itself a command line.
 */
export function parallelCommand(args: readonly string[]): { start: number; end: number } {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (PARALLEL_SOURCE.test(a)) return { start: i, end: i };
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a.length === 1) break;
    if (PARALLEL_WITH_ARG.has(a)) i++;
  }
  let end = i;
  while (end < args.length && !PARALLEL_SOURCE.test(args[end]!)) end++;
  return { start: Math.min(i, args.length), end };
}

/**
 * Does parallel run commands that cannot be read here: no command before its inputs, so each input is a command
 * line, and some input is unknown (a file's lines, unknown stdin, an expansion). Known inputs are judged as commands
 * (nested.ts); `--version` and `--help` run nothing.
 */
export function parallelRunsUnknownCommands(v: CommandView): boolean {
  if (
    v.args.some((a) =>
      /^--(version|help|citation|number-of-(cpus|cores|threads|sockets)|max-line-length-allowed)$/.test(a),
    )
  )
    return false;
  const { start, end } = parallelCommand(v.args);
  if (start !== end) return false;
  if (end === v.args.length)
    return v.args.some((a) => /^(-a|--arg-file)/.test(a)) || v.stdin?.text === undefined || v.stdin.dynamic === true;
  return v.args.slice(end).some((a) => a.startsWith('::::')) || v.words.slice(end + 1).some((w) => w.dynamic);
}

/** Marker in `downloads`: a download was unpacked here (`curl … | tar x`), so `./anything` may be from it. */
export const EXTRACTED = '\u0000extracted';

const isInterpreter = (p: string): boolean => SHELLS.has(p) || interpreterOf(p) !== undefined;
export const isRunner = (v: CommandView): boolean =>
  isInterpreter(v.program) ||
  v.program === 'source' ||
  v.program === '.' ||
  v.program === 'eval' ||
  MAKE.has(v.program);

/** make runs its makefile's recipes as shell commands: `make -f <(curl …)`, `curl … | make -f -`. */
export const MAKE = new Set(['make', 'gmake']);
/** The programs whose code can come from the network or a decoder: interpreters, shells, eval, make. */
export const RUNNERS_AND_MAKE = [...CODE_RUNNERS, ...MAKE];

/** Whether a program runs the lines it reads as commands: xargs into a shell, parallel without a command, at, crontab, awk's system($0). */
export function runsItsInput(v: CommandView): boolean {
  switch (v.program) {
    case 'xargs':
      return v.args.some((a) => SHELLS.has(a.replace(/^.*\//, ''))) && v.args.some((a) => /^-[a-zA-Z]*c$/.test(a));
    case 'parallel':
      return parallelRunsUnknownCommands(v);
    case 'at':
    case 'batch':
      return !v.args.some((a) => /^-[a-zA-Z]*[lrdcf]$/.test(a) || a === '--list');
    case 'crontab': {
      const ops = v.args.filter((a) => !a.startsWith('-') || a === '-');
      return ops.length === 0 || ops[0] === '-';
    }
    default:
      return inlineCode(v).some((c) => /\bsystem\s*\(\s*\$0|\|\s*"(?:ba|z|da)?sh"|print[^;]*\|\s*"/.test(c.code));
  }
}

/** The programs whose output is the makefile (`-f FILE`, `--file=FILE`, `-fFILE`): FILE's own, or the pipe's when FILE is stdin. */
function makefileSources(v: CommandView): string[] {
  const out: string[] = [];
  for (let i = 1; i < v.words.length; i++) {
    const a = v.words[i]!.value;
    const attached = /^(?:--file=|--makefile=|-f)(.+)$/.exec(a);
    const file =
      a === '-f' || a === '--file' || a === '--makefile'
        ? v.words[++i]
        : attached
          ? { value: attached[1]!, inner: v.words[i]!.inner }
          : undefined;
    if (!file) continue;
    out.push(...(file.inner?.programs ?? []));
    if (STDIN_FILE.test(file.value) && v.stdin) out.push(...v.stdin.upstream);
  }
  return out;
}

/** Programs whose output becomes code here: the pipe upstream, and `$(…)`/`<(…)` in the code-bearing words. */
export function codeSources(v: CommandView): string[] {
  if (MAKE.has(v.program)) return makefileSources(v);
  const fromWords = v.words.slice(1).flatMap((w) => w.inner?.programs ?? []);
  const readsStdin =
    v.program === 'source' || v.program === '.'
      ? /^\/dev\/(stdin|fd\/0)$|^-$/.test(v.args[0] ?? '')
      : SHELLS.has(v.program)
        ? shellReadsStdin(v)
        : interpreterReadsStdin(v);
  const fromPipe = v.stdin && readsStdin ? v.stdin.upstream : [];
  return [...fromWords, ...fromPipe];
}

function interpreterReadsStdin(v: CommandView): boolean {
  const spec = interpreterOf(v.program);
  if (!spec) return false;
  if (inlineCode(v).some((c) => EVALS_STDIN.test(c.code))) return true;
  return (
    !v.args.some(
      (a) => !a.startsWith('-') || a === '-' || spec.inline.includes(a) || spec.stdinAlternatives.includes(a),
    ) || v.args.includes('-')
  );
}

/**
 * Inline code that evaluates what it reads on stdin: `exec(sys.stdin.read())`, Perl's `eval join "", <STDIN>`,
 * node's `eval(fs.readFileSync(0, 'utf8'))`, Ruby's `eval $stdin.read`, Lua's `load(io.read('a'))()` — not a method
 * named load (`json.load(sys.stdin)` parses data).
 */
const EVALS_STDIN =
  /(?:(?<![\w.$])(?:exec|eval|load|loadstring|compile|Function)|\brunIn(?:This|New)Context)\b[\s\S]{0,80}?(?:sys\s*\.\s*stdin|<STDIN>|<>|readFileSync\s*\(\s*(?:0|["']\/dev\/stdin["'])|\$stdin|STDIN\s*\.\s*read|io\s*\.\s*read|process\s*\.\s*stdin)/;

/** A path (or a bare program name matching a download's file name) this script downloaded earlier. */
export const downloaded = (v: CommandView, path: string): boolean => {
  const p = path.replace(/^\.\//, '');
  if (v.downloads.has(p)) return true;
  // Below a directory a download was unpacked or cloned into (`r/`), seen from where the command runs (`cd r`); a
  // bare name (`npm`) is a program on the PATH, not a file here.
  if (path.includes('/')) {
    const here = atBase(p, v.base).replace(/^\.\//, '');
    for (const d of v.downloads) if (d.endsWith('/') && here.startsWith(d)) return true;
  }
  return !p.includes('/') && p !== '' && [...v.downloads].some((d) => d.endsWith('/' + p));
};

/** Forking (or spawning) in a loop that never ends: Perl's `fork while 1` (or `fork while fork`), `while True: os.fork()`, Ruby's `loop { fork }`. */
export const FORK_LOOP =
  /\bfork\s+while\s+(1|true|fork)\b|\bwhile\s*\(?\s*(1|true|True)\s*\)?\s*[:{]?\s*(?:os\s*\.\s*)?(?:fork|spawn|require\s*\(\s*["']child_process["']\s*\)\s*\.\s*spawn)\s*\(|\bloop\s*(?:do|\{)\s*fork\b/;

/** An editor command that reaches a shell: `!cmd`, `:sh`/`:shell` (as a command, not `ft=sh`), system(), Lua's os.execute. */
export const EDITOR_ESCAPE =
  /(^|[|:\s%.$\d,'<>])!|\bsystem(list)?\s*\(|(^|[|:\s])te(r(m(i(n(al?)?)?)?)?)?(\s|$)|(^|[|:]\s*)sh(ell)?\b|\bos\.execute\b|\bio\.popen\b|`|\bmakeprg\b|\b(mak(e)?|lmak(e)?|gr(ep)?)(\s|$)/;

/** Vim and its kin (also by their Debian names), and less and more, whose `+cmd` are vim-like. */
export const EDITORS = /^(vim|vi|nvim|ex|view|gvim|rvim|rview|vimdiff|vim\.(basic|tiny|nox|gtk3?)|less|more)$/;

/**
 * The editor commands of an argv: `-c`/`--cmd` values (also in a cluster: `-esc`) and `+cmd` words, each split at
 * `|` as the editor does — except that a `!cmd` takes the rest of the line (its `|` is the shell's).
 */
export function editorCommands(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const cmd =
      a === '-c' || a === '--cmd' || /^-[a-zA-Z]+c$/.test(a) ? args[++i] : a.startsWith('+') ? a.slice(1) : undefined;
    if (cmd === undefined) continue;
    const pieces = cmd.split('|');
    for (let k = 0; k < pieces.length; k++) {
      const rest = pieces.slice(k).join('|');
      if (EDITOR_SHELL.test(rest)) {
        out.push(rest);
        break;
      }
      out.push(pieces[k]!);
    }
  }
  return out;
}

/**
 * An editor command that is one shell command written out: `!cmd`, `:r !cmd`, `silent !cmd`, `%!cmd` (a filter),
 * `exe "!cmd"` — nested.ts walks it as the command it is (group 1 or 2), so it is judged as itself.
 */
/** A `!cmd` editor command whose command line is all written out (no `$…` or backticks): walked, not flagged. */
export function plainShellEscape(cmd: string): boolean {
  const m = EDITOR_SHELL.exec(cmd);
  const inner = m?.[1] ?? m?.[2];
  return inner !== undefined && inner.trim() !== '' && !/[$`]/.test(inner);
}

export const EDITOR_SHELL =
  /^\s*:?\s*(?:(?:sil(?:ent)?!?\s+)?(?:r(?:ead)?\s*|w(?:rite)?\s+|[%.$\d,'<>]+(?:w(?:rite)?\s+)?)?!(.*)|exe(?:cute)?\s+["']!(.*?)["']\s*)$/s;

/** Inline code that downloads (any order with EVALUATES): Node's http(s).get/request, fetch, axios, urlopen, requests, open-uri, LWP, PHP's file_get_contents of a URL. */
export const DOWNLOADS =
  /\bhttps?\s*\.\s*(?:get|request)\s*\(|\brequire\s*\(\s*["']https?["']\s*\)|\bfetch\s*\(|\baxios\b|\burlopen\s*\(|\brequests\s*\.\s*get\s*\(|\bhttpx\s*\.\s*get\s*\(|open-uri|URI\s*\.\s*open|Net::HTTP|\bLWP\b|HTTP::Tiny|file_get_contents\s*\(\s*["']https?:/;
/** Inline code that evaluates text as code: eval, exec, new Function, vm.runIn…, compile, instance_eval. */
export const EVALUATES =
  /(?<![\w.$])(?:eval|exec|compile)\s*\(|\bnew\s+Function\s*\(|(?<![\w.$])Function\s*\(|\bvm\s*\.\s*(?:runIn\w+|Script)\b|\binstance_eval\b|\.then\s*\(\s*eval\b|(?<![\w.$])eval\s+\$/;

/**
 * Inline code that sends a request with a body: requests/httpx/a session's post/put/patch, `urlopen(url, data)`,
 * `Request(url, data)`, `conn.request('POST', …)`, fetch with a method or a body, Node's http(s).request, axios/got,
 * Net::HTTP's post, LWP's and HTTP::Tiny's post, PHP's CURLOPT_POSTFIELDS or a POST stream context, PowerShell's
 * `-Method Post` / `-InFile` / WebClient uploads, a socket's sendall. A generic `.post(`/`.put(` counts only in code
 * that talks to the network (`queue.put(…)` does not).
 */
export const SENDS = new RegExp(
  [
    String.raw`\b(?:requests|httpx|aiohttp|urllib3)\s*\.\s*(?:post|put|patch|request)\s*\(`,
    String.raw`\burlopen\s*\(\s*(?:[^,()]|\([^()]*\))+,`,
    String.raw`\burlopen\s*\([^)\n]{0,300}\bdata\s*=`,
    String.raw`\bRequest\s*\(\s*(?:[^,()]|\([^()]*\))+,\s*(?!headers\b)`,
    String.raw`\bRequest\s*\([^)\n]{0,300}\b(?:data\s*=|method\s*=\s*["'](?:POST|PUT|PATCH))`,
    String.raw`\.\s*request\s*\(\s*["'](?:POST|PUT|PATCH)["']`,
    String.raw`\bfetch\s*\([\s\S]{0,300}?\b(?:method\s*:\s*["'](?:POST|PUT|PATCH)|body\s*:)`,
    String.raw`\bhttps?\s*\.\s*request\s*\(`,
    String.raw`\brequire\s*\(\s*["'](?:node:)?https?["']\s*\)\s*\.\s*request\s*\(`,
    String.raw`Net::HTTP\s*(?:\.|::)\s*(?:post|put|Post|Put)`,
    String.raw`\bLWP\b[\s\S]*\bpost\b`,
    String.raw`\bHTTP::Tiny\b[\s\S]*\b(?:post|put)\b`,
    String.raw`\bCURLOPT_(?:POSTFIELDS|UPLOAD|INFILE|PUT)\b`,
    String.raw`\bCURLFile\b|\bcurl_file_create\b`,
    String.raw`["']method["']\s*=>\s*["'](?:POST|PUT|PATCH)`,
    String.raw`-Method\s+["']?(?:Post|Put|Patch)\b`,
    String.raw`\bUpload(?:File|Data|String)(?:Async)?\s*\(`,
    String.raw`(?:\.|->)\s*(?:post|put|patch|post_form|post_multipart)\s*[(\s]`,
    String.raw`\.\s*(?:sendall|sendfile)\s*\(`,
  ].join('|'),
  'i',
);
/** Code that talks to the network at all (what lets a generic `.post(`/`.put(` count). */
export const NETWORK =
  /https?:\/\/|\b(?:requests|httpx|urllib|http\.client|aiohttp|urllib3|axios|fetch|got|needle|superagent|socket|Net::HTTP|HTTParty|RestClient|Faraday|Excon|LWP|HTTP::Tiny|Mojo::UserAgent|curl_init|Invoke-(?:WebRequest|RestMethod)|WebClient)\b|\brequire\s*\(\s*["'](?:node:)?(?:https?|net|tls)["']|\bhttps?\s*\.\s*(?:request|get)\s*\(/i;
/** A socket opened to another host (Python's socket, Ruby's TCPSocket, Perl's IO::Socket, PHP's fsockopen, Node's net/tls). */
export const SOCKET =
  /\bsocket\s*\.\s*(?:socket|create_connection)\s*\(|\bTCPSocket\b|\bIO::Socket|\bfsockopen\s*\(|\bstream_socket_client\s*\(|\b(?:net|tls)\s*\.\s*(?:connect|createConnection)\s*\(|\brequire\s*\(\s*["'](?:node:)?(?:net|tls)["']\s*\)|\.\s*createConnection\s*\(/;
/** Writing to it (or to anything, once one is open): `s.send(…)`, `sock.write(…)`, `$s->print(…)`, `fwrite($fp, …)`. */
export const SOCKET_WRITE =
  /(?:\.|->)\s*(?:send|sendall|sendfile|write|end|puts|print|syswrite)\s*[(\s]|\bfwrite\s*\(|\bsocket_write\s*\(|\bprint\s*\{?\s*\$\w+\s*\}?\s/;
/** Mail sent with a file's contents: smtplib's sendmail/send_message, Net::SMTP, PHP's mail(). */
export const MAILS =
  /\b(?:smtplib|Net::SMTP|Mail::Sender|Email::Sender)\b[\s\S]{0,2000}?(?:sendmail|send_message|send_mail|\bdata\b|\bsend\b)|(?<![\w.$>])mail\s*\(/;
/** API calls that send a named local file by themselves: boto3's upload_file, GCS's upload_from_filename, ftplib's storbinary, `-InFile`. */
export const UPLOADS_FILE =
  /\b(?:upload_file|upload_fileobj|upload_from_filename|upload_from_file|upload_blob|storbinary|storlines)\s*\(|-InFile\b/;
/** Inline code that reads a file's contents (or hands a file object on: `data=open('x', 'rb')`, `createReadStream`). */
export const READS_FILE = new RegExp(
  [
    String.raw`(?<![\w.])open\s*\(\s*["'](?!(?:https?|ftp):)[^"'\n]+["']\s*(?:,\s*["']r?[bt]?["']\s*)?\)`,
    String.raw`\bopen\s*\([^)\n]{0,300}\)\s*\.\s*read\b`,
    String.raw`\bread_(?:bytes|text)\s*\(`,
    String.raw`\b(?:readFileSync|readFile|createReadStream|readTextFile|readTextFileSync)\s*\(`,
    String.raw`\bBun\s*\.\s*file\s*\(`,
    String.raw`\b(?:File|IO)\s*\.\s*(?:read|binread|open|new)\s*\(`,
    String.raw`\bfiles\s*=\s*\{`,
    String.raw`\b(?:file_get_contents|fopen)\s*\(\s*(?!["'](?:https?|ftp|php):)`,
    String.raw`\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*["']<`,
    String.raw`\bslurp\b`,
    String.raw`\x60\s*cat\s`,
    String.raw`\bGet-Content\b|\bgc\s`,
  ].join('|'),
);
/** Every URL in the code is this machine. */
export const LOCAL_ONLY =
  /^(?![\s\S]*https?:\/\/(?!localhost|127\.|\[::1\]))[\s\S]*https?:\/\/(?:localhost|127\.|\[::1\])/;
