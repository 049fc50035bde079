// The tests the secret entries (danger-secrets.ts) use for secrets held in variables and the environment: names
// that look like secrets, printers of the environment, inline code reading it, and where a printed secret is kept.
import { stdoutToFile, type CommandView } from '../shell/view.ts';
import { inlineCode } from './inline-code.ts';
import { DECRYPTED_FILES, DECRYPTED_NAME } from './secret-printers.ts';
import { dumpsEnvironment } from './environment-dump.ts';

/**
 * A variable named for a secret: `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`, `OPENAI_API_KEY`, `NPM_AUTH_TOKEN`,
 * a database URL or connection string, which carries its password (`DATABASE_URL`, `REDIS_URL`), and the keys that
 * decrypt or sign an application's data (`RAILS_MASTER_KEY`, Laravel's `APP_KEY`, `SECRET_KEY_BASE`; issue 26, round 6).
 */
const SECRET_VARIABLE =
  /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|SECRET_KEY|PRIVATE_KEY|PAT|CONNECTION_STRING|MASTER_KEY|APP_KEY|ENCRYPTION_KEY|SIGNING_KEY|SECRET_KEY_BASE|WEBHOOK_URL)$|^(DATABASE|DB|MONGO|MONGODB|REDIS|AMQP|RABBITMQ)_(URL|URI)$/i;

/**
 * `echo $GITHUB_TOKEN`, `printf '%s' "$DB_PASSWORD"`, `printenv AWS_SECRET_ACCESS_KEY`: a secret from the environment
 * printed where the agent (and its transcript) reads it. Written to a file instead, or piped into a login that reads
 * stdin (the walker drops it there), it is not printed.
 */
export function printsSecretVariable(v: CommandView): boolean {
  if (v.redirects.some(stdoutToFile)) return false;
  if (v.program === 'printenv') return v.args.some((a) => !a.startsWith('-') && SECRET_VARIABLE.test(a));
  // `env | grep TOKEN`, `printenv | grep -i secret`: the environment filtered down to its secrets.
  if (/^(grep|egrep|rg)$/.test(v.program)) {
    return (
      v.stdin?.kind === 'pipe' &&
      v.stdin.upstream.some((p) => ENVIRONMENT_PRINTERS.has(p)) &&
      v.args.some((a) => !a.startsWith('-') && SECRET_WORD.test(a)) &&
      !v.args.some((a) => /^-[a-zA-Z]*[qcl][a-zA-Z]*$|^--(quiet|silent|count|files-with-matches)$/.test(a))
    );
  }
  // `python3 -c "print(os.environ['GITHUB_TOKEN'])"`, `node -p process.env.OPENAI_API_KEY`, `jq -n env.GITHUB_TOKEN`.
  if (v.program === 'jq' || v.program === 'gojq')
    return v.args.some((a) => [...a.matchAll(/\$?(?:env|ENV)\.(\w+)/g)].some((m) => SECRET_VARIABLE.test(m[1]!)));
  if (HERESTRING_PRINTERS.has(v.program)) {
    // `cat /tmp/t` after `echo "$GITHUB_TOKEN" > /tmp/t`: a file the script wrote the secret into, printed.
    if (v.secretFiles && v.args.some((a) => v.secretFiles!.has(a.replace(/^\.\//, '')))) return true;
    // `git-crypt unlock && cat config/credentials.yml`: a file named for a secret, printed after the repository was decrypted.
    if (v.secretFiles?.has(DECRYPTED_FILES) && v.args.some((a) => !a.startsWith('-') && DECRYPTED_NAME.test(a)))
      return true;
    // `cat <<< "$GITHUB_TOKEN"`: a here-string of a secret, printed by a program that prints its input.
    const m = v.stdin?.kind === 'herestring' ? /<<<\s*("(?:[^"\\]|\\.)*"|\S+)/.exec(v.text) : null;
    if (m !== null && referencesSecret(m[1]!)) return true;
    if (v.program !== 'awk') return false;
  }
  if (v.program === 'echo' || v.program === 'printf') {
    // `echo "$(gh auth token)"`: a substitution that printed a secret, printed again; `x=$GITHUB_TOKEN; echo $x`.
    return v.words.slice(1).some((w) => w.inner?.secret === true || (w.expanded && referencesSecret(w.source)));
  }
  // `python3 -c "print(os.environ['X'])"`, awk's ENVIRON; `node -p EXPR` prints the expression's value.
  const prints = /^(node|bun|deno)$/.test(v.program) && v.args.some((a) => a === '-p' || a === '--print');
  return inlineCode(v).some((c) => printsEnvironmentSecret(c.code, prints) || dumpsEnvironment(c, prints));
}

/** Programs that print what they read (a here-string given them is printed). */
const HERESTRING_PRINTERS = new Set([
  'cat',
  'tee',
  'base64',
  'base32',
  'xxd',
  'od',
  'hexdump',
  'rev',
  'tr',
  'head',
  'tail',
  'xargs',
  'sed',
  'awk',
  'cut',
]);

/** Programs that print the whole environment (or its variables). */
const ENVIRONMENT_PRINTERS = new Set(['env', 'printenv', 'set', 'export', 'declare', 'typeset', 'compgen']);
/** A pattern looking for secrets by name. */
// (Round 5 of issue 26: `KEY` as a word too, `env | grep -i key`; not `keyboard`, `monkey`.)
const SECRET_WORD = /token|secret|passw|api_?key|private_?key|credential|(^|_)pat\b|(^|[^a-z])keys?([^a-z]|$)/i;
/** Inline code reading a variable from the environment by name (group 1–4: the name). */
const ENVIRONMENT_READ = String.raw`(?:os\.environ(?:\.get)?\s*[[(]\s*|os\.getenv\s*\(\s*|getenv\s*\(\s*|ENV\s*\[\s*|ENVIRON\s*\[\s*|\$ENV\{\s*)["']?(\w+)|process\.env(?:\.(\w+)|\[\s*["'](\w+))|Deno\.env\.get\(\s*["'](\w+)`;
/** Such a read given straight to a printer: `print(os.environ['X'])`, `console.log(process.env.X)`, `puts ENV["X"]`, `print(f"{…}")`, `"t=" + …`. */
// (Not a test of it: `console.log(process.env.X ? 'set' : 'unset')`, `print('X' in os.environ and …)`.)
const PRINTED_READ = new RegExp(
  String.raw`\b(?:print|println|printf|puts|say|echo|console\.(?:log|info|error|warn)|pp?|var_dump|process\.stdout\.write)\s*\(?\s*(?:f?["'][^"'\n]*?(?:\{|["']\s*[+.,]\s*))?(?:` +
    ENVIRONMENT_READ +
    String.raw`)(?!\w|['"\])]*\s*(?:\?|&&|\|\||[=!]==?|\.length\b|(?:is|in|and|or|if)\b))`,
  'g',
);
const READ = new RegExp(ENVIRONMENT_READ, 'g');

/** Inline code that prints a secret read from the environment; `prints`: the code's value is printed (`node -p`). */
function printsEnvironmentSecret(code: string, prints: boolean): boolean {
  const secretIn = (m: RegExpMatchArray) => SECRET_VARIABLE.test(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
  return [...code.matchAll(PRINTED_READ)].some(secretIn) || (prints && [...code.matchAll(READ)].some(secretIn));
}

/** Findings about a secret printed: not printed when it goes into what keeps it (`… | docker login --password-stdin`). */
export const PRINTED_SECRETS: ReadonlySet<string> = new Set([
  'secret-file-print',
  'credential-export',
  'secret-variable-print',
  'git-remote-credential-print',
  'deployed-secrets-print',
]);

/** Pipeline stages that only reshape what flows through them (a secret still flows on to the next stage). */
export const RESHAPES_INPUT: ReadonlySet<string> = new Set([
  'tr',
  'sed',
  'cut',
  'head',
  'tail',
  'base64',
  'base32',
  'xxd',
  'cat',
  'jq',
  'awk',
  'grep',
  'sort',
  'uniq',
  'rev',
  'printf',
  'echo',
]);

/** Subcommands that take a secret from stdin to log in with or keep (`cargo login`, `pass insert`, `… secret put`). */
const STDIN_STORES = new Set(['login', 'insert', 'put', 'store', 'import', 'approve']);

/** Programs that print a digest or a count of their input, not the input. */
const DIGESTS = new Set([
  'wc',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'shasum',
  'b2sum',
  'cksum',
]);

/**
 * Whether a command keeps or only digests what it reads on stdin, so a secret piped into it is not printed: a login
 * reading its password from stdin (`docker login --password-stdin`, `cargo login`, `gh auth login --with-token`), a
 * store (`gh secret set`, `pass insert`, `aws configure set`, `ssh-add -`, `gpg --import`), a digest (`sha256sum`,
 * `wc -c`; not `--files0-from`, which prints each name back in its error), `grep -q`.
 */
export function keepsSecretInput(program: string, argv: readonly string[]): boolean {
  if (
    argv.some(
      (a, i) => /^--(password-stdin|token-stdin|data-file=-)$/.test(a) || (a === '--data-file' && argv[i + 1] === '-'),
    )
  )
    return true;
  const operands = argv.slice(1).filter((x) => !x.startsWith('-'));
  const [a, b] = operands;
  switch (program) {
    case 'gh':
    case 'glab':
      return (a === 'secret' && b === 'set') || operands.slice(0, 3).includes('login');
    case 'ssh-add':
      return argv.includes('-');
    case 'gpg':
    case 'gpg2':
      return argv.includes('--import');
    case 'npm':
      return a === 'login' || a === 'adduser';
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return argv.some((x) => /^-[a-zA-Z]*[qc][a-zA-Z]*$|^--(quiet|silent|count)$/.test(x));
    case 'aws':
      return a === 'configure' && b === 'set';
    case 'chpasswd':
    case 'npm-cli-login':
      return true;
    case 'openssl':
      return argv.includes('-out');
    // `sops -d secret.yaml | kubectl apply -f -`: the manifest goes into the cluster, which keeps it.
    case 'kubectl':
    case 'k':
    case 'oc':
      return (
        (a === 'apply' || a === 'create' || a === 'replace') &&
        argv.some((x, i) => (x === '-f' || x === '--filename') && argv[i + 1] === '-')
      );
    default:
      return (
        (DIGESTS.has(program) && !argv.some((x) => x.startsWith('--files0-from'))) ||
        operands.slice(0, 3).some((x) => STDIN_STORES.has(x))
      );
  }
}

/** Whether shell text expands a variable named for a secret (`$GITHUB_TOKEN`, `${DB_PASSWORD}`; not `${#X}` or `${X:+set}`). */
export function referencesSecret(source: string): boolean {
  return (
    source.includes('$') &&
    [...withoutSubstitutions(source).matchAll(SECRET_REFERENCE)].some((m) => SECRET_VARIABLE.test(m[1] ?? m[2]!))
  );
}

/** `$NAME`, `${NAME}`, `${NAME:-x}` print the value; `${NAME:+set}`, `${#NAME}` and a masked prefix (`${NAME:0:4}`) do not. */
const SECRET_REFERENCE = /\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)(?!:?\+|:\s*\d+\s*:\s*[1-8]\s*\})[^}]*\})/g;

/** A word's source without its `$(…)` and backtick substitutions (what they print is judged where they run). */
function withoutSubstitutions(source: string): string {
  if (!source.includes('$(') && !source.includes('`')) return source;
  let out = '';
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '`') {
      const end = source.indexOf('`', i + 1);
      if (end < 0) break;
      i = end;
      continue;
    }
    if (source[i] === '$' && source[i + 1] === '(') {
      let depth = 0;
      let k = i + 1;
      for (; k < source.length; k++) {
        if (source[k] === '(') depth++;
        else if (source[k] === ')' && --depth === 0) break;
      }
      i = k;
      continue;
    }
    out += source[i];
  }
  return out;
}
