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
import { inlineCode } from './inline-code.ts';
import { isHistoryFile } from './sensitive-targets.ts';
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

/** Interpreters whose inline code may print a key file it names (key-file-print). */
const KEY_READERS = ['python', 'python3', 'node', 'ruby', 'perl', 'php', 'deno', 'bun'];

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
      // (Round 5 of issue 26: the access key id too — it is read from the same protected file, and every probe
      // writer labels it a credential read, as `grep aws_access_key_id ~/.aws/credentials` is denied.)
      return group === 'configure' && (command === 'export-credentials' || (command === 'get' && /secret|session_token|(^|\.)token$|access_key_id$/i.test(key ?? '')));
    },
    examples: ['aws configure get aws_secret_access_key', 'aws --profile prod configure get aws_session_token', 'aws configure export-credentials --format env', 'aws configure get aws_access_key_id --profile prod'],
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
    examples: ['gpg --export-secret-keys -a', 'gpg2 --armor --export-secret-subkeys ABCD', 'gpg --armor --export-secret-key dev@acme.com', 'gpg --armor --export-secret-key ABCD | base64'],
    controls: ['gpg --export -a ABCD', 'gpg --list-secret-keys', 'gpg --armor --export me@example.com'],
  },
  {
    id: 'gcloud-token', programs: ['gcloud'], keptIn: '.config/gcloud', reason: 'prints a Google Cloud access or identity token made from the login in ~/.config/gcloud',
    // (Round 5 of issue 26: keys and tokens minted and printed — a service-account key created to stdout, `config
    // config-helper`'s access token, an API key's string, `kms decrypt` to stdout, a Cloud SQL login token.)
    prints: (all, args) => {
      const words = /^(alpha|beta)$/.test(all[0] ?? '') ? all.slice(1) : all;
      const [g, c, x, y] = words;
      return (g === 'auth' && /^print-(access|identity|refresh)-token$/.test(c ?? '')) || (g === 'auth' && c === 'application-default' && /^print-(access|refresh)-token$/.test(x ?? ''))
        || (g === 'iam' && c === 'service-accounts' && x === 'keys' && y === 'create' && args.some((a) => a === '-' || TO_STDOUT.test(a)))
        || (g === 'config' && c === 'config-helper' && !args.some((a) => /^--format=value\((?!.*(credential|token))/.test(a)))
        || (g === 'services' && c === 'api-keys' && x === 'get-key-string') || (g === 'sql' && c === 'generate-login-token')
        || (g === 'kms' && c === 'decrypt' && args.some((a, i) => /^--plaintext-file=(-|\/dev\/stdout)$/.test(a) || (a === '--plaintext-file' && /^(-|\/dev\/stdout)$/.test(args[i + 1] ?? ''))));
    },
    examples: ['gcloud auth print-access-token', 'gcloud auth application-default print-access-token', 'gcloud auth print-identity-token', 'gcloud iam service-accounts keys create /dev/stdout --iam-account=ci@acme.iam.gserviceaccount.com', 'gcloud iam service-accounts keys create - --iam-account ci@acme.iam.gserviceaccount.com', "gcloud config config-helper --format='value(credential.access_token)'", 'gcloud config config-helper --format=json', 'gcloud services api-keys get-key-string projects/acme/locations/global/keys/abc', 'gcloud alpha services api-keys get-key-string abc', 'gcloud kms decrypt --key k --keyring r --location global --ciphertext-file s.enc --plaintext-file -', 'gcloud sql generate-login-token'],
    controls: ['gcloud auth list', 'gcloud config get-value project', 'gcloud iam service-accounts keys list --iam-account=ci@acme.iam.gserviceaccount.com', 'gcloud services api-keys list', 'gcloud config list', 'gcloud kms decrypt --key k --keyring r --location global --ciphertext-file s.enc --plaintext-file s.txt'],
  },
  {
    id: 'az-token', programs: ['az'], keptIn: '.azure', reason: 'prints an Azure access token made from the login in ~/.azure',
    // (Round 5 of issue 26: registry tokens and passwords, storage and service keys, connection strings, publishing
    // profiles, a service principal's new password, an AKS kubeconfig written to stdout.)
    prints: (_, args) => {
      const words = operands([...args], [...CLOUD_WITH_ARG, '--name', '-n', '--resource-group', '-g', '--file', '-f', '--resource', '--scope', '--role', '--vault-name', '--account-name', '--expiry', '--permissions', '--services', '--resource-types']);
      const line = words.join(' ');
      return line.startsWith('account get-access-token') || (line.startsWith('acr login') && args.some((a) => a === '--expose-token' || a === '-t'))
        || (AZ_KEY_PRINTS.test(line) && !(line.includes('create-for-rbac') && args.includes('--create-cert'))) || (line.startsWith('aks get-credentials') && args.some((a, i) => (a === '--file' || a === '-f') && /^(-|\/dev\/stdout)$/.test(args[i + 1] ?? '')));
    },
    examples: ['az account get-access-token', 'az account get-access-token --resource https://management.azure.com', 'az acr login --name acmeregistry --expose-token', 'az acr credential show --name acmeregistry', 'az storage account keys list --account-name acmestore', 'az storage account show-connection-string -n acmestore -g rg', 'az cosmosdb keys list --name acme-db -g rg', 'az redis list-keys -n cache -g rg', 'az webapp deployment list-publishing-profiles -n api -g rg', 'az ad sp create-for-rbac --name ci --role contributor', 'az ad sp credential reset --id 1234', 'az aks get-credentials -n prod -g rg --file -', 'az functionapp keys list -n fn -g rg'],
    controls: ['az account show', 'az account list -o table', 'az acr login --name acmeregistry', 'az acr list -o table', 'az storage account list', 'az aks get-credentials -n dev -g rg', 'az ad sp list --display-name ci'],
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
    // (Round 5 of issue 26: a token or password kept in git's config — `git config --get github.token`, the
    // Authorization header actions/checkout leaves in `http.<url>.extraheader`.)
    prints: (_, args) => {
      const [command, action] = gitCommand([...args]);
      if (command === 'config') {
        // (Removing the key prints nothing: `git config --unset-all http.<url>.extraheader`.)
        if (args.some((a) => /^--(unset|unset-all|remove-section|rename-section)$/.test(a))) return false;
        const keys = args.filter((a) => !a.startsWith('-') && a !== 'config' && a !== 'get');
        return keys.length === 1 && /(token|password|passwd|secret|extraheader)$/i.test(keys[0]!);
      }
      return (command === 'credential' && action === 'fill') || (/^credential-/.test(command ?? '') && action === 'get');
    },
    examples: ["printf 'protocol=https\\nhost=github.com\\n' | git credential fill", "git credential-store get <<< 'host=github.com'", 'git config --get github.token', 'git config --get http.https://github.com/.extraheader', 'git config --global hub.oauthtoken'],
    controls: ['git config credential.helper', 'git config --get user.email', 'git config user.name'],
  },
  {
    id: 'heroku-token', programs: ['heroku'], keptIn: '.netrc', reason: "prints the Heroku API token from ~/.netrc",
    prints: (words) => words[0] === 'auth:token' || words[0] === 'authorizations:create',
    examples: ['heroku auth:token', 'heroku authorizations:create -d ci'],
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
    prints: (words, args, v) => v.program === 'security' ? (/^find-(generic|internet)-password$/.test(words[0] ?? '') && args.some((x) => /^-[a-zA-Z]*[wg][a-zA-Z]*$/.test(x))) || (words[0] === 'dump-keychain' && args.some((x) => /^-[a-z]*d/.test(x)))
      : v.program === 'secret-tool' ? words[0] === 'lookup' : args.some((x) => x === '-r' || x === '--read-password'),
    // (Round 5 of issue 26: `-w`/`-g` in a cluster too, `-gs github.com`, `-wa dev`.)
    examples: ['security find-generic-password -s github -w', 'secret-tool lookup service x', 'kwallet-query -r key wallet', 'security find-internet-password -gs github.com', 'security find-generic-password -wa dev', 'security find-generic-password -wa github'],
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
    // (And a cluster's kubeconfig or the registry's docker login, printed with that token.)
    prints: (words) => (words[0] === 'auth' && words[1] === 'token') || (words[0] === 'registry' && words[1] === 'docker-config')
      || (/^(kubernetes|k8s|k)$/.test(words[0] ?? '') && /^(cluster|c)$/.test(words[1] ?? '') && /^(kubeconfig|kcfg|cfg|config)$/.test(words[2] ?? '') && words[3] === 'show'),
    examples: ['doctl auth token', 'doctl registry docker-config', 'doctl kubernetes cluster kubeconfig show prod'],
    controls: ['doctl auth list', 'doctl account get', 'doctl kubernetes cluster kubeconfig save prod', 'doctl registry login'],
  },
  {
    id: 'wrangler-token', programs: ['wrangler'], keptIn: '.wrangler/config/default.toml', reason: "prints Wrangler's Cloudflare OAuth token from its config file",
    prints: (words) => words[0] === 'auth' && words[1] === 'token',
    examples: ['wrangler auth token', 'wrangler auth token --json'],
    controls: ['wrangler whoami'],
  },
  {
    id: 'cloud-login-token', programs: ['aws'], keptIn: '.aws/credentials', reason: 'prints a registry password or short-lived credentials minted from the AWS login in ~/.aws (ecr get-login-password, sts get-session-token, eks get-token, …)',
    prints: (_, args, v) => {
      const [service, operation = ''] = operands([...args], CLOUD_WITH_ARG);
      return ((service === 'ecr' || service === 'ecr-public') && /^(get-login-password|get-authorization-token)$/.test(operation))
        || (service === 'sts' && /^(get-session-token|assume-role|assume-role-with-web-identity|get-federation-token)$/.test(operation))
        || (service === 'codeartifact' && operation === 'get-authorization-token') || (service === 'eks' && operation === 'get-token')
        || (service === 'rds' && operation === 'generate-db-auth-token') || (service === 'sso' && operation === 'get-role-credentials')
        // Round 5 of issue 26: keys, passwords and decrypted secrets minted or fetched with that login and printed
        // (`create-key-pair … > prod.pem` saves the new key instead).
        || (!v.redirects.some(stdoutToFile) && mintsAwsSecret(service, operation, args));
    },
    examples: ['aws ecr get-login-password --region us-east-1', 'aws sts get-session-token', 'aws codeartifact get-authorization-token --domain acme --query authorizationToken --output text', 'aws eks get-token --cluster-name prod', 'aws iam create-access-key --user-name ci', "aws ec2 create-key-pair --key-name prod --query 'KeyMaterial' --output text", 'aws lightsail download-default-key-pair', 'aws kms decrypt --ciphertext-blob fileb://secret.enc --query Plaintext --output text', 'aws redshift get-cluster-credentials --cluster-identifier prod --db-user admin', 'aws apigateway get-api-keys --include-values'],
    controls: ['aws sts get-caller-identity', 'aws ecr describe-repositories', 'aws eks describe-cluster --name prod', 'aws iam list-access-keys', 'aws ec2 describe-key-pairs', 'aws apigateway get-api-keys', 'aws kms list-keys'],
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
      // (`-text` prints the key's numbers even with `-noout`.)
      if (v.program === 'openssl') return /^(rsa|pkey|ec|pkcs12|pkcs8)$/.test(words[0] ?? '') && !args.some((a) => /^-(pubout|out)$/.test(a)) && (!args.includes('-noout') || args.includes('-text')) && homeKeyFile(known[known.indexOf('-in') + 1] ?? '', v.home);
      return known.some((w) => !w.startsWith('-') && homeKeyFile(w, v.home)) && !v.redirects.some(stdoutToFile);
    },
    examples: ['cat ~/prod-bastion.pem', 'head -5 ~/aws/deploy.key', 'openssl rsa -in ~/prod.pem -text', 'openssl rsa -in ~/prod.pem -text -noout'],
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
    // (Round 5 of issue 26: the token itself — `vault print token`, a new one from `token create` or a login.)
    prints: (words, args) => (words[0] === 'kv' && words[1] === 'get') || (words[0] === 'read' && /^(secret|kv|database|aws|cubbyhole)\//.test(words[1] ?? '')) || (words[0] === 'read' && args.some((a) => a.startsWith('-field')))
      || (words[0] === 'print' && words[1] === 'token') || (words[0] === 'token' && words[1] === 'create') || (words[0] === 'write' && /^auth\/.+\/login$/.test(words[1] ?? '')) || (words[0] === 'login' && args.includes('-token-only')),
    examples: ['vault kv get -field=password secret/db', 'vault kv get secret/x', 'vault read -field=value secret/x', 'vault print token', 'vault token create -policy=admin', 'vault write auth/approle/login role_id=x secret_id=y', 'vault login -method=oidc -token-only'],
    controls: ['vault status', 'vault kv list secret/', 'vault secrets list'],
  },
  {
    id: 'op-read', programs: ['op'], keptIn: '.config/op', reason: 'prints a secret from 1Password, read with the session in ~/.config/op',
    prints: (words, args) => {
      const toFile = args.some((a) => /^(-o|--out-file|--output)(=|$)/.test(a));
      return words[0] === 'read' || (words[0] === 'item' && words[1] === 'get' && args.includes('--reveal')) || (words[0] === 'signin' && args.includes('--raw'))
        || (words[0] === 'inject' && !toFile) || (words[0] === 'document' && words[1] === 'get' && !toFile);
    },
    examples: ['op read op://vault/item/password', 'op item get github --fields password --reveal', 'op signin --raw', 'op inject -i config.tpl.yml', 'op document get "prod tls key"'],
    controls: ['op item list', 'op whoami', 'op inject -i config.tpl.yml -o config.yml', 'op document get "prod tls key" --out-file key.pem'],
  },
  {
    id: 'password-manager-show', programs: ['bw', 'lpass', 'keepassxc-cli'], reason: 'prints a password from a password manager (Bitwarden, LastPass, KeePassXC)',
    prints: (words, args, v) => v.program === 'bw' ? (words[0] === 'get' && /^(password|totp|item|notes)$/.test(words[1] ?? '')) || words[0] === 'export' || (words[0] === 'unlock' && !args.includes('--check'))
      : v.program === 'lpass' ? words[0] === 'show' && !args.includes('--clip') && !args.includes('-c') : (words[0] === 'show' && args.some((a) => a === '-s' || a === '--show-protected' || a.startsWith('--attributes') || a === '-a')) || words[0] === 'export',
    examples: ['bw get password github', 'lpass show --password github', 'keepassxc-cli show -s db.kdbx github', 'bw unlock --raw'],
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
      if (outputToFile(v, args)) return false;
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
    id: 'secret-manager-print', programs: ['doppler', 'chamber', 'infisical', 'aws', 'gcloud', 'az', 'bws', 'akeyless', 'teller', 'berglas', 'op', 'aws-vault', 'aws-okta', 'dotenvx'],
    reason: 'prints values from a secret manager (Doppler, chamber, Infisical, AWS Secrets Manager and SSM, Google Secret Manager, Azure Key Vault…), read with the login its CLI keeps',
    prints: (words, args, v) => {
      // (The cloud CLIs' `-o`/`--output` is a format; their files are `--out-file` and `> file`.)
      const cloud = v.program === 'aws' || v.program === 'az' || v.program === 'gcloud';
      if (v.redirects.some(stdoutToFile) || args.some((a) => /^(--out-file|--output-file)(=|$)/.test(a) || (!cloud && /^(-o|--out|--output)(=|$)/.test(a)))) return false;
      const [g, c, x] = operands([...args], CLOUD_WITH_ARG);
      // `doppler run -- printenv`, `aws-vault exec prod -- env`: the secrets injected into a command that prints them all.
      const after = args.indexOf('--');
      // (`printenv NAME…` prints the named ones, which the manager injected: round 5 of issue 26.)
      if (after >= 0 && /^(run|exec)$/.test(words[0] ?? '') && ((args[after + 1] === 'env' && args.length === after + 2) || args[after + 1] === 'printenv')) return true;
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
        case 'aws-vault': return words[0] === 'export';
        case 'dotenvx': return words[0] === 'get' || (words[0] === 'decrypt' && args.includes('--stdout'));
        default: return false;
      }
    },
    examples: ['doppler run -- printenv', 'aws-vault exec prod -- env', 'op run --env-file .env -- printenv', 'chamber exec api -- env', 'doppler secrets download --no-file --format env', 'doppler secrets get DB_PASSWORD --plain', 'chamber export prod-api', 'chamber read prod-api db_password', 'infisical export --env=prod', 'aws secretsmanager get-secret-value --secret-id prod/db', 'aws ssm get-parameter --name /prod/db --with-decryption', 'gcloud secrets versions access latest --secret=db-password', 'az keyvault secret show --vault-name acme --name db', 'bws secret get 0f8e', 'doppler run -- printenv DATABASE_URL', 'aws-vault export prod', 'dotenvx get DATABASE_URL -f .env.production', 'dotenvx decrypt --stdout', 'aws-okta exec prod -- env'],
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
    id: 'key-file-print', programs: [...FILE_PRINTERS, 'jq', 'yq', 'openssl', 'tr', 'tee', 'dd', 'git', ...KEY_READERS],
    reason: "prints a private key, a keystore, a cloud service-account key or another file that is only a secret, known by its file name (`server.key`, `privkey.pem`, `id_rsa`, `AuthKey_X.p8`, `release.jks`, `key.properties`, `client.ovpn`, `service-account.json`), exports one from a keystore (`openssl pkcs12 -nodes`) or prints what openssl decrypts",
    prints: (words, args, v) => {
      // (A glob counts by the name it names: `cat certs/*.key`.)
      const known = v.words.slice(1).filter((w) => !w.dynamic).map((w) => w.value);
      if (v.program === 'openssl') return opensslPrintsKey(words[0] ?? '', args, known);
      if (outputToFile(v, args)) return false;
      // (Round 5 of issue 26: a key from an older commit, `dd if=`, stdin (`cat < server.key`), inline code that prints.)
      if (v.program === 'git') return /^(show|cat-file)$/.test(words[0] ?? '') && args.some((a) => a.indexOf(':') > 0 && (keyFile(a.slice(a.indexOf(':') + 1)) || PROJECT_KEY.test(a.slice(a.indexOf(':') + 1))));
      if (v.program === 'dd') return args.some((a) => a.startsWith('if=') && keyFile(a.slice(3)));
      if (KEY_READERS.includes(v.program)) return inlineCode(v).some((c) => PRINTS.test(c.code) && [...c.code.matchAll(/["']([^"'\n]+)["']/g)].some((m) => keyFile(m[1]!)));
      return fileOperands(v.program, known).some(keyFile) || v.redirects.some((r) => r.op === '<' && r.target !== undefined && !r.target.dynamic && keyFile(r.target.value));
    },
    examples: ['cat config/certs/server.key', 'openssl pkcs12 -in keystore.p12 -nodes -passin pass:changeit', 'openssl pkcs12 -in cert.pfx -noenc', 'openssl rsa -in x.key', 'openssl pkey -in certs/privkey.pem', 'cat service-account.json', "jq -r .private_key keys/gcp-sa.json", 'cat deploy/id_ed25519', 'head certs/server-key.pem', 'cat gcp-key.json', 'cat fixtures/../config/certs/server.key', 'cat certs/*.key', 'openssl pkcs8 -topk8 -nocrypt -in key.pem',
      // Issue 26, round 5.
      'openssl rsa -in config/ssl/private.pem -text -noout', 'openssl ec -in certs/ec-key.pem -noout -text', 'openssl pkey -in private.pem -out /dev/stdout', 'openssl base64 -in certs/server.key', 'openssl asn1parse -in key.pem',
      'openssl pkeyutl -decrypt -inkey key.pem -in secret.bin', 'openssl enc -d -aes-256-cbc -pbkdf2 -in secrets.enc -pass env:PW', 'openssl pkcs12 -in cert.p12 -nocerts -nodes -out -',
      'cat AuthKey_ABC123XYZ.p8', 'base64 -i ios/fastlane/AuthKey_7YX8Z9.p8', 'cat deploy/keys/deploy_key', 'cat .github/deploy_key', 'head keys/github-deploy-key', 'cat id_rsa', 'cat keys/id_ed25519_work',
      'cat .vagrant/machines/default/virtualbox/private_key', 'cat jwt-private-key.txt', 'base64 android/app/release.jks', 'base64 -w0 upload-keystore.jks', 'xxd certs/client.p12', 'cat android/key.properties', 'grep storePassword android/keystore.properties',
      'cat ~/vpn/client.ovpn', 'cat office.ovpn', 'strings /etc/krb5.keytab', 'cat .vault_pass', 'cat ~/.ansible/vault_password.txt', 'cat .htpasswd', 'cat .env.keys', 'cat client_secret_1234.apps.googleusercontent.com.json', 'cat keys/platform.pk8',
      'cat < certs/server.key', "tr -d '\\n' < AuthKey_X.p8", 'dd if=certs/server.key status=none', 'git show HEAD:config/master.key', 'git show HEAD~2:certs/server.key', 'python3 -c "print(open(\'certs/server.key\').read())"', "node -e \"console.log(require('fs').readFileSync('config/jwt/private.pem','utf8'))\"", "ruby -e 'puts File.read(\"AuthKey_ABC.p8\")'"],
    controls: ['cat ./fixtures/.ssh/id_rsa', 'cat testdata/server.key', 'cat ca.pem', 'cat fullchain.pem', 'openssl x509 -in cert.pem -text', 'cat certs/server.crt', 'cat deploy/id_ed25519.pub', 'cat package.json', 'cat src/keys.ts', 'cat monkey.py', 'cat public.key.pub', 'openssl pkcs12 -in keystore.p12 -nokeys -info', 'openssl rsa -in server.key -pubout', 'openssl pkcs12 -in k.p12 -nodes -out k.pem', 'cat cert-key.pem > /dev/null', 'ls certs/server.key', 'cat pubkey.pem', 'jq .name service.json', 'cat certs/*.crt', 'cat usa.json', 'cat salt.json',
      // Issue 26, round 5.
      'openssl rsa -in server.key -noout -check', 'openssl rsa -in key.pem -noout -modulus', 'openssl pkey -in private.pem -pubout -out public.pem', 'openssl req -new -key server.key -subj /CN=x', 'openssl x509 -in cert.pem -noout -text', 'openssl enc -aes-256-cbc -in notes.txt -out notes.enc',
      'cat src/deploy_key.ts', 'cat lib/private_key.py', 'cat docs/deploy-keys.md', 'cat deploy_key.pub', 'cat id_ed25519_work.pub', 'keytool -list -v -keystore release.jks -storepass android', 'ls android/app/release.jks', 'cat ~/.android/debug.keystore | wc -c', 'cat truststore.jks',
      'cat android/gradle.properties', 'cat android/local.properties', 'cat google-services.json', 'cat vpn-setup.md', 'cat .env.example', 'cat client_config.json', 'cat test/.netrc', 'cat < README.md', 'grep -rn private_key src/', 'rg deploy_key', 'grep id_rsa README.md', 'git show HEAD:src/keys.ts', 'dd if=/dev/zero of=blank.img bs=1k count=1', 'python3 -c "print(open(\'README.md\').read())"', 'python3 -c "import os; print(os.path.exists(\'certs/server.key\'))" > /dev/null'],
  },
  // Issue 26, round 5.
  {
    // The Sealed Secrets controller's private key decrypts every SealedSecret committed to git (kube-system, labelled
    // `sealedsecrets.bitnami.com/sealed-secrets-key`). Other workload secrets stay asked (deployed secrets).
    id: 'sealed-secrets-key', programs: ['kubectl', 'k', 'oc'], keptIn: '.kube/config',
    reason: "prints the Sealed Secrets controller's private key, which decrypts every sealed secret in the repository",
    prints: (_, args, v) => {
      const [verb, object] = operands([...args], KUBECTL_WITH_ARG);
      return verb === 'get' && /^secrets?(\/|$)/.test(object ?? '') && /sealed-?secrets(\.bitnami\.com\/sealed-secrets)?-key/.test(v.text) && args.some((a, i) => /^(-o|--output)(=|$)/.test(a) && !/^(-o|--output)=?(name|wide)?$/.test(a + (a.includes('=') ? '' : args[i + 1] ?? '')) || /^-o(yaml|json|jsonpath|go-template)/.test(a));
    },
    examples: ['kubectl get secret -n kube-system -l sealedsecrets.bitnami.com/sealed-secrets-key -o yaml', 'kubectl -n kube-system get secrets -l sealedsecrets.bitnami.com/sealed-secrets-key=active -o json', 'kubectl get secret sealed-secrets-keyx7k2p -n kube-system -o jsonpath={.data}'],
    controls: ['kubectl get secret -n kube-system -l sealedsecrets.bitnami.com/sealed-secrets-key', 'kubeseal --fetch-cert', 'kubectl get sealedsecrets -A'],
  },
  {
    // A local cluster's kubeconfig, client key included, printed instead of merged into ~/.kube/config.
    id: 'local-cluster-kubeconfig', programs: ['kind', 'k3d', 'talosctl'], keptIn: '.kube/config',
    reason: "prints a cluster's kubeconfig with its client key (kind get kubeconfig, k3d kubeconfig get)",
    prints: (words, args, v) => v.program === 'kind' ? words[0] === 'get' && words[1] === 'kubeconfig'
      : v.program === 'k3d' ? words[0] === 'kubeconfig' && /^(get|show)$/.test(words[1] ?? '') : words[0] === 'kubeconfig' && args.some((a) => a === '-' || TO_STDOUT.test(a)),
    examples: ['kind get kubeconfig --name dev', 'k3d kubeconfig get mycluster', 'talosctl kubeconfig -'],
    controls: ['kind get clusters', 'kind export kubeconfig --name dev', 'k3d kubeconfig merge mycluster', 'k3d cluster list'],
  },
  {
    id: 'platform-cli-token', programs: ['firebase', 'supabase', 'databricks', 'mc', 'rclone', 's3cmd', 'argocd', 'stripe'], keptIn: '.config/configstore/firebase-tools.json',
    reason: "prints a token, API key or storage secret a platform's CLI keeps or mints (firebase login:ci, supabase projects api-keys, databricks auth token, mc alias list, rclone config show, s3cmd --dump-config)",
    prints: (words, args, v) => {
      switch (v.program) {
        case 'firebase': return words[0] === 'login:ci';
        case 'supabase': return words[0] === 'projects' && words[1] === 'api-keys';
        case 'databricks': return (words[0] === 'auth' && /^(token|env)$/.test(words[1] ?? '')) || (words[0] === 'tokens' && words[1] === 'create');
        case 'mc': return (words[0] === 'alias' && /^(list|ls)$/.test(words[1] ?? '')) || (words[0] === 'config' && words[1] === 'host' && /^(list|ls)$/.test(words[2] ?? ''));
        case 'rclone': return words[0] === 'config' && /^(show|dump)$/.test(words[1] ?? '');
        case 'argocd': return (words[0] === 'account' && words[1] === 'generate-token') || (words[0] === 'admin' && words[1] === 'initial-password');
        case 'stripe': return words[0] === 'config' && args.includes('--list');
        default: return args.includes('--dump-config');
      }
    },
    examples: ['firebase login:ci', 'supabase projects api-keys --project-ref abcd', 'databricks auth token --host https://acme.cloud.databricks.com', 'databricks auth env', 'mc alias list', 'mc alias ls prod', 'rclone config show', 'rclone config show gdrive', 's3cmd --dump-config', 'argocd admin initial-password -n argocd', 'argocd account generate-token --account ci', 'stripe config --list'],
    controls: ['firebase projects:list', 'supabase status', 'databricks clusters list', 'mc ls prod/bucket', 'rclone listremotes', 'rclone config file', 's3cmd ls', 'argocd app list', 'stripe listen --forward-to localhost:3000/webhooks'],
  },
  {
    // getent reads the shadow database as `cat /etc/shadow` does (root only).
    id: 'getent-shadow', programs: ['getent'], reason: 'prints password hashes from the shadow database (/etc/shadow)',
    prints: (words) => words[0] === 'shadow' || words[0] === 'gshadow',
    examples: ['getent shadow', 'sudo getent shadow root'],
    controls: ['getent passwd dev', 'getent hosts github.com', 'getent group docker'],
  },
  {
    // Secrets a repository or a machine keeps encrypted, printed decrypted: git-secret's `cat`, ejson's `decrypt`,
    // `kubeseal --recovery-unseal`, a saved Wi-Fi key on Windows (`netsh wlan show profile … key=clear`), saml2aws's
    // exported AWS keys.
    id: 'decrypted-secret-print', programs: ['git', 'ejson', 'kubeseal', 'netsh', 'netsh.exe', 'saml2aws'],
    reason: 'prints secrets decrypted from where they are kept encrypted (git secret cat, ejson decrypt, kubeseal --recovery-unseal, netsh … key=clear, saml2aws script)',
    prints: (words, args, v) => {
      switch (v.program) {
        case 'git': return words[0] === 'secret' && words[1] === 'cat';
        case 'ejson': return words[0] === 'decrypt' && !args.some((a) => /^(-o|--output)(=|$)/.test(a)) && !args.includes('-w');
        case 'kubeseal': return args.includes('--recovery-unseal');
        case 'saml2aws': return words[0] === 'script';
        default: return args.some((a) => /^key=clear$/i.test(a));
      }
    },
    examples: ['git secret cat config/secrets.yml', 'ejson decrypt config/secrets.ejson', 'kubeseal --recovery-unseal --recovery-private-key key.pem < sealed.yaml', 'netsh wlan show profile name=Office key=clear', 'saml2aws script --profile prod'],
    controls: ['git secret list', 'ejson encrypt config/secrets.ejson', 'kubeseal --fetch-cert', 'netsh wlan show profiles', 'saml2aws login'],
  },
  {
    // A secret read from a key-value store or the cluster's own datastore: Kubernetes secrets straight from etcd,
    // a Consul key named for a secret, Pulumi config values decrypted (`--show-secrets`).
    id: 'store-secret-print', programs: ['etcdctl', 'consul', 'pulumi'], keptIn: '.pulumi/credentials.json',
    reason: "prints secrets from a store (Kubernetes secrets from etcd, a Consul key named for a secret, Pulumi's decrypted config)",
    prints: (words, args, v) => v.program === 'etcdctl' ? words[0] === 'get' && words.some((w) => /^\/registry\/secrets(\/|$)/.test(w))
      : v.program === 'consul' ? words[0] === 'kv' && words[1] === 'get' && /secret|passw|token|private|api_?key/i.test(words[2] ?? '')
      : words[0] === 'config' && args.includes('--show-secrets'),
    examples: ['etcdctl get /registry/secrets --prefix', 'consul kv get app/db_password', 'pulumi config --show-secrets', 'pulumi config get dbPassword --show-secrets'],
    controls: ['etcdctl get /registry/namespaces --prefix --keys-only', 'consul kv get app/replicas', 'pulumi config', 'pulumi config get aws:region'],
  },
  {
    // Shell history searched for secrets typed on command lines (`history | grep -i token`, `grep password
    // ~/.bash_history`): the lines found are the secrets.
    id: 'history-secret-search', programs: ['grep', 'egrep', 'rg', 'ag'], reason: 'searches the shell history for passwords, tokens or keys typed on command lines',
    prints: (words, args, v) => words.some((w) => SECRET_SEARCH.test(w)) && !args.some((a) => /^-[a-zA-Z]*[qcl][a-zA-Z]*$|^--(quiet|silent|count|files-with-matches)$/.test(a))
      && (words.some((w) => isHistoryFile(w)) || (v.stdin?.kind === 'pipe' && v.stdin.upstream.includes('history'))),
    examples: ['history | grep -i token', 'grep -i password ~/.bash_history', "rg -i 'api_key|secret' ~/.zsh_history"],
    controls: ['history | grep docker', 'grep -c password ~/.bash_history', 'grep -i password src/login.ts'],
  },
  {
    // Password hashes a database keeps for its users, and a server's own password (`config get requirepass`).
    id: 'database-password-print', programs: ['psql', 'mysql', 'mariadb', 'redis-cli'], reason: "prints a database's password hashes (pg_shadow, pg_authid, mysql.user) or a server's password",
    prints: (_, args, v) => v.program === 'redis-cli' ? /\bconfig\s+get\s+(requirepass|masterauth)\b/i.test(args.join(' '))
      : args.some((a) => /\b(pg_shadow|pg_authid)\b|\bmysql\s*\.\s*user\b[\s\S]*|\bauthentication_string\b/i.test(a) && /passw|rolpassword|authentication_string|\*/i.test(a)),
    examples: ['sudo -u postgres psql -c "select usename, passwd from pg_shadow"', 'psql -c "select rolname, rolpassword from pg_authid"', 'mysql -u root -e "select user, authentication_string from mysql.user"', 'redis-cli config get requirepass'],
    controls: ['psql -c "select usename from pg_user"', 'mysql -u root -e "select user, host from mysql.db"', 'redis-cli config get maxmemory', 'psql -c "\\du"'],
  },
  {
    // Inline code printing a credential a library reads for it: boto3's resolved AWS keys, Google's and Azure's access
    // tokens, a keyring password, netrc entries, Hugging Face's token; an application's own secrets — Rails
    // credentials through `rails runner`, Django settings through `manage.py shell -c`, Laravel's config and env
    // through `artisan tinker --execute`.
    id: 'inline-credential-print', programs: ['python', 'python3', 'node', 'ruby', 'perl', 'php', 'rails', 'rake', 'bundle', 'deno', 'bun', 'irb'],
    reason: "prints a credential from inline code (boto3's AWS keys, a Google or Azure token, a keyring password, Rails credentials, Django or Laravel secrets)",
    prints: (_, __, v) => credentialCode(v).some((c) => INLINE_CREDENTIAL.test(c) && PRINTS.test(c)),
    examples: ['python3 -c "import boto3;c=boto3.Session().get_credentials();print(c.access_key,c.secret_key)"', 'python3 -c "import boto3; print(boto3.Session(profile_name=\'prod\').get_credentials().get_frozen_credentials())"', 'python3 -c "import google.auth, google.auth.transport.requests as r; c,_=google.auth.default(); c.refresh(r.Request()); print(c.token)"', 'python -c "from azure.identity import DefaultAzureCredential; print(DefaultAzureCredential().get_token(\'https://management.azure.com/.default\').token)"', 'python3 -c "import keyring; print(keyring.get_password(\'github\', \'dev\'))"', 'python3 -c "import netrc; print(netrc.netrc().authenticators(\'github.com\'))"', 'python3 -c "from huggingface_hub import HfFolder; print(HfFolder.get_token())"', "node -e \"const AWS=require('aws-sdk'); const c=new AWS.SharedIniFileCredentials(); console.log(c.secretAccessKey)\"",
      "bin/rails runner 'puts Rails.application.credentials.secret_key_base'", "rails r 'p Rails.application.credentials.aws'", "bundle exec rails runner 'puts Rails.application.secret_key_base'", "echo 'puts Rails.application.credentials.config' | bin/rails console", 'python manage.py shell -c "from django.conf import settings; print(settings.SECRET_KEY)"', "bin/rails runner 'puts ENV[\"SECRET_KEY_BASE\"]'", 'php artisan tinker --execute="echo config(\'app.key\');"', "php -r \"require 'vendor/autoload.php'; echo getenv('DB_PASSWORD');\""],
    controls: ['python3 -c "import boto3; print(boto3.__version__)"', 'python3 -c "import boto3; print(boto3.Session().region_name)"', "bin/rails runner 'puts User.count'", "rails r 'puts Rails.env'", 'python manage.py shell -c "from django.conf import settings; print(settings.DEBUG)"', 'php artisan tinker --execute="echo config(\'app.name\');"', 'node -e "console.log(require(\'./package.json\').version)"'],
  },
  ...MINTED_CREDENTIALS,
  ...FRAMEWORK_SECRETS,
];

/** What a file printer prints goes into a file: stdout redirected, or macOS's `base64 -i key.p12 -o key.b64`. */
function outputToFile(v: CommandView, args: readonly string[]): boolean {
  return v.redirects.some(stdoutToFile) || (v.program === 'base64' && args.some((a) => /^(-o|--output)(=|$)/.test(a)));
}

/** stdout as a file name (`--key-file=/dev/stdout`). */
const TO_STDOUT = /^(\/dev\/stdout|\/dev\/fd\/1)$/;
/**
 * Azure commands (their words, options left out) that print a key, password, token or connection string: `storage
 * account keys list`, `cosmosdb keys list`, `redis list-keys`, `acr credential show`, `acr token create`, `webapp
 * deployment list-publishing-profiles`, `ad sp create-for-rbac` (the new password), `ad sp|app credential reset`.
 */
const AZ_KEY_PRINTS =
  /(^| )(keys? list|list-keys|admin-key show|credential show|show-connection-string|connection-string show|list-connection-strings|list-publishing-(profiles|credentials)|create-for-rbac|credential reset|generate-sas|token create|token credential generate)( |$)/;

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
 * A private key by its name: `*.key` (not `*.pub.key`), a `.pem` or `.der` whose name says key or private (not
 * `pubkey.pem`, `public-key.pem`), a PuTTY key, PKCS #8 keys (`AuthKey_ABC123.p8`, Apple's App Store Connect and push
 * keys; `platform.pk8`), an SSH key's name (`id_rsa`, `id_ed25519_work`, `deploy_key`; not `id_rsa.pub`), a keystore
 * (`release.jks`, `upload.keystore`, `*.p12`, `*.pfx`; not a truststore or Android's well-known `debug.keystore`), the
 * files beside them that hold their passwords (Android's `key.properties`), and other files that are nothing but a
 * secret wherever they lie (issue 26, round 5): an OpenVPN profile with its inline keys (`*.ovpn`), a Kerberos keytab,
 * an Ansible vault password file, password hashes (`.htpasswd`), dotenvx's
 * `.env.keys`, a Google OAuth client secret (`client_secret_*.json`).
 */
function privateKeyName(path: string): boolean {
  const name = path.split('/').at(-1)!.toLowerCase();
  if (SECRET_FILE_NAME.test(name)) return true;
  if (SOURCE_FILE.test(name)) return false;
  if (/pub(lic)?([-_.]?key)?\b|\.pub$/.test(name) || /^(pub|public)/.test(name)) return false;
  return (
    /\.(key|ppk|p8|pk8)$/.test(name) ||
    (/\.(pem|der)$/.test(name) && /key|priv/.test(name)) ||
    /^id_(rsa|ed25519|ecdsa|dsa)(_sk)?([-_.][\w.-]*)?$/.test(name) ||
    /^([\w.-]+[-_])?deploy[-_]?(key|rsa|ed25519|ecdsa)([-_][\w-]+)?(\.(pem|txt))?$/.test(name) ||
    /^([\w.-]+[-_.])?priv(ate)?[-_]?key(\.(txt|b64|asc))?$/.test(name) ||
    (/\.(jks|keystore|p12|pfx|bks)$/.test(name) && !/trust|^debug\.keystore$|^cacerts/.test(name))
  );
}

/** Source and text files, whatever their names say (`deploy_key.ts`, `private_key.py`). */
const SOURCE_FILE =
  /\.(ts|tsx|js|jsx|mjs|cjs|py|go|rb|rs|java|kt|swift|c|h|cc|cpp|cs|php|md|html|css|sh|lock|ya?ml|json|toml)$/;

/** Files that hold nothing but a secret, by their whole name (see privateKeyName). */
const SECRET_FILE_NAME =
  /^(key|keystore|signing|release[-_]signing|upload[-_]keystore)\.properties$|\.ovpn$|\.keytab$|^\.?(ansible[-_])?vault[-_]?pass(word)?(\.txt)?$|^\.htpasswd$|^\.env\.keys$|^client_secret[\w.-]*\.json$|\.decrypt\.private\.php$|^\.env\.me$/;

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

/**
 * `openssl rsa|pkey|ec|pkcs8|dsa -in <key>` prints the key (`-text` its numbers too, even with `-noout`); `pkcs12
 * -nodes` exports the keys unencrypted; `base64`, `enc -base64` and `asn1parse` of a key print it in another dress;
 * `pkeyutl|rsautl -decrypt` and `enc -d` print what they decrypt. `-pubout`, a plain `-noout` and `-out FILE` print
 * no secret (`-out -` or `/dev/stdout` does).
 */
function opensslPrintsKey(command: string, args: readonly string[], known: readonly string[]): boolean {
  const out = args.indexOf('-out');
  if (args.includes('-pubout') || (out >= 0 && !/^(-|\/dev\/stdout|\/dev\/fd\/1)$/.test(args[out + 1] ?? '')))
    return false;
  const at = known.indexOf('-in');
  const input = at >= 0 ? (known[at + 1] ?? '') : '';
  if (testFixture(input)) return false;
  if (command === 'pkcs12') return args.some((a) => a === '-nodes' || a === '-noenc') && !args.includes('-nokeys');
  if (command === 'pkeyutl' || command === 'rsautl') return args.includes('-decrypt');
  if (command === 'enc' && args.includes('-d')) return true;
  if (at < 0 || !privateKeyName(input)) return false;
  if (/^(rsa|pkey|ec|pkcs8|dsa)$/.test(command)) return !args.includes('-noout') || args.includes('-text');
  return (
    command === 'base64' ||
    command === 'asn1parse' ||
    (command === 'enc' && (args.includes('-base64') || args.includes('-a')))
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
 * Code inline credential entries read: an interpreter's `-c`/`-e` code or here-doc, `rails runner CODE` (`rails r`,
 * through `bundle exec` too), code piped into `rails console`, `manage.py shell -c CODE`, `artisan tinker --execute CODE`.
 */
function credentialCode(v: CommandView): string[] {
  const codes = inlineCode(v).map((c) => c.code);
  const a = v.args;
  const at = a.findIndex((x) => /^(runner|r|console|c)$/.test(x));
  if (at >= 0 && (/^(rails|rake)$/.test(v.program) || (v.program === 'bundle' && a[0] === 'exec'))) {
    if (/^(runner|r)$/.test(a[at]!) && a[at + 1] !== undefined) codes.push(a[at + 1]!);
    else if (v.stdin?.text !== undefined) codes.push(v.stdin.text);
  }
  if (/^python[\d.]*$/.test(v.program) && /manage\.py$/.test(a.find((x) => !x.startsWith('-')) ?? ''))
    a.forEach((x, i) => (x === '-c' || x === '--command') && a[i + 1] !== undefined && codes.push(a[i + 1]!));
  if (/^php[\d.]*$/.test(v.program) && a.some((x) => /artisan$/.test(x)))
    a.forEach((x, i) => {
      if (x === '--execute' && a[i + 1] !== undefined) codes.push(a[i + 1]!);
      else if (x.startsWith('--execute=')) codes.push(x.slice(10));
    });
  return codes;
}

/** Options of grep, rg, awk and sed that take a value (the word after is no file). */
const VALUED = new Set([
  '-A',
  '-B',
  '-C',
  '-m',
  '-e',
  '-f',
  '-g',
  '-t',
  '-T',
  '-F',
  '-v',
  '-d',
  '-D',
  '-M',
  '--max-count',
  '--regexp',
  '--file',
  '--glob',
  '--type',
  '--type-not',
  '--context',
  '--after-context',
  '--before-context',
  '--include',
  '--exclude',
  '--field-separator',
  '--assign',
  '--expression',
]);

/**
 * The words of a file printer that name files: grep's, rg's, awk's and sed's first operand is their pattern or
 * program unless `-e`/`-f` gives it (`grep -rn private_key src/` searches for the name, it reads no key).
 */
function fileOperands(program: string, known: readonly string[]): string[] {
  if (!/^(grep|egrep|rg|awk|sed)$/.test(program)) return known.filter((w) => !w.startsWith('-'));
  const operands: string[] = [];
  let given = false;
  for (let i = 0; i < known.length; i++) {
    const w = known[i]!;
    if (VALUED.has(w)) {
      given ||= /^(-e|-f|--regexp|--file|--expression)$/.test(w);
      i++;
    } else if (!w.startsWith('-')) operands.push(w);
    else given ||= /^(--regexp|--file|--expression)=/.test(w);
  }
  return given ? operands : operands.slice(1);
}

/** A key or service-account key file by its name, not a test's fixture. */
function keyFile(path: string): boolean {
  return !path.startsWith('-') && !testFixture(path) && (privateKeyName(path) || serviceAccountKeyName(path));
}

/** A search for secrets by name (`grep -i token`, `'api_key|secret'`, `KEY`). */
const SECRET_SEARCH = /token|secret|passw|api_?key|private_?key|credential|(^|[^a-z])keys?([^a-z]|$)/i;

/** Code that prints something (Python, Ruby, JavaScript, PHP, Perl). */
const PRINTS =
  /\b(?:print|pprint|puts|pp?|console\s*\.\s*(?:log|dir|info)|echo|var_dump|var_export|dump|dd|print_r|say|write)\b/;

/** What inline code reads and prints that is a credential (see inline-credential-print). */
const INLINE_CREDENTIAL = new RegExp(
  [
    String.raw`get_(?:frozen_)?credentials\s*\([\s\S]*(?:\.(?:secret_key|access_key|token)\b|get_frozen_credentials|_asdict)`,
    String.raw`google\.(?:auth|oauth2)[\s\S]*\.token\b`,
    String.raw`\b(?:DefaultAzureCredential|AzureCliCredential|ClientSecretCredential|ManagedIdentityCredential|EnvironmentCredential)\b[\s\S]*\bget_?[tT]oken\s*\(`,
    String.raw`\bkeyring\s*\.\s*get_(?:password|credential)\s*\(`,
    String.raw`\bnetrc\s*\.\s*netrc\s*\(`,
    String.raw`\bHfFolder\s*\.\s*get_token\b|\bhuggingface_hub\b[\s\S]*\bget_token\s*\(`,
    String.raw`\.(?:secretAccessKey|sessionToken|secret_access_key)\b`,
    String.raw`\bRails\s*\.\s*application\s*\.\s*(?:credentials|secrets|secret_key_base|encrypted\s*\()`,
    String.raw`\bsettings\s*\.\s*(?:SECRET_KEY|\w*(?:PASSWORD|SECRET|TOKEN|API_KEY|PRIVATE_KEY)\w*)\b`,
    String.raw`\bconfig\s*\(\s*["'](?:app\.key|[\w.]*(?:password|secret|token|api_key))["']`,
    String.raw`\b(?:env|getenv)\s*\(\s*["']\w*(?:PASSWORD|SECRET|TOKEN|API_KEY|APP_KEY|PRIVATE_KEY)\w*["']`,
    String.raw`\bENV\s*(?:\[\s*|\.\s*fetch\s*\(\s*)["']\w*(?:PASSWORD|SECRET|TOKEN|API_KEY|KEY_BASE|PRIVATE_KEY)\w*["']`,
  ].join('|'),
);

/** AWS operations that mint or fetch a key, password or decrypted secret and print it (cloud-login-token). */
function mintsAwsSecret(service: string | undefined, operation: string, args: readonly string[]): boolean {
  return (
    (service === 'iam' &&
      /^(create-access-key|create-service-specific-credential|reset-service-specific-credential)$/.test(operation)) ||
    (service === 'ec2' && /^(create-key-pair|get-password-data)$/.test(operation)) ||
    (service === 'lightsail' && /^(download-default-key-pair|get-instance-access-details)$/.test(operation)) ||
    (service === 'kms' && operation === 'decrypt') ||
    (service === 'redshift' && /^get-cluster-credentials/.test(operation)) ||
    (service === 'apigateway' &&
      /^get-api-keys?$/.test(operation) &&
      args.some((a) => /^--include-values?$/.test(a))) ||
    (service === 'codecommit' && operation === 'credential-helper') ||
    (service === 'iot' && operation === 'create-keys-and-certificate') ||
    (service === 'cognito-identity' && operation === 'get-credentials-for-identity')
  );
}

/** Programs that write a secret into a file they are given (secretFilesMade): an effect each (shell/effects.ts). */
export const SECRET_FILE_MAKERS: readonly string[] = [
  'gcloud',
  'php',
  'artisan',
  'ssh-keygen',
  'age-keygen',
  'gpg',
  'gpg2',
  'git-crypt',
  'transcrypt',
  'blackbox_decrypt_all_files',
];

/**
 * Stands in secretFilesMade's list for "the repository's encrypted files" (`git-crypt unlock`): which files those are
 * is in `.gitattributes`, which the engine does not read, so a file named for a secret (DECRYPTED_NAME) printed after
 * the unlock counts as one of them.
 */
export const DECRYPTED_FILES = '\u0000decrypted';
/** A file named for a secret, as the files a repository keeps encrypted are (`config/credentials.yml`, `.env.production`, `secrets/db.json`). */
export const DECRYPTED_NAME = /secret|credential|passw|token|(^|\/)\.env(\.|$)|\.key$|vault|private|(^|\/)keys?\//i;

/**
 * The files a command writes a secret into, so that printing one later in the line is printing the secret (issue 26,
 * round 5): a service-account key created into a file, the `.env` Laravel's `env:decrypt` writes, a key pair
 * `ssh-keygen -f F` or `age-keygen -o F` generates, secret keys `gpg --export-secret-keys -o F` exports, the key
 * `git-crypt export-key F` writes.
 */
export function secretFilesMade(v: CommandView): string[] {
  const a = v.args;
  const words = a.filter((x) => !x.startsWith('-'));
  const value = (names: readonly string[]): string | undefined => {
    for (let i = 0; i < a.length; i++) {
      const eq = a[i]!.indexOf('=');
      if (eq > 0 && names.includes(a[i]!.slice(0, eq))) return a[i]!.slice(eq + 1);
      if (names.includes(a[i]!)) return a[i + 1];
    }
    return undefined;
  };
  switch (v.program) {
    case 'gcloud': {
      const at = words.indexOf('create');
      return words.slice(0, at).join(' ').endsWith('iam service-accounts keys') && words[at + 1]
        ? [words[at + 1]!]
        : [];
    }
    case 'php':
    case 'artisan': {
      if (!words.includes('env:decrypt') || (v.program === 'php' && !words.some((w) => /(^|\/)artisan$/.test(w))))
        return [];
      const env = value(['--env']);
      const dir = value(['--path']);
      const file = value(['--filename']) ?? (env ? `.env.${env}` : '.env');
      return [dir ? `${dir.replace(/\/+$/, '')}/${file}` : file];
    }
    case 'ssh-keygen': {
      const file = value(['-f']);
      return file && !a.some((x) => /^-[a-zA-Z]*[ylFRDLEpcBeiKQ]/.test(x) && x !== '-f') ? [file] : [];
    }
    case 'age-keygen':
      return [value(['-o', '--output'])].filter((f): f is string => f !== undefined);
    case 'gpg':
    case 'gpg2':
      return a.some((x) => /^--export-secret-(sub)?keys?$/.test(x))
        ? [value(['-o', '--output'])].filter((f): f is string => f !== undefined)
        : [];
    case 'git-crypt':
      if (words[0] === 'unlock') return [DECRYPTED_FILES];
      return words[0] === 'export-key' && words[1] && words[1] !== '-' ? [words[1]] : [];
    default:
      // transcrypt (not its listing and display modes) and blackbox leave the repository decrypted.
      return v.program === 'transcrypt' && a.some((x) => /^(-l|--list|-h|--help|-v|--version|-d|--display)$/.test(x))
        ? []
        : [DECRYPTED_FILES];
  }
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
