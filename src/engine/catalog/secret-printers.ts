// Commands that print a secret a tool keeps in a protected file: denied exactly as reading that file is (issue 26).
//
// `aws configure get aws_secret_access_key` prints what `cat ~/.aws/credentials` would; toolgate denies the second
// (a protected path), so it denies the first. A secret manager's values printed to the terminal (`vault kv get`,
// `doppler secrets download --no-file`, `aws secretsmanager get-secret-value`) are read with the login it keeps, and
// are denied the same way (issue 26, round 4); written to a file they stay asked about (`credential-export`).
// Workload secrets read from a cluster (`kubectl get secret -o yaml`) stay asked about too.
// Adding a program is one entry here plus a test (test/engine/secret-printers.test.ts runs every example and control).
import { atBase, stdoutToFile, type CommandView } from '../shell/view.ts';
import { operands } from './flags.ts';
import { gitCommand } from './danger-git.ts';
import { MINTED_CREDENTIALS } from './minted-credentials.ts';
import { FRAMEWORK_SECRETS } from './framework-secrets.ts';

/** One program (or family) that prints a secret it keeps in a protected file. */
export interface SecretPrinter {
  id: string;
  /** The program names it runs under. */
  programs: readonly string[];
  /**
   * The protected file or directory the secret (or the key that decrypts it) is kept in, relative to the home. Left
   * out only for a tool whose secret is kept encrypted in the project with no fixed key file (`ansible-vault`), or
   * in a password manager's own vault with a per-session unlock (Bitwarden, LastPass, KeePassXC).
   */
  keptIn?: string;
  reason: string;
  /** Whether the command (its non-option words and options) prints the secret. */
  prints(words: readonly string[], args: readonly string[], v: CommandView): boolean;
  /** Commands that print the secret (denied). */
  examples: string[];
  /** The program's commands that print no secret (allowed). */
  controls: string[];
}

/** Options before a cloud CLI's subcommand that take a value (`aws --profile prod configure get …`). */
const CLOUD_WITH_ARG = [
  '--profile',
  '--region',
  '--output',
  '--endpoint-url',
  '--query',
  '--project',
  '--account',
  '--configuration',
  '--format',
  '--subscription',
];
const KUBECTL_WITH_ARG = [
  '-n',
  '--namespace',
  '-o',
  '--output',
  '--context',
  '--cluster',
  '--user',
  '--kubeconfig',
  '-s',
  '--server',
];

/** Programs that print a file they are given. */
const FILE_PRINTERS = [
  'cat',
  'tac',
  'head',
  'tail',
  'less',
  'more',
  'bat',
  'batcat',
  'xxd',
  'od',
  'hexdump',
  'base64',
  'strings',
  'nl',
  'grep',
  'rg',
  'awk',
  'sed',
  'cut',
  'view',
];

// One line per entry: the table is read down its rows, so the formatter leaves it as written.
// prettier-ignore
export const SECRET_PRINTERS: readonly SecretPrinter[] = [
  {
    id: 'aws-configure-secret', programs: ['aws'], keptIn: '.aws/credentials', reason: 'prints an AWS secret key or session token from ~/.aws/credentials',
    prints: (_, args) => {
      const [group, command, key] = operands([...args], CLOUD_WITH_ARG);
      return group === 'configure' && (command === 'export-credentials' || (command === 'get' && /secret|session_token|(^|\.)token$/i.test(key ?? '')));
    },
    examples: ['aws configure get aws_secret_access_key', 'aws --profile prod configure get aws_session_token', 'aws configure export-credentials --format env'],
    controls: ['aws configure get region', 'aws configure list', 'aws configure get output --profile prod'],
  },
  {
    id: 'kubeconfig-raw', programs: ['kubectl', 'k', 'oc'], keptIn: '.kube/config', reason: "prints the kubeconfig's client keys and tokens (`config view --raw` / `--flatten`) from ~/.kube/config",
    prints: (_, args) => {
      const [group, command] = operands([...args], KUBECTL_WITH_ARG);
      return group === 'config' && command === 'view' && args.some((a) => a === '--raw' || a === '--flatten' || a === '--raw=true');
    },
    examples: ['kubectl config view --raw', 'kubectl config view --flatten --minify', 'oc config view --raw'],
    controls: ['kubectl config view', 'kubectl config view --minify', 'kubectl config current-context'],
  },
  {
    id: 'gpg-secret-keys', programs: ['gpg', 'gpg2'], keptIn: '.gnupg', reason: 'exports private keys from the GnuPG keyring in ~/.gnupg',
    prints: (_, args) => args.some((a) => /^--export-secret-(sub)?k/.test(a)) && !args.some((a) => a === '-o' || a.startsWith('--output')),
    examples: ['gpg --export-secret-keys -a', 'gpg2 --armor --export-secret-subkeys ABCD', 'gpg --armor --export-secret-key ABCD | base64'],
    controls: ['gpg --export -a ABCD', 'gpg --list-secret-keys', 'gpg --armor --export me@example.com'],
  },
  {
    id: 'gcloud-token', programs: ['gcloud'], keptIn: '.config/gcloud', reason: 'prints a Google Cloud access or identity token made from the login in ~/.config/gcloud',
    prints: (words) => (words[0] === 'auth' && /^print-(access|identity|refresh)-token$/.test(words[1] ?? '')) || (words[0] === 'auth' && words[1] === 'application-default' && /^print-(access|refresh)-token$/.test(words[2] ?? '')),
    examples: ['gcloud auth print-access-token', 'gcloud auth application-default print-access-token', 'gcloud auth print-identity-token'],
    controls: ['gcloud auth list', 'gcloud config get-value project'],
  },
  {
    id: 'az-token', programs: ['az'], keptIn: '.azure', reason: 'prints an Azure access token made from the login in ~/.azure',
    prints: (_, args) => { const [group, command] = operands([...args], CLOUD_WITH_ARG); return group === 'account' && command === 'get-access-token'; },
    examples: ['az account get-access-token', 'az account get-access-token --resource https://management.azure.com'],
    controls: ['az account show', 'az account list -o table'],
  },
  {
    id: 'gh-token', programs: ['gh'], keptIn: '.config/gh/hosts.yml', reason: "prints the GitHub CLI's token from ~/.config/gh/hosts.yml",
    prints: (words, args) => (words[0] === 'auth' && (words[1] === 'token' || (words[1] === 'git-credential' && words[2] === 'get') || (words[1] === 'status' && args.some((x) => x === '--show-token' || x === '-t')))) || (words[0] === 'config' && words[1] === 'get' && args.some((x) => /token/i.test(x))),
    examples: ["gh auth git-credential get <<< 'host=github.com'", 'gh auth token', 'gh auth status --show-token', 'gh config get -h github.com oauth_token'],
    controls: ['gh auth status', 'gh config get git_protocol'],
  },
  {
    id: 'npm-registry-token', programs: ['npm', 'pnpm', 'yarn'], keptIn: '.npmrc', reason: 'prints a registry token from ~/.npmrc',
    prints: (words, args) => words[0] === 'config' && words[1] === 'get' && args.some((x) => /_auth|authtoken|_password/i.test(x)),
    examples: ['npm config get //registry.npmjs.org/:_authToken', 'yarn config get npmAuthToken'],
    controls: ['npm config get registry', 'npm config list'],
  },
  {
    id: 'git-credential-fill', programs: ['git'], keptIn: '.git-credentials', reason: "prints a stored git password from git's credential store (~/.git-credentials)",
    prints: (_, args) => { const [command, action] = gitCommand([...args]); return (command === 'credential' && action === 'fill') || (/^credential-/.test(command ?? '') && action === 'get'); },
    examples: ["printf 'protocol=https\\nhost=github.com\\n' | git credential fill", "git credential-store get <<< 'host=github.com'"],
    controls: ['git config credential.helper'],
  },
  {
    id: 'heroku-token', programs: ['heroku'], keptIn: '.netrc', reason: "prints the Heroku API token from ~/.netrc",
    prints: (words) => words[0] === 'auth:token',
    examples: ['heroku auth:token'],
    controls: ['heroku auth:whoami'],
  },
  {
    id: 'docker-credential-get', programs: ['docker-credential-pass', 'docker-credential-secretservice', 'docker-credential-osxkeychain', 'docker-credential-desktop', 'docker-credential-wincred', 'docker-credential-ecr-login', 'docker-credential-gcloud', 'docker-credential-gcr'], keptIn: '.docker/config.json',
    reason: "prints a registry login from docker's credential store",
    prints: (words) => words[0] === 'get',
    examples: ['echo https://index.docker.io/v1/ | docker-credential-pass get', 'echo 123456789012.dkr.ecr.us-east-1.amazonaws.com | docker-credential-ecr-login get'],
    controls: ['docker-credential-pass list'],
  },
  {
    id: 'keychain-password', programs: ['security', 'secret-tool', 'kwallet-query'], keptIn: 'Library/Keychains', reason: 'prints a saved password from the desktop keychain or keyring',
    prints: (words, args, v) => v.program === 'security' ? (/^find-(generic|internet)-password$/.test(words[0] ?? '') && args.some((x) => /^-[a-z]*[wg][a-z]*$/.test(x))) || (words[0] === 'dump-keychain' && args.some((x) => /^-[a-z]*d/.test(x)))
      : v.program === 'secret-tool' ? words[0] === 'lookup' : args.some((x) => x === '-r' || x === '--read-password'),
    examples: ['security find-generic-password -s github -w', 'security find-generic-password -wa github', 'secret-tool lookup service x', 'kwallet-query -r key wallet'],
    controls: ['security find-generic-password -s github', 'security list-keychains'],
  },
  // Issue 28: more CLIs that print the token they keep, and more decrypted secret stores.
  {
    id: 'fly-token', programs: ['fly', 'flyctl'], keptIn: '.fly/config.yml', reason: "prints the Fly.io access token from ~/.fly/config.yml",
    prints: (words) => words[0] === 'auth' && words[1] === 'token' || (words[0] === 'tokens' && /^(create|deploy|org|readonly)$/.test(words[1] ?? '')),
    examples: ['fly auth token', 'flyctl auth token', 'fly tokens create deploy -a acme-prod'],
    controls: ['fly auth whoami', 'fly tokens list'],
  },
  {
    id: 'glab-token', programs: ['glab'], keptIn: '.config/glab-cli/config.yml', reason: "prints the GitLab CLI's token from ~/.config/glab-cli/config.yml",
    prints: (words, args) => (words[0] === 'auth' && (words[1] === 'token' || (words[1] === 'status' && args.some((x) => x === '--show-token' || x === '-t')))) || (words[0] === 'config' && words[1] === 'get' && /token/i.test(words[2] ?? '')),
    examples: ['glab auth status --show-token', 'glab auth status -t', 'glab config get token --host gitlab.com'],
    controls: ['glab auth status', 'glab config get editor'],
  },
  {
    id: 'travis-token', programs: ['travis'], keptIn: '.travis/config.yml', reason: "prints the Travis CI CLI's access token from ~/.travis/config.yml",
    prints: (words) => words[0] === 'token',
    examples: ['travis token', 'travis token --org'],
    controls: ['travis whoami', 'travis status'],
  },
  {
    id: 'doctl-token', programs: ['doctl'], keptIn: '.config/doctl', reason: "prints the DigitalOcean API token from ~/.config/doctl",
    prints: (words) => words[0] === 'auth' && words[1] === 'token',
    examples: ['doctl auth token'],
    controls: ['doctl auth list', 'doctl account get'],
  },
  {
    id: 'wrangler-token', programs: ['wrangler'], keptIn: '.wrangler/config/default.toml', reason: "prints Wrangler's Cloudflare OAuth token from its config file",
    prints: (words) => words[0] === 'auth' && words[1] === 'token',
    examples: ['wrangler auth token', 'wrangler auth token --json'],
    controls: ['wrangler whoami'],
  },
  {
    id: 'cloud-login-token', programs: ['aws'], keptIn: '.aws/credentials', reason: 'prints a registry password or short-lived credentials minted from the AWS login in ~/.aws (ecr get-login-password, sts get-session-token, eks get-token, …)',
    prints: (_, args) => {
      const [service, operation = ''] = operands([...args], CLOUD_WITH_ARG);
      return ((service === 'ecr' || service === 'ecr-public') && /^(get-login-password|get-authorization-token)$/.test(operation))
        || (service === 'sts' && /^(get-session-token|assume-role|assume-role-with-web-identity|get-federation-token)$/.test(operation))
        || (service === 'codeartifact' && operation === 'get-authorization-token') || (service === 'eks' && operation === 'get-token')
        || (service === 'rds' && operation === 'generate-db-auth-token') || (service === 'sso' && operation === 'get-role-credentials');
    },
    examples: ['aws ecr get-login-password --region us-east-1', 'aws sts get-session-token', 'aws codeartifact get-authorization-token --domain acme --query authorizationToken --output text', 'aws eks get-token --cluster-name prod'],
    controls: ['aws sts get-caller-identity', 'aws ecr describe-repositories', 'aws eks describe-cluster --name prod'],
  },
  {
    id: 'gpg-decrypt', programs: ['gpg', 'gpg2'], keptIn: '.gnupg', reason: 'decrypts a file to the terminal with the private key in ~/.gnupg',
    // (Decrypted into a file, by `-o`/`--output` or `>`, it is not printed.)
    prints: (_, args, v) => args.some((a) => a === '-d' || a === '--decrypt' || /^-[a-zA-Z]*d$/.test(a) && !a.startsWith('--')) && !args.some((a) => /^(-o|--output)(=|$)/.test(a) || /^-[a-zA-Z]*o$/.test(a)) && !v.redirects.some(stdoutToFile),
    examples: ['gpg --decrypt secrets/api-keys.txt.gpg', 'gpg -d .env.gpg', 'gpg2 --quiet --decrypt creds.asc'],
    controls: ['gpg --list-keys', 'gpg --verify release.tar.gz.sig', 'gpg -o plain.txt -d secret.gpg'],
  },
  {
    id: 'age-decrypt', programs: ['age', 'rage'], keptIn: '.config/age', reason: 'decrypts an age file to the terminal with a private key (kept in ~/.config/age)',
    prints: (_, args, v) => args.some((a) => a === '-d' || a === '--decrypt' || /^-[a-zA-Z]*d[a-zA-Z]*$/.test(a) && !a.startsWith('--')) && !args.some((a) => /^(-o|--output)(=|$)/.test(a)) && !v.redirects.some(stdoutToFile),
    examples: ['age -d -i ~/key.txt secrets.env.age', 'age --decrypt -i key.txt creds.age'],
    controls: ['age-keygen -y key.pub.txt', 'age -d -o plain.env -i key.txt secrets.env.age', 'age -r age1xyz -o x.age x.txt'],
  },
  {
    id: 'app-credentials-show', programs: ['rails', 'rake', 'dotnet', 'console', 'php', 'symfony'], keptIn: '.microsoft/usersecrets',
    reason: "prints an application's encrypted credentials or user secrets (rails credentials:show, dotnet user-secrets list, Symfony's secrets:reveal)",
    prints: (words, args, v) => v.program === 'dotnet' ? words[0] === 'user-secrets' && words[1] === 'list'
      : /^(console|php|symfony)$/.test(v.program) ? words.includes('secrets:reveal') || (words.includes('secrets:list') && args.includes('--reveal'))
      : /^credentials:show$|^encrypted:show$/.test(words[0] ?? '') || (/^(credentials|encrypted):edit$/.test(words[0] ?? '') && PRINTING_EDITOR.test(v.text)),
    examples: ['bin/rails credentials:show', 'rails credentials:show --environment production', 'EDITOR=cat bin/rails credentials:edit --environment production', 'VISUAL=less rails credentials:edit', 'dotnet user-secrets list --project src/Api', 'php bin/console secrets:reveal DATABASE_PASSWORD', 'symfony console secrets:list --reveal'],
    controls: ['bin/rails credentials:help', 'EDITOR=vim bin/rails credentials:edit', 'dotnet user-secrets init', 'rails routes', 'php bin/console secrets:list', 'php bin/console cache:clear'],
  },
  {
    id: 'npm-config-json', programs: ['npm'], keptIn: '.npmrc', reason: 'prints npm\'s whole configuration unmasked (`config list --json`), registry tokens from ~/.npmrc included',
    // (`npm token create` prints a new token made with the login in ~/.npmrc.)
    prints: (words, args) => (words[0] === 'config' && /^(list|ls)$/.test(words[1] ?? '') && args.includes('--json')) || (words[0] === 'token' && words[1] === 'create'),
    examples: ["npm config list --json -l | jq '.\"//registry.npmjs.org/:_authToken\"'", 'npm config ls --json', 'npm token create --read-only'],
    controls: ['npm config list', 'npm config list -l', 'npm config get registry', 'npm token list'],
  },
  {
    // A private key saved straight in the home or one folder down (`~/prod-bastion.pem`, `~/aws/deploy.key`), printed:
    // the protected paths cover the usual key folders, but a glob over the home itself must stay open (`du -sh ~/*`),
    // so the home's own key files are judged here, by the programs that print a file.
    id: 'home-key-file-print', programs: ['cat', 'tac', 'head', 'tail', 'less', 'more', 'bat', 'batcat', 'xxd', 'od', 'hexdump', 'base64', 'strings', 'nl', 'openssl'],
    reason: 'prints a private key file kept in the home (by its extension or an SSH key\'s name)',
    prints: (words, args, v) => {
      // Only names known in full: a name partly unknown (`~/.s${x}sh/id_rsa`) is the protected paths' to ask about.
      const known = v.words.slice(1).filter((w) => !w.dynamic && !w.glob).map((w) => w.value);
      if (v.program === 'openssl') return /^(rsa|pkey|ec|pkcs12|pkcs8)$/.test(words[0] ?? '') && !args.some((a) => /^-(pubout|noout|out)$/.test(a)) && homeKeyFile(known[known.indexOf('-in') + 1] ?? '', v.home);
      return known.some((w) => !w.startsWith('-') && homeKeyFile(w, v.home)) && !v.redirects.some(stdoutToFile);
    },
    examples: ['cat ~/prod-bastion.pem', 'head -5 ~/aws/deploy.key', 'openssl rsa -in ~/prod.pem -text'],
    controls: ['cat ~/notes.txt', 'ls ~/prod.pem', 'openssl x509 -in ~/ca.pem -noout -text', 'cat ~/work/project/certs/dev.pem'],
  },
  // Secrets decrypted or fetched from a store and printed (issue 26, round 2: "printing a secret is reading it").
  {
    id: 'sops-decrypt', programs: ['sops'], keptIn: '.config/sops/age/keys.txt', reason: 'decrypts a SOPS secrets file to the terminal with the age key in ~/.config/sops/age/keys.txt',
    // (Decrypted into a file, by `--output`, `-i` or `>`, it is not printed; `> secrets.yaml` stays asked, credential-export.)
    prints: (words, args, v) => (args.includes('-d') || args.includes('--decrypt') || words[0] === 'decrypt') && !args.some((a) => /^(--output|--in-place|-i)(=|$)/.test(a)) && !v.redirects.some(stdoutToFile),
    examples: ['sops -d secrets.enc.yaml', 'sops --decrypt config/secrets.enc.json', 'sops decrypt secrets.json'],
    controls: ['sops --version', 'sops -d --output plain.yaml secrets.enc.yaml', 'sops -d secrets.enc.yaml | kubectl apply -f -'],
  },
  {
    id: 'ansible-vault-view', programs: ['ansible-vault'], reason: 'decrypts an Ansible vault to the terminal',
    prints: (words, args) => words[0] === 'view' || (words[0] === 'decrypt' && args.some((a, i) => a === '--output=-' || (a === '--output' && args[i + 1] === '-'))),
    examples: ['ansible-vault view vault.yml', 'ansible-vault decrypt --output - group_vars/prod/vault.yml', 'ansible-vault view --vault-password-file .pw group_vars/all/vault.yml'],
    controls: ['ansible-vault --help', 'ansible-vault encrypt vault.yml'],
  },
  {
    id: 'pass-show', programs: ['pass', 'gopass'], keptIn: '.password-store', reason: 'prints a password from the password store in ~/.password-store',
    prints: (words) => words[0] === 'show' || words[0] === 'cat' || words[0] === 'otp' || (words.length === 1 && !['ls', 'list', 'init', 'git', 'find', 'search', 'grep', 'version', 'help'].includes(words[0]!)),
    examples: ['pass show aws/prod', 'pass email/work', 'gopass show -o github/token', 'pass otp aws/prod'],
    controls: ['pass ls', 'pass find github', 'pass'],
  },
  {
    id: 'vault-secret-get', programs: ['vault'], keptIn: '.vault-token', reason: 'prints a secret from HashiCorp Vault, read with the token in ~/.vault-token',
    prints: (words, args) => (words[0] === 'kv' && words[1] === 'get') || (words[0] === 'read' && /^(secret|kv|database|aws|cubbyhole)\//.test(words[1] ?? '')) || (words[0] === 'read' && args.some((a) => a.startsWith('-field'))),
    examples: ['vault kv get -field=password secret/db', 'vault kv get secret/x', 'vault read -field=value secret/x'],
    controls: ['vault status', 'vault kv list secret/', 'vault secrets list'],
  },
  {
    id: 'op-read', programs: ['op'], keptIn: '.config/op', reason: 'prints a secret from 1Password, read with the session in ~/.config/op',
    prints: (words, args) => words[0] === 'read' || (words[0] === 'item' && words[1] === 'get' && args.includes('--reveal')),
    examples: ['op read op://vault/item/password', 'op item get github --fields password --reveal'],
    controls: ['op item list', 'op whoami'],
  },
  {
    id: 'password-manager-show', programs: ['bw', 'lpass', 'keepassxc-cli'], reason: 'prints a password from a password manager (Bitwarden, LastPass, KeePassXC)',
    prints: (words, args, v) => v.program === 'bw' ? (words[0] === 'get' && /^(password|totp|item|notes)$/.test(words[1] ?? '')) || words[0] === 'export'
      : v.program === 'lpass' ? words[0] === 'show' && !args.includes('--clip') && !args.includes('-c') : (words[0] === 'show' && args.some((a) => a === '-s' || a === '--show-protected' || a.startsWith('--attributes') || a === '-a')) || words[0] === 'export',
    examples: ['bw get password github', 'lpass show --password github', 'keepassxc-cli show -s db.kdbx github'],
    controls: ['bw list folders', 'lpass ls', 'keepassxc-cli ls db.kdbx'],
  },
  // Issue 26, round 3.
  {
    id: 'kube-token-create', programs: ['kubectl', 'k', 'oc'], keptIn: '.kube/config', reason: 'mints and prints a bearer token for a service account (or the session\'s own), made with the login in ~/.kube/config',
    prints: (_, args, v) => {
      const [verb, object] = operands([...args], KUBECTL_WITH_ARG);
      return (verb === 'create' && object === 'token') || (v.program === 'oc' && ((verb === 'whoami' && args.some((a) => a === '-t' || a === '--show-token')) || (verb === 'sa' && object === 'get-token')));
    },
    examples: ['kubectl create token default -n prod', 'kubectl -n ci create token deployer --duration=24h', 'oc whoami --show-token'],
    controls: ['kubectl create serviceaccount ci', 'kubectl get serviceaccounts -n prod', 'oc whoami'],
  },
  {
    // `ps e` (BSD syntax) and macOS's `ps -E` add each process's environment to its command line: what
    // /proc/<pid>/environ holds (protected), tokens passed to the sidecar and the agents included.
    id: 'process-environment', programs: ['ps'], reason: "prints other processes' environments (`ps e`, `ps eww`, `ps -E`): the tokens and keys passed to them",
    prints: (_, args) => {
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (PS_WITH_ARG.has(a)) { i++; continue; }
        if (a === '-E' || (!a.startsWith('-') && /^[auxwefjlsvrhTHmLMSVZcnX]+$/.test(a) && a.includes('e'))) return true;
      }
      return false;
    },
    examples: ['ps eww -o pid,command -p 1234', 'ps auxe', 'ps aexww', 'ps -E -p 42'],
    controls: ['ps aux', 'ps -ef', 'ps -e -o pid,user,command', 'ps -o user -p 1', 'ps -p 42 -o pid,etime,command'],
  },
  {
    // Rails' master key decrypts config/credentials.yml.enc (and a per-environment key its credentials file): with it,
    // every production secret of the application is readable.
    id: 'project-master-key', programs: FILE_PRINTERS, reason: "prints a Rails master key (config/master.key, config/credentials/<env>.key), which decrypts the application's credentials",
    prints: (_, args, v) => v.words.slice(1).some((w) => !w.value.startsWith('-') && PROJECT_KEY.test(w.value)) && !v.redirects.some(stdoutToFile),
    examples: ['cat config/master.key', 'head -c 32 config/credentials/production.key', 'base64 config/master.key', 'xxd ./config/master.key'],
    controls: ['cat config/credentials.yml.enc', 'ls config/credentials', 'cat config/database.yml', 'wc -c config/master.key'],
  },
  {
    // Docker and compose secrets are files in /run/secrets of the container (`docker exec app cat /run/secrets/db_password`,
    // or the agent's own container). Judged here rather than as protected paths: /run/secrets/kubernetes.io/ holds a
    // pod's namespace and CA certificate, which stay readable (its token is a protected path).
    id: 'container-secret-print', programs: FILE_PRINTERS, reason: "prints a container's mounted secret (docker and compose secrets in /run/secrets)",
    prints: (_, args, v) => v.words.slice(1).some((w) => !w.value.startsWith('-') && CONTAINER_SECRET.test(w.value)) && !v.redirects.some(stdoutToFile),
    examples: ['docker exec myapp-api-1 cat /run/secrets/db_password', 'cat /run/secrets/stripe_key', 'docker compose exec api cat /var/run/secrets/postgres_password'],
    controls: ['ls /run/secrets', 'cat /var/run/secrets/kubernetes.io/serviceaccount/namespace', 'docker exec myapp-api-1 cat /app/config.yml'],
  },
  // Issue 26, round 6.
  {
    // A signing keystore or key bundle (Android's `release.jks`, `*.keystore`, PKCS #12 `*.p12`/`*.pfx`, a Kerberos
    // keytab, a wallet, a Solana keypair) is a private key in binary: printed, base64-encoded or hex-dumped, it is the
    // key in the agent's output. keytool prints only certificates (`keytool -list -rfc`) and stays allowed; so do a
    // truststore (`cacerts`, `truststore.jks`: certificates only), Android's `debug.keystore` (its password is
    // public), copies to a file and digests.
    id: 'keystore-print', programs: [...FILE_PRINTERS, 'openssl', 'cp', 'dd'],
    reason: 'prints a signing keystore or private key bundle (`*.jks`, `*.keystore`, `*.p12`, `*.pfx`, a keytab, a wallet or keypair file): the private key in it',
    prints: (words, args, v) => {
      // (macOS's `base64 -i x.p12 -o x.b64` writes a file.)
      if (v.redirects.some(stdoutToFile) || (v.program === 'base64' && args.some((a) => /^(-o|--output)(=|$)/.test(a)))) return false;
      const known = v.words.slice(1).filter((w) => !w.dynamic).map((w) => w.value);
      if (v.program === 'cp') return /^\/dev\/(stdout|tty|fd\/1)$/.test(known.at(-1) ?? '') && known.slice(0, -1).some(keystoreName);
      if (v.program === 'dd') return !args.some((a) => a.startsWith('of=')) && args.some((a) => a.startsWith('if=') && keystoreName(a.slice(3)));
      if (v.program === 'openssl') return /^(base64|enc)$/.test(words[0] ?? '') && !args.includes('-out') && !args.includes('-d') && keystoreName(known[known.indexOf('-in') + 1] ?? '');
      // (`base64 < app/release.jks`: a file given on stdin is printed as one named.)
      const input = v.redirects.filter((r) => !r.write && r.op === '<' && r.target && !r.target.dynamic).map((r) => r.target!.value);
      return [...known, ...input].some((w) => !w.startsWith('-') && keystoreName(w));
    },
    examples: ['base64 -w0 app/release.jks', 'cat android/app/upload-keystore.jks | base64', 'xxd release.keystore', 'base64 -i ios/certs/dist.p12', 'cat certs/client.pfx', 'base64 < app/release.jks', 'openssl base64 -in app/release.jks', 'od -c signing.p12', 'cp app/release.jks /dev/stdout', 'cat /etc/krb5/http.keytab', 'base64 target/deploy/token_program-keypair.json', 'xxd wallet.dat', 'cat .secret', 'cat mnemonic.txt'],
    controls: ['keytool -list -v -keystore app/release.jks', 'keytool -list -rfc -keystore app/release.jks -storepass x', 'keytool -printcert -file cert.pem', 'ls -la app/release.jks', 'sha256sum app/release.jks', 'cp app/release.jks /tmp/release.jks', 'base64 -w0 app/release.jks > /tmp/jks.b64', 'cat $JAVA_HOME/lib/security/cacerts | wc -c', 'xxd config/truststore.jks', 'base64 ~/.android/debug.keystore', 'cat fixtures/test.p12', 'cat src/keystore.ts', 'cat src/keyring.ts', 'cat keypair.ts', 'cat src/wallet/mnemonic.ts', 'base64 -i ios/certs/dist.p12 -o dist.b64'],
  },
  {
    // What a machine keeps for its services, known by name where it lies outside a home and a project (/etc,
    // /var/lib, /usr/local/etc): an environment file (`/etc/default/api.env`, `/etc/myapp/.env`), a file or folder
    // named for secrets or credentials (`/etc/myapp/secrets.yml`, `/etc/secret-volume/password`), a password file, a
    // keyring (ceph), an htpasswd. As printed files rather than protected paths: a recursive read of a folder of /etc
    // (`grep -r server_name /etc/nginx`) would reach a protected name pattern there.
    id: 'system-secret-file-print', programs: [...FILE_PRINTERS, 'jq', 'yq'],
    reason: "prints a secret file a machine keeps for its services (an environment file, a file named for secrets, credentials or passwords under /etc or /var/lib)",
    prints: (_, __, v) => {
      if (v.redirects.some(stdoutToFile)) return false;
      const input = v.redirects.filter((r) => !r.write && r.op === '<' && r.target).map((r) => r.target!);
      return [...v.words.slice(1), ...input].some((w) => !w.dynamic && !w.value.startsWith('-') && systemSecretFile(atBase(w.value, v.base)));
    },
    examples: ['sudo cat /etc/default/api.env', 'cat /etc/myapp/secrets.yml', 'sudo less /etc/myapp/.env', 'sudo cat /etc/secret-volume/password', 'sudo cat /etc/systemd/system/api.service.d/credentials.conf', 'grep -i pass /etc/ceph/ceph.client.admin.keyring', 'cat /etc/nginx/.htpasswd', 'sudo cat /etc/postfix/sasl_passwd', 'cd /etc/default && cat api.env', 'sudo tail /var/lib/myapp/db_password', 'sudo cat /var/lib/postgresql/.pgpass', 'cat /etc/app/client_secret.json'],
    controls: ['cat /etc/default/grub', 'cat /etc/hosts', 'cat /etc/passwd', 'cat /etc/pam.d/common-password', 'cat /etc/nginx/nginx.conf', 'grep -r server_name /etc/nginx', 'ls /etc/default', 'cat /etc/app/.env.example', 'cat /var/lib/app/src/auth/tokens.ts', 'cat .env.example', 'cat /etc/default/locale', 'cat /etc/os-release'],
  },
  {
    // actions/checkout (and other CI) keeps the job's token in the repository's git config as an HTTP header
    // (`http.https://github.com/.extraheader AUTHORIZATION: basic …`); reading that key prints it.
    id: 'git-extraheader-print', programs: ['git'], reason: "prints an HTTP authorization header kept in git's config (`http.<url>.extraheader`, where CI keeps its token)",
    prints: (_, args) => {
      const [command] = gitCommand([...args]);
      const operands = args.filter((a) => !a.startsWith('-'));
      const at = operands.findIndex((a) => /extraheader$/i.test(a));
      return command === 'config' && at >= 0 && at === operands.length - 1 && !args.some((a) => /^--(unset|add|replace-all)/.test(a));
    },
    examples: ['git config --get http.https://github.com/.extraheader', 'git config --local --get-all http.https://github.com/.extraheader', 'git config --get-regexp extraheader'],
    controls: ['git config --get user.email', 'git config --local --unset-all http.https://github.com/.extraheader', 'git config http.postBuffer 524288000'],
  },
  {
    // NetworkManager keeps Wi-Fi and VPN secrets in /etc/NetworkManager/system-connections (protected); nmcli prints them
    // with `--show-secrets` or `device wifi show-password`.
    id: 'nmcli-secrets', programs: ['nmcli'], reason: 'prints Wi-Fi and VPN passwords NetworkManager keeps (nmcli --show-secrets, device wifi show-password)',
    prints: (_, args) => {
      const [object, verb, third] = operands([...args], ['-g', '--get-values', '-f', '--fields', '-m', '--mode', '-c', '--colors', '-e', '--escape', '-w', '--wait']);
      return (args.some((a) => a === '-s' || a === '--show-secrets') && /^(c|con|conn|connection)$/.test(object ?? '') && /^(s|sh|show)$/.test(verb ?? ''))
        || (/^(d|dev|device)$/.test(object ?? '') && verb === 'wifi' && third === 'show-password');
    },
    examples: ['nmcli --show-secrets connection show Home', 'nmcli -s -g 802-11-wireless-security.psk connection show Home', 'nmcli dev wifi show-password'],
    controls: ['nmcli connection show', 'nmcli connection show Home', 'nmcli device status'],
  },
  {
    // `git-crypt export-key -`: the symmetric key that decrypts every file git-crypt protects in the repository.
    id: 'git-crypt-export-key', programs: ['git-crypt'], reason: "prints the repository's git-crypt key, which decrypts every file it protects",
    prints: (words, args) => words[0] === 'export-key' && (args.includes('-') || args.includes('/dev/stdout')),
    examples: ['git-crypt export-key -', 'git-crypt export-key /dev/stdout'],
    controls: ['git-crypt status', 'git-crypt lock'],  // (export-key to a file is asked: repository-decrypt)
  },
  // Issue 26, round 4.
  {
    // A secret manager's values printed to the terminal: read with the login the CLI keeps (Doppler's token in
    // ~/.doppler, AWS, Google Cloud and Azure logins, chamber's AWS profile). `-o file`, `--out-file`, `> file` print
    // nothing (asked, credential-export); listing names prints no value.
    id: 'secret-manager-print', programs: ['doppler', 'chamber', 'infisical', 'aws', 'gcloud', 'az', 'bws', 'akeyless', 'teller', 'berglas', 'op', 'aws-vault'],
    reason: 'prints values from a secret manager (Doppler, chamber, Infisical, AWS Secrets Manager and SSM, Google Secret Manager, Azure Key Vault…), read with the login its CLI keeps',
    prints: (words, args, v) => {
      // (The cloud CLIs' `-o`/`--output` is a format; their files are `--out-file` and `> file`.)
      const cloud = v.program === 'aws' || v.program === 'az' || v.program === 'gcloud';
      if (v.redirects.some(stdoutToFile) || args.some((a) => /^(--out-file|--output-file)(=|$)/.test(a) || (!cloud && /^(-o|--out|--output)(=|$)/.test(a)))) return false;
      const [g, c, x] = operands([...args], CLOUD_WITH_ARG);
      // `doppler run -- printenv`, `aws-vault exec prod -- env`: the secrets injected into a command that prints them all.
      const after = args.indexOf('--');
      if (after >= 0 && /^(env|printenv)$/.test(args[after + 1] ?? '') && args.length === after + 2 && /^(run|exec)$/.test(words[0] ?? '')) return true;
      switch (v.program) {
        case 'doppler': return words[0] === 'secrets' && (words[1] === undefined || words[1] === 'get' || (words[1] === 'download' && args.includes('--no-file'))) && !args.includes('--only-names');
        case 'chamber': return /^(read|export|env)$/.test(words[0] ?? '');
        case 'infisical': return words[0] === 'export' || (words[0] === 'secrets' && (words[1] === undefined || words[1] === 'get') && !args.includes('--silent'));
        case 'aws': return (g === 'secretsmanager' && /^(batch-)?get-secret-value$/.test(c ?? '')) || (g === 'ssm' && /^get-parameter(s|s-by-path|-history)?$/.test(c ?? '') && args.includes('--with-decryption'));
        case 'gcloud': return g === 'secrets' && c === 'versions' && x === 'access' && !args.some((a) => a.startsWith('--out-file'));
        case 'az': return g === 'keyvault' && c === 'secret' && x === 'show';
        case 'bws': return words[0] === 'secret' && (words[1] === 'get' || words[1] === 'list');
        case 'akeyless': return words[0] === 'get-secret-value';
        case 'teller': return /^(show|env|export|yaml|json)$/.test(words[0] ?? '');
        case 'berglas': return words[0] === 'access';
        default: return false;
      }
    },
    examples: ['doppler run -- printenv', 'aws-vault exec prod -- env', 'op run --env-file .env -- printenv', 'chamber exec api -- env', 'doppler secrets download --no-file --format env', 'doppler secrets get DB_PASSWORD --plain', 'chamber export prod-api', 'chamber read prod-api db_password', 'infisical export --env=prod', 'aws secretsmanager get-secret-value --secret-id prod/db', 'aws ssm get-parameter --name /prod/db --with-decryption', 'gcloud secrets versions access latest --secret=db-password', 'az keyvault secret show --vault-name acme --name db', 'bws secret get 0f8e'],
    controls: ['doppler run -- npm start', 'aws-vault exec prod -- aws s3 ls', 'op run -- ./deploy.sh', 'doppler secrets --only-names', 'chamber list prod-api', 'aws secretsmanager list-secrets', 'gcloud secrets list', 'az keyvault secret list --vault-name acme', 'infisical login --help'],
  },
  {
    // `wg showconf` prints an interface's configuration with its private key; `wg show` prints "(hidden)" instead.
    id: 'wireguard-showconf', programs: ['wg', 'wg-quick'], reason: "prints a WireGuard interface's private key (`wg showconf`, `wg show <if> private-key`)",
    prints: (words, _, v) => v.program === 'wg-quick' ? words[0] === 'strip' : words[0] === 'showconf' || (words[0] === 'show' && /^(private-key|preshared-keys)$/.test(words[2] ?? '')),
    examples: ['wg-quick strip wg0', 'wg showconf wg0', 'sudo wg showconf wg0', 'wg show wg0 private-key'],
    controls: ['wg show', 'wg show wg0', 'wg show wg0 public-key', 'wg pubkey < pub.txt'],
  },
  {
    // A private key or a cloud service-account key anywhere, the project included, known by its file name. The engine
    // knows names only: certificates (`cert.pem`, `ca.pem`, `fullchain.pem`) and public keys stay readable.
    id: 'key-file-print', programs: [...FILE_PRINTERS, 'jq', 'yq', 'openssl'],
    reason: "prints a private key or a cloud service-account key, known by its file name (`server.key`, `privkey.pem`, `id_rsa`, `service-account.json`), or exports one from a keystore (`openssl pkcs12 -nodes`)",
    prints: (words, args, v) => {
      // (A glob counts by the name it names: `cat certs/*.key`.)
      const known = v.words.slice(1).filter((w) => !w.dynamic).map((w) => w.value);
      if (v.program === 'openssl') {
        if (args.some((a) => /^-(pubout|noout|out)$/.test(a))) return false;
        const input = known[known.indexOf('-in') + 1] ?? '';
        if (testFixture(input)) return false;
        if (words[0] === 'pkcs12') return args.some((a) => a === '-nodes' || a === '-noenc') && !args.includes('-nokeys');
        return /^(rsa|pkey|ec|pkcs8|dsa)$/.test(words[0] ?? '') && known.includes('-in') && privateKeyName(input);
      }
      if (v.redirects.some(stdoutToFile)) return false;
      return known.some((w) => !w.startsWith('-') && !testFixture(w) && (privateKeyName(w) || serviceAccountKeyName(w)));
    },
    examples: ['cat config/certs/server.key', 'openssl pkcs12 -in keystore.p12 -nodes -passin pass:changeit', 'openssl pkcs12 -in cert.pfx -noenc', 'openssl rsa -in x.key', 'openssl pkey -in certs/privkey.pem', 'cat service-account.json', "jq -r .private_key keys/gcp-sa.json", 'cat deploy/id_ed25519', 'head certs/server-key.pem', 'cat gcp-key.json', 'cat fixtures/../config/certs/server.key', 'cat certs/*.key', 'openssl pkcs8 -topk8 -nocrypt -in key.pem'],
    controls: ['cat ./fixtures/.ssh/id_rsa', 'cat testdata/server.key', 'cat ca.pem', 'cat fullchain.pem', 'openssl x509 -in cert.pem -text', 'cat certs/server.crt', 'cat deploy/id_ed25519.pub', 'cat package.json', 'cat src/keys.ts', 'cat monkey.py', 'cat public.key.pub', 'openssl pkcs12 -in keystore.p12 -nokeys -info', 'openssl rsa -in server.key -pubout', 'openssl pkcs12 -in k.p12 -nodes -out k.pem', 'cat cert-key.pem > /dev/null', 'ls certs/server.key', 'cat pubkey.pem', 'jq .name service.json', 'cat certs/*.crt', 'cat usa.json', 'cat salt.json'],
  },
  ...MINTED_CREDENTIALS,
  ...FRAMEWORK_SECRETS,
];

/** ps's options that take a value (its operand is a list, not BSD flags: `-o user`, `-p 42`). */
const PS_WITH_ARG = new Set([
  '-o',
  '-O',
  '-p',
  '-q',
  '-u',
  '-U',
  '-g',
  '-G',
  '-C',
  '-t',
  '-s',
  '-k',
  '--pid',
  '--ppid',
  '--sort',
  '--format',
  '--cols',
  '--columns',
  '--rows',
  '--user',
  '--group',
  '-N',
  'o',
  'O',
  'p',
  'U',
  't',
  'k',
]);
/** A secret docker or compose mounts into a container (not the pod files under kubernetes.io/ or eks.amazonaws.com/). */
const CONTAINER_SECRET = /^\/(var\/)?run\/secrets\/(?!kubernetes\.io(\/|$)|eks\.amazonaws\.com(\/|$))[^/]+$/;
/** A Rails master key in a project: `config/master.key`, `config/credentials/production.key`. */
const PROJECT_KEY = /(^|\/)config\/(master\.key|credentials\/[^/]+\.key)$/;
/** An EDITOR (or VISUAL) that prints the file it is given instead of editing it: `EDITOR=cat rails credentials:edit`. */
const PRINTING_EDITOR =
  /\b(EDITOR|VISUAL)=["']?(\S*\/)?(cat|tac|less|more|head|tail|bat|batcat|tee|nl|xxd|od|strings|base64|echo|type)\b/;

const BY_PROGRAM = new Map<string, SecretPrinter[]>();
for (const p of SECRET_PRINTERS)
  for (const name of p.programs) BY_PROGRAM.set(name, [...(BY_PROGRAM.get(name) ?? []), p]);

/** The programs some entry knows. */
export const SECRET_PRINTER_PROGRAMS: readonly string[] = [...BY_PROGRAM.keys()];

/** The entry whose secret this command prints, if any. */
export function secretPrinted(v: CommandView): SecretPrinter | undefined {
  const entries = BY_PROGRAM.get(v.program);
  if (!entries) return undefined;
  const words = v.args.filter((a) => !a.startsWith('-'));
  return entries.find((e) => e.prints(words, v.args, v));
}

/** A private key file (`*.pem`, `*.key`, `*.ppk`, `*.p12`, `*.pfx`, `id_rsa`…) right in the home or one folder down. */
function homeKeyFile(path: string, home: string): boolean {
  if (!path.startsWith(`${home}/`)) return false;
  const rest = path.slice(home.length + 1).split('/');
  return (
    rest.length <= 2 &&
    !rest.includes('..') &&
    /\.(pem|key|ppk|p12|pfx)$|^id_(rsa|ed25519|ecdsa|dsa)$/.test(rest.at(-1)!)
  );
}

/**
 * A private key by its name: `*.key` (not `*.pub.key`), a `.pem` whose name says key or private (not `pubkey.pem`,
 * `public-key.pem`), a PuTTY key, an SSH key's name (`id_rsa`, not `id_rsa.pub`).
 */
function privateKeyName(path: string): boolean {
  const name = path.split('/').at(-1)!.toLowerCase();
  if (/pub(lic)?([-_.]?key)?\b|\.pub$/.test(name) || /^(pub|public)/.test(name)) return false;
  return (
    /\.(key|ppk)$/.test(name) ||
    (/\.pem$/.test(name) && /key|priv/.test(name)) ||
    /^id_(rsa|ed25519|ecdsa|dsa)$/.test(name)
  );
}

/**
 * A test's own key in a fixtures folder of the project (`./fixtures/.ssh/id_rsa`, `testdata/server.key`): made for
 * the tests, read by them. A path that climbs out (`fixtures/../config/server.key`) is no fixture.
 */
function testFixture(path: string): boolean {
  const parts = path.split('/');
  return (
    !path.startsWith('/') &&
    !parts.includes('..') &&
    parts.some((p) => /^(__)?(fixtures?|testdata|test-?data|test-?fixtures)(__)?$/i.test(p))
  );
}

/** A cloud service-account key file by its name: `service-account.json`, `gcp-sa.json`, `gcp-key.json`, `sa-key.json`. */
function serviceAccountKeyName(path: string): boolean {
  const name = path.split('/').at(-1)!.toLowerCase();
  return (
    (/^(.*[-_.])?(service[-_]?account|sa)([-_.].*)?\.json$/.test(name) &&
      /service[-_]?account|(^|[-_.])sa([-_.]|\.json$)/.test(name)) ||
    /^(gcp|gcloud|google|firebase)[-_](key|credentials|service[-_]?account)\.json$/.test(name) ||
    /^(sa|gcp)[-_]?key\.json$/.test(name) ||
    /firebase-adminsdk.*\.json$/.test(name)
  );
}

/**
 * A keystore or key bundle by its name: Java and Android keystores (`*.jks`, `*.keystore`, `*.bks`), PKCS #12 (`*.p12`,
 * `*.pfx`), Kerberos keytabs, a wallet (`wallet.dat`, geth's `UTC--…` key files, a mnemonic or `.secret` seed phrase file),
 * a Solana keypair (`*keypair*.json`). Not a truststore
 * (`cacerts`, `truststore.jks`), Android's `debug.keystore` (its password is public) or a test fixture.
 */
function keystoreName(path: string): boolean {
  const name = path.split('/').at(-1)!.toLowerCase();
  if (/trust|cacerts/.test(name) || name === 'debug.keystore' || testFixture(path)) return false;
  return (
    /\.(jks|keystore|bks|p12|pfx|keytab)$|^wallet\.dat$|^utc--.*--[0-9a-f]+$|^\.secret$|^[^.]*(mnemonic|seed[-_]?phrase)[^.]*(\.(txt|json))?$/.test(
      name,
    ) || /keypair.*\.json$/.test(name)
  );
}

/**
 * Where a machine keeps its services' files: the system's configuration and state. (Not the places applications are
 * deployed to, /srv, /opt, /var/www: their env files read over ssh are `deployed-secrets-print`, asked.)
 */
const SYSTEM_PLACE = /^\/(etc|var\/lib|usr\/local\/etc)\//;
/** A part of such a path named for a secret: `secrets.yml`, `secret-volume`, `credentials.conf`, `db_password`, `api_token`. */
const SECRET_PART =
  /secret|credential|(^|[-_.])(password|passwords|token|tokens)([-_.]|$)|^\.htpasswd$|^sasl_passwd$|\.keyring$|^\.(pgpass|my\.cnf|netrc|git-credentials)$/i;

/** An environment file or a file named for secrets in a system place (`/etc/default/api.env`, `/etc/app/secrets.yml`). */
function systemSecretFile(path: string): boolean {
  if (!SYSTEM_PLACE.test(path) || path.startsWith('/etc/pam.d/')) return false;
  const parts = path.split('/').slice(2);
  const name = parts.at(-1)!;
  // (Templates, and source or documents kept there: `/var/lib/app/src/tokens.ts` is code.)
  if (/\.(example|sample|template|dist|tmpl|py|rb|js|ts|go|java|php|rs|c|h|md|html|css)$/i.test(name)) return false;
  return /^\.env(\.[\w-]+)?$|\.env$/.test(name) || parts.some((p) => SECRET_PART.test(p));
}
