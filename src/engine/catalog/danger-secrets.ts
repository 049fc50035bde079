// Danger catalogue, secrets a tool prints: keys, tokens and passwords that CLIs and password managers keep for you.
import type { DangerEntry } from './danger-entry.ts';
import { stdoutToFile, type CommandView } from '../shell/view.ts';
import { gitCommand } from './danger-git.ts';
import { operands, optionValue } from './flags.ts';
import { inlineCode } from './inline-code.ts';
import { SECRET_PRINTERS, SECRET_PRINTER_PROGRAMS, secretPrinted } from './secret-printers.ts';
import { DEPLOYED_SECRET_DANGERS } from './deployed-secrets.ts';

/** Options before the subcommand of the cloud CLIs that take a value (`aws --profile prod secretsmanager …`). */
const CLOUD_GLOBAL_WITH_ARG = ['--profile', '--region', '--output', '--endpoint-url', '--query', '--project', '--account', '--configuration', '--format', '--subscription'];
/** kubectl options that take a value, so that the words left are the verb, the resource and the names. */
const KUBECTL_WITH_ARG = ['-n', '--namespace', '-o', '--output', '-l', '--selector', '--field-selector', '--context', '--cluster', '--user', '--kubeconfig', '-s', '--server', '--template'];
/** kubectl output formats that print an object's values (`-o name` and `-o wide` print names only). */
const KUBECTL_PRINTS_VALUES = /^(json|yaml|jsonpath|go-template|template|custom-columns)/;

/** `kubectl get secret db -o yaml`, `-o jsonpath='{.data.password}'`: the secret's values (base64 hides nothing). */
function printsKubeSecret(args: string[]): boolean {
  const [verb, resource] = operands(args, KUBECTL_WITH_ARG);
  if (verb !== 'get' || !/(^|,)secrets?(\/|,|$)/.test(resource ?? '')) return false;
  const output = (optionValue(args, ['-o', '--output']) ?? '').replace(/^=/, ''); // `-o=yaml` as well as `-o yaml`
  return KUBECTL_PRINTS_VALUES.test(output) || args.some((a) => a.startsWith('--template'));
}

/** `aws configure export-credentials`, `aws secretsmanager get-secret-value`, `aws ssm get-parameter --with-decryption`. */
function awsPrintsSecret(args: string[]): boolean {
  const [service, operation = '', key = ''] = operands(args, CLOUD_GLOBAL_WITH_ARG);
  switch (service) {
    case 'configure': return operation === 'export-credentials' || (operation === 'get' && /secret|session_token|access_key/i.test(key));
    case 'secretsmanager': return operation === 'get-secret-value' || operation === 'batch-get-secret-value';
    // Short-lived credentials and registry passwords, printed: `aws ecr get-login-password`, `aws sts get-session-token`.
    case 'ecr': return operation === 'get-login-password' || operation === 'get-authorization-token';
    case 'ecr-public': return operation === 'get-login-password';
    case 'sts': return /^(get-session-token|assume-role|assume-role-with-web-identity|get-federation-token)$/.test(operation);
    case 'codeartifact': return operation === 'get-authorization-token';
    case 'sso': return operation === 'get-role-credentials';
    case 'eks': return operation === 'get-token';
    case 'rds': return operation === 'generate-db-auth-token';
    case 'iam': return operation === 'create-access-key';
    case 'ssm': return /^get-parameter(s|s-by-path|-history)?$/.test(operation) && args.includes('--with-decryption');
    default: return false;
  }
}

/** `gpg --export-secret-keys`, `kubectl config view --raw`, `gh auth token`, `git credential fill`, `vault kv get`, … */
function exportsCredentials(v: CommandView): boolean {
  const [a, b] = v.args.filter((x) => !x.startsWith('-'));
  switch (v.program) {
    // gpg takes any unambiguous prefix of a long option: `--export-secret-key`, `--export-secret-k`.
    case 'gpg': case 'gpg2': return v.args.some((x) => /^--export-secret-(sub)?k/.test(x));
    case 'kubectl': case 'k': case 'oc':
      return (a === 'config' && b === 'view' && v.args.some((x) => x === '--raw' || x === '--flatten')) || printsKubeSecret(v.args)
        || (a === 'create' && b === 'token') || v.args.some((x) => /\/secrets(\/|$)/.test(x) && v.args.includes('--raw'));
    case 'aws': return awsPrintsSecret(v.args);
    case 'gcloud': {
      const [group, command, action] = operands(v.args, CLOUD_GLOBAL_WITH_ARG);
      return (group === 'auth' && (/^print-(access|identity)-token$/.test(command ?? '') || (command === 'application-default' && action === 'print-access-token')))
        || (group === 'secrets' && command === 'versions' && action === 'access')
        || (group === 'config' && command === 'config-helper');
    }
    case 'az': {
      const [group, command, action] = operands(v.args, CLOUD_GLOBAL_WITH_ARG);
      return (group === 'account' && command === 'get-access-token') || (group === 'keyvault' && command === 'secret' && (action === 'show' || action === 'download'))
        || (group === 'acr' && command === 'login' && v.args.includes('--expose-token')) || (group === 'storage' && command === 'account' && action === 'keys');
    }
    case 'gh': return (a === 'auth' && (b === 'token' || (b === 'git-credential' && v.args.includes('get')) || (b === 'status' && v.args.some((x) => x === '--show-token' || x === '-t'))))
      || (a === 'config' && b === 'get' && v.args.some((x) => /token/i.test(x)));
    // `npm config get //registry.npmjs.org/:_authToken`, `yarn config get npmAuthToken`: the registry token (from ~/.npmrc).
    case 'npm': case 'pnpm': case 'yarn': return a === 'config' && b === 'get' && v.args.some((x) => /_auth|authtoken|_password/i.test(x));
    case 'git': {
      // The credential helper answers `fill` (a helper itself: `get`) with the stored username and password.
      const [command, action] = gitCommand(v.args);
      return (command === 'credential' && action === 'fill') || (/^credential-/.test(command ?? '') && action === 'get');
    }
    case 'glab': return (a === 'auth' && b === 'status' && v.args.includes('--show-token')) || (a === 'config' && b === 'get' && /token/i.test(v.args.filter((x) => !x.startsWith('-'))[2] ?? ''));
    case 'flyctl': case 'fly': return a === 'auth' && b === 'token';
    case 'vault': return a === 'read' || (a === 'kv' && b === 'get') || (a === 'print' && b === 'token') || (a === 'login' && v.args.includes('-token-only'));
    case 'heroku': return a === 'auth:token';
    // `docker inspect api --format '{{json .Config.Env}}'`: a container's environment, where its secrets are passed.
    case 'docker': case 'podman': case 'nerdctl': return (a === 'inspect' || ((a === 'container' || a === 'image') && b === 'inspect')) && v.args.some((x) => /\.Config\.Env\b|\.Env\b/.test(x));
    // Decrypting an encrypted secrets file to the terminal (`sops -d secrets.yaml`, `ansible-vault view vault.yml`);
    // decrypting into a file (`-o`/`--output`, `sops -i`) prints nothing.
    case 'sops': return (a === 'decrypt' || v.args.some((x) => x === '-d' || x === '--decrypt')) && !v.args.some((x) => /^(-i|--in-place|--output(=.*)?)$/.test(x));
    case 'ansible-vault': return a === 'view' || ((a === 'decrypt') && v.args.some((x) => x === '--output=-' || (x === '--output' && v.args[v.args.indexOf(x) + 1] === '-')));
    case 'getent': return a === 'shadow' || a === 'gshadow';
    case 'pulumi': return v.args.includes('--show-secrets');
    case 'op': return a === 'read' || (a === 'item' && b === 'get' && v.args.includes('--reveal'));
    case 'doppler': return a === 'secrets' && (b === undefined || b === 'get' || b === 'download') && !v.args.includes('--only-names');
    // `echo https://index.docker.io/v1/ | docker-credential-pass get`: docker's credential helpers print the stored login.
    default: return (/^docker-credential-/.test(v.program) && a === 'get') || printsStoredPassword(v);
  }
}

/** pass's subcommands: any other first word is an entry's name, which `pass NAME` shows. */
const PASS_COMMANDS = /^(init|ls|list|find|search|insert|add|edit|generate|rm|remove|delete|mv|rename|cp|copy|git|help|version)$/;

/**
 * The desktop keyrings and password stores: `security find-generic-password -w` (or `-g`), `security dump-keychain -d`,
 * `secret-tool lookup`, `pass show x`, `kwallet-query -r key wallet`, `keyring get service user`. Copying to the
 * clipboard (`pass -c x`) prints nothing.
 */
function printsStoredPassword(v: CommandView): boolean {
  const [a, b] = v.args.filter((x) => !x.startsWith('-'));
  switch (v.program) {
    case 'security':
      return (/^find-(generic|internet)-password$/.test(a ?? '') && v.args.some((x) => x === '-w' || x === '-g'))
        || (a === 'dump-keychain' && v.args.some((x) => /^-[a-z]*d/.test(x)));
    case 'secret-tool': return a === 'lookup' || a === 'search';
    case 'pass': case 'gopass':
      return a !== undefined && (a === 'show' || a === 'otp' || a === 'grep' || !PASS_COMMANDS.test(a)) && !v.args.some((x) => /^(-c|--clip|-q|--qrcode)(=|$)/.test(x));
    case 'kwallet-query': return v.args.some((x) => x === '-r' || x === '--read-password');
    case 'keyring': return a === 'get';
    // Password-manager CLIs: Bitwarden, LastPass, KeePassXC.
    case 'bw': return (a === 'get' && b !== 'template') || (a === 'list' && b === 'items') || (a === 'unlock' && v.args.includes('--raw')) || a === 'export';
    case 'lpass': return a === 'show' || a === 'export';
    case 'keepassxc-cli': return a === 'show' || a === 'export' || a === 'clip';
    default: return false;
  }
}

/** A variable named for a secret: `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`, `OPENAI_API_KEY`, `NPM_AUTH_TOKEN`. */
const SECRET_VARIABLE = /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|SECRET_KEY|PRIVATE_KEY|PAT)$/i;

/**
 * `echo $GITHUB_TOKEN`, `printf '%s' "$DB_PASSWORD"`, `printenv AWS_SECRET_ACCESS_KEY`: a secret from the environment
 * printed where the agent (and its transcript) reads it. Written to a file instead, or piped into a login that reads
 * stdin (the walker drops it there), it is not printed.
 */
function printsSecretVariable(v: CommandView): boolean {
  if (v.redirects.some(stdoutToFile)) return false;
  if (v.program === 'printenv') return v.args.some((a) => !a.startsWith('-') && SECRET_VARIABLE.test(a));
  // `env | grep TOKEN`, `printenv | grep -i secret`: the environment filtered down to its secrets.
  if (/^(grep|egrep|rg)$/.test(v.program)) {
    return v.stdin?.kind === 'pipe' && v.stdin.upstream.some((p) => ENVIRONMENT_PRINTERS.has(p)) && v.args.some((a) => !a.startsWith('-') && SECRET_WORD.test(a))
      && !v.args.some((a) => /^-[a-zA-Z]*[qcl][a-zA-Z]*$|^--(quiet|silent|count|files-with-matches)$/.test(a));
  }
  // `python3 -c "print(os.environ['GITHUB_TOKEN'])"`, `node -p process.env.OPENAI_API_KEY`, `jq -n env.GITHUB_TOKEN`.
  if (v.program === 'jq' || v.program === 'gojq') return v.args.some((a) => [...a.matchAll(/\$?(?:env|ENV)\.(\w+)/g)].some((m) => SECRET_VARIABLE.test(m[1]!)));
  if (HERESTRING_PRINTERS.has(v.program)) {
    // `cat /tmp/t` after `echo "$GITHUB_TOKEN" > /tmp/t`: a file the script wrote the secret into, printed.
    if (v.secretFiles && v.args.some((a) => v.secretFiles!.has(a.replace(/^\.\//, '')))) return true;
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
  return inlineCode(v).some((c) => printsEnvironmentSecret(c.code, prints));
}

/** Programs that print what they read (a here-string given them is printed). */
const HERESTRING_PRINTERS = new Set(['cat', 'tee', 'base64', 'base32', 'xxd', 'od', 'hexdump', 'rev', 'tr', 'head', 'tail', 'xargs', 'sed', 'awk', 'cut']);

/** Programs that print the whole environment (or its variables). */
const ENVIRONMENT_PRINTERS = new Set(['env', 'printenv', 'set', 'export', 'declare', 'typeset', 'compgen']);
/** A pattern looking for secrets by name. */
const SECRET_WORD = /token|secret|passw|api_?key|private_?key|credential|(^|_)pat\b/i;
/** Inline code reading a variable from the environment by name (group 1–4: the name). */
const ENVIRONMENT_READ = String.raw`(?:os\.environ(?:\.get)?\s*[[(]\s*|os\.getenv\s*\(\s*|getenv\s*\(\s*|ENV\s*\[\s*|ENVIRON\s*\[\s*|\$ENV\{\s*)["']?(\w+)|process\.env(?:\.(\w+)|\[\s*["'](\w+))|Deno\.env\.get\(\s*["'](\w+)`;
/** Such a read given straight to a printer: `print(os.environ['X'])`, `console.log(process.env.X)`, `puts ENV["X"]`, `print(f"{…}")`, `"t=" + …`. */
// (Not a test of it: `console.log(process.env.X ? 'set' : 'unset')`, `print('X' in os.environ and …)`.)
const PRINTED_READ = new RegExp(String.raw`\b(?:print|println|printf|puts|say|echo|console\.(?:log|info|error|warn)|pp?|var_dump|process\.stdout\.write)\s*\(?\s*(?:f?["'][^"'\n]*?(?:\{|["']\s*[+.,]\s*))?(?:` + ENVIRONMENT_READ + String.raw`)(?!\w|['"\])]*\s*(?:\?|&&|\|\||[=!]==?|\.length\b|(?:is|in|and|or|if)\b))`, 'g');
const READ = new RegExp(ENVIRONMENT_READ, 'g');

/** Inline code that prints a secret read from the environment; `prints`: the code's value is printed (`node -p`). */
function printsEnvironmentSecret(code: string, prints: boolean): boolean {
  const secretIn = (m: RegExpMatchArray) => SECRET_VARIABLE.test(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
  return [...code.matchAll(PRINTED_READ)].some(secretIn) || (prints && [...code.matchAll(READ)].some(secretIn));
}

/** Findings about a secret printed: not printed when it goes into what keeps it (`… | docker login --password-stdin`). */
export const PRINTED_SECRETS: ReadonlySet<string> = new Set(['secret-file-print', 'credential-export', 'secret-variable-print', 'git-remote-credential-print', 'deployed-secrets-print']);

/** Pipeline stages that only reshape what flows through them (a secret still flows on to the next stage). */
export const RESHAPES_INPUT: ReadonlySet<string> = new Set(['tr', 'sed', 'cut', 'head', 'tail', 'base64', 'base32', 'xxd', 'cat', 'jq', 'awk', 'grep', 'sort', 'uniq', 'rev', 'printf', 'echo']);

/** Subcommands that take a secret from stdin to log in with or keep (`cargo login`, `pass insert`, `… secret put`). */
const STDIN_STORES = new Set(['login', 'insert', 'put', 'store', 'import', 'approve']);

/** Programs that print a digest or a count of their input, not the input. */
const DIGESTS = new Set(['wc', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'shasum', 'b2sum', 'cksum']);

/**
 * Whether a command keeps or only digests what it reads on stdin, so a secret piped into it is not printed: a login
 * reading its password from stdin (`docker login --password-stdin`, `cargo login`, `gh auth login --with-token`), a
 * store (`gh secret set`, `pass insert`, `aws configure set`, `ssh-add -`, `gpg --import`), a digest (`sha256sum`,
 * `wc -c`; not `--files0-from`, which prints each name back in its error), `grep -q`.
 */
export function keepsSecretInput(program: string, argv: readonly string[]): boolean {
  if (argv.some((a, i) => /^--(password-stdin|token-stdin|data-file=-)$/.test(a) || (a === '--data-file' && argv[i + 1] === '-'))) return true;
  const operands = argv.slice(1).filter((x) => !x.startsWith('-'));
  const [a, b] = operands;
  switch (program) {
    case 'gh': case 'glab': return a === 'secret' && b === 'set' || operands.slice(0, 3).includes('login');
    case 'ssh-add': return argv.includes('-');
    case 'gpg': case 'gpg2': return argv.includes('--import');
    case 'npm': return a === 'login' || a === 'adduser';
    case 'grep': case 'egrep': case 'fgrep': return argv.some((x) => /^-[a-zA-Z]*[qc][a-zA-Z]*$|^--(quiet|silent|count)$/.test(x));
    case 'aws': return a === 'configure' && b === 'set';
    case 'chpasswd': case 'npm-cli-login': return true;
    case 'openssl': return argv.includes('-out');
    // `sops -d secret.yaml | kubectl apply -f -`: the manifest goes into the cluster, which keeps it.
    case 'kubectl': case 'k': case 'oc': return (a === 'apply' || a === 'create' || a === 'replace') && argv.some((x, i) => (x === '-f' || x === '--filename') && argv[i + 1] === '-');
    default: return (DIGESTS.has(program) && !argv.some((x) => x.startsWith('--files0-from'))) || operands.slice(0, 3).some((x) => STDIN_STORES.has(x));
  }
}

/** Whether shell text expands a variable named for a secret (`$GITHUB_TOKEN`, `${DB_PASSWORD}`; not `${#X}` or `${X:+set}`). */
export function referencesSecret(source: string): boolean {
  return source.includes('$') && [...withoutSubstitutions(source).matchAll(SECRET_REFERENCE)].some((m) => SECRET_VARIABLE.test(m[1] ?? m[2]!));
}

/** `$NAME`, `${NAME}`, `${NAME:-x}` print the value; `${NAME:+set}`, `${#NAME}` and a masked prefix (`${NAME:0:4}`) do not. */
const SECRET_REFERENCE = /\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)(?!:?\+|:\s*\d+\s*:\s*[1-8]\s*\})[^}]*\})/g;

/** A word's source without its `$(…)` and backtick substitutions (what they print is judged where they run). */
function withoutSubstitutions(source: string): string {
  if (!source.includes('$(') && !source.includes('`')) return source;
  let out = '';
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '`') { const end = source.indexOf('`', i + 1); if (end < 0) break; i = end; continue; }
    if (source[i] === '$' && source[i + 1] === '(') {
      let depth = 0;
      let k = i + 1;
      for (; k < source.length; k++) { if (source[k] === '(') depth++; else if (source[k] === ')' && --depth === 0) break; }
      i = k;
      continue;
    }
    out += source[i];
  }
  return out;
}

/** Programs that print a file named to them (`cat .git/config`, `grep url .git/config`). */
const FILE_PRINTERS = /^(cat|bat|batcat|less|more|head|tail|grep|egrep|rg|awk|gawk|sed|nl|strings|xxd|od|view|tac)$/;

/**
 * Commands that print a git remote's URL: `git remote -v`, `git remote get-url|show X`, `git config --get
 * remote.X.url`, `git config -l`, a printer of `.git/config`. Only a finding where the service found a credential in
 * a remote URL of the project's git config (`remoteCredentials`): anywhere else they print where the repository lives.
 */
function printsRemoteUrl(v: CommandView): boolean {
  if (v.program !== 'git') return FILE_PRINTERS.test(v.program) && v.args.some((a) => /(^|\/)\.git\/config$/.test(a));
  const w = v.args.filter((a) => !a.startsWith('-'));
  const i = w.findIndex((a) => a === 'remote' || a === 'config');
  if (i < 0 || v.args.some((a) => a === '-C' || a === '--git-dir' || a.startsWith('--git-dir='))) return false;
  // (`git remote` and `git remote show` alone list the names only.)
  if (w[i] === 'remote') return (/^(get-url|show)$/.test(w[i + 1] ?? '') && w.length > i + 2) || (w.length === i + 1 && v.args.some((a) => a === '-v' || a === '--verbose'));
  if (v.args.some((a) => /^(-l|--list)$/.test(a))) return true;
  const key = w[i + 1] ?? '';
  return /^remote\..+\.(url|pushurl)$/i.test(key) && w.length === i + 2 || (v.args.some((a) => /^--get(-all|-regexp)?$/.test(a)) && /^remote/i.test(key));
}

export const SECRET_DANGERS: DangerEntry[] = [
  {
    id: 'secret-variable-print', risk: 'high', reason: "prints a secret held in an environment variable (a token, key or password) into the agent's output",
    programs: ['echo', 'printf', 'printenv', 'grep', 'cat', 'tee', 'base64', 'base32', 'xxd', 'od', 'hexdump', 'rev', 'tr', 'head', 'tail', 'xargs', 'sed', 'cut', 'egrep', 'rg', 'jq', 'gojq', 'python', 'python3', 'node', 'ruby', 'perl', 'php', 'awk', 'gawk', 'mawk', 'deno', 'bun'],
    examples: ['echo $GITHUB_TOKEN', 'printenv AWS_SECRET_ACCESS_KEY', 'printf "%s\\n" "$OPENAI_API_KEY"', 'echo "token=${NPM_TOKEN}"', 'env | grep TOKEN', "node -p 'process.env.NPM_TOKEN'",
      'python3 -c "import os; print(os.environ[\'GITHUB_TOKEN\'])"', "node -e 'console.log(process.env.OPENAI_API_KEY)'", 'jq -n env.GITHUB_TOKEN', "awk 'BEGIN { print ENVIRON[\"GITHUB_TOKEN\"] }'"],
    match: printsSecretVariable,
  },
  {
    id: 'secret-file-print', risk: 'high', reason: 'prints a secret a tool keeps in a protected file (an AWS secret key, a kubeconfig with its keys, GnuPG private keys, a cloud or GitHub token): denied as reading that file is',
    programs: SECRET_PRINTER_PROGRAMS,
    examples: SECRET_PRINTERS.flatMap((p) => p.examples),
    // (`gh auth token >/dev/null && echo logged-in` only asks whether there is one.)
    match: (v) => secretPrinted(v) !== undefined && !v.redirects.some((r) => stdoutToFile(r) && r.target?.value === '/dev/null'),
  },
  {
    id: 'git-remote-credential-print', risk: 'high', reason: "prints a git remote's URL that holds a credential (https://user:TOKEN@host/…) in the project's git config: denied as reading a credential file is",
    programs: ['git', 'cat', 'bat', 'batcat', 'less', 'more', 'head', 'tail', 'grep', 'egrep', 'rg', 'awk', 'gawk', 'sed', 'nl', 'strings', 'xxd', 'od', 'view', 'tac'],
    examples: ['git remote -v', 'git remote get-url origin', 'git remote show origin', 'git config --get remote.origin.url', 'git config -l', 'cat .git/config', 'grep url .git/config'],
    match: printsRemoteUrl,
    when: 'remote-credentials',
  },
  {
    id: 'credential-export', risk: 'high', reason: 'prints secrets a tool keeps for you (private keys, access tokens, stored passwords, kubeconfig credentials, the values in a secret store, a keychain or a password manager): the output is the secret',
    programs: ['gpg', 'gpg2', 'kubectl', 'k', 'oc', 'aws', 'gcloud', 'az', 'gh', 'git', 'heroku', 'sops', 'ansible-vault', 'getent', 'pulumi', 'vault', 'op', 'doppler', 'security', 'secret-tool', 'pass', 'gopass', 'kwallet-query', 'keyring', 'glab', 'flyctl', 'fly', 'bw', 'lpass', 'keepassxc-cli', 'npm', 'pnpm', 'yarn', 'docker', 'podman', 'nerdctl',
      'docker-credential-pass', 'docker-credential-secretservice', 'docker-credential-osxkeychain', 'docker-credential-desktop', 'docker-credential-wincred', 'docker-credential-ecr-login', 'docker-credential-gcloud'],
    examples: ['gpg --export-secret-keys -a', 'kubectl config view --raw', 'aws configure export-credentials', 'aws configure get aws_secret_access_key', 'gcloud auth print-access-token', 'gh auth token', 'az account get-access-token',
      "printf 'protocol=https\\nhost=github.com\\n' | git credential fill", 'gh auth status --show-token', 'heroku auth:token', 'getent shadow', 'pulumi stack export --show-secrets',
      "kubectl get secret db -o jsonpath='{.data.password}'", 'kubectl get secret db -o yaml', 'aws secretsmanager get-secret-value --secret-id prod/db', 'aws ssm get-parameter --with-decryption --name x',
      'vault read -field=value secret/x', 'vault kv get secret/x', 'gcloud secrets versions access latest --secret x', 'az keyvault secret show --name x --vault-name v', 'op read op://vault/item/password', 'doppler secrets download',
      'security find-generic-password -s github -w', 'security find-internet-password -s github.com -g', 'secret-tool lookup service x', 'pass show email/work', 'kwallet-query -r key wallet', 'keyring get system user', 'aws ecr get-login-password', 'glab auth status --show-token', 'bw get password github',
      "gh auth git-credential get <<< 'host=github.com'", 'sops -d secrets.enc.yaml', 'sops decrypt secrets.json', 'ansible-vault view group_vars/all/vault.yml', 'gh config get -h github.com oauth_token', 'npm config get //registry.npmjs.org/:_authToken', 'echo https://index.docker.io/v1/ | docker-credential-pass get', "docker inspect api --format '{{json .Config.Env}}'"],
    // (`gh auth token >/dev/null && echo logged-in` only asks whether there is one.)
    match: (v) => exportsCredentials(v) && !v.redirects.some((r) => stdoutToFile(r) && r.target?.value === '/dev/null'),
  },
  {
    id: 'repository-decrypt', risk: 'high', reason: "decrypts the repository's encrypted secrets in place (git-crypt unlock, transcrypt, blackbox) or copies out the key that does (git-crypt export-key): every password and key they hold is plain text for the next read",
    programs: ['git-crypt', 'transcrypt', 'blackbox_decrypt_all_files', 'blackbox_cat'],
    examples: ['git-crypt unlock', 'git-crypt unlock ~/keys/repo.key && cat config/credentials.yml', 'git-crypt export-key /tmp/repo.key', 'transcrypt -c aes-256-cbc -p secret -y', 'blackbox_decrypt_all_files'],
    // (`git-crypt export-key FILE` copies the key that decrypts them all out of .git; to stdout it is denied, secret-printers.ts.)
    match: (v) => (v.program === 'git-crypt' && /^(unlock|export-key)$/.test(v.args.filter((a) => !a.startsWith('-'))[0] ?? '')) || (v.program === 'transcrypt' && !v.args.some((a) => /^(-l|--list|-h|--help|-v|--version|-d|--display)$/.test(a))) || v.program === 'blackbox_decrypt_all_files' || v.program === 'blackbox_cat',
  },
  ...DEPLOYED_SECRET_DANGERS,
];
