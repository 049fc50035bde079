// Danger catalogue, secrets a tool prints: keys, tokens and passwords that CLIs and password managers keep for you.
import type { DangerEntry } from './danger-entry.ts';
import { stdoutToFile, type CommandView } from '../shell/view.ts';
import { SECRET_PRINTERS, SECRET_PRINTER_PROGRAMS, secretPrinted } from './secret-printers.ts';
import { DEPLOYED_SECRET_DANGERS } from './deployed-secrets.ts';
import { printsSecretVariable } from './danger-secrets-env.ts';
import { exportsCredentials } from './danger-secrets-cli.ts';
export { PRINTED_SECRETS, RESHAPES_INPUT, keepsSecretInput, referencesSecret } from './danger-secrets-env.ts';

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
  if (w[i] === 'remote')
    return (
      (/^(get-url|show)$/.test(w[i + 1] ?? '') && w.length > i + 2) ||
      (w.length === i + 1 && v.args.some((a) => a === '-v' || a === '--verbose'))
    );
  if (v.args.some((a) => /^(-l|--list)$/.test(a))) return true;
  const key = w[i + 1] ?? '';
  return (
    (/^remote\..+\.(url|pushurl)$/i.test(key) && w.length === i + 2) ||
    (v.args.some((a) => /^--get(-all|-regexp)?$/.test(a)) && /^remote/i.test(key))
  );
}

export const SECRET_DANGERS: DangerEntry[] = [
  {
    id: 'secret-variable-print',
    risk: 'high',
    reason: "prints a secret held in an environment variable (a token, key or password) into the agent's output",
    programs: [
      'echo',
      'printf',
      'printenv',
      'grep',
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
      'cut',
      'egrep',
      'rg',
      'jq',
      'gojq',
      'python',
      'python3',
      'node',
      'ruby',
      'perl',
      'php',
      'awk',
      'gawk',
      'mawk',
      'deno',
      'bun',
      'pwsh',
      'powershell',
    ],
    examples: [
      'echo $GITHUB_TOKEN',
      'printenv AWS_SECRET_ACCESS_KEY',
      'printf "%s\\n" "$OPENAI_API_KEY"',
      'echo "token=${NPM_TOKEN}"',
      'env | grep TOKEN',
      "node -p 'process.env.NPM_TOKEN'",
      'python3 -c "import os; print(os.environ[\'GITHUB_TOKEN\'])"',
      "node -e 'console.log(process.env.OPENAI_API_KEY)'",
      'jq -n env.GITHUB_TOKEN',
      'awk \'BEGIN { print ENVIRON["GITHUB_TOKEN"] }\'',
      'python3 -c "import os; print(dict(os.environ))"',
      "node -e 'console.log(process.env)'",
      "ruby -e 'p ENV'",
      'pwsh -c "Get-ChildItem env:"',
    ],
    match: printsSecretVariable,
  },
  {
    id: 'secret-file-print',
    risk: 'high',
    reason:
      "prints a secret a tool keeps (an AWS secret key, a kubeconfig with its keys, GnuPG private keys, a cloud or GitHub token, a secret manager's values, a private key file): denied as reading a protected file is",
    programs: SECRET_PRINTER_PROGRAMS,
    examples: SECRET_PRINTERS.flatMap((p) => p.examples),
    // (`gh auth token >/dev/null && echo logged-in` only asks whether there is one.)
    match: (v) =>
      secretPrinted(v) !== undefined && !v.redirects.some((r) => stdoutToFile(r) && r.target?.value === '/dev/null'),
  },
  {
    id: 'git-remote-credential-print',
    risk: 'high',
    reason:
      "prints a git remote's URL that holds a credential (https://user:TOKEN@host/…) in the project's git config: denied as reading a credential file is",
    programs: [
      'git',
      'cat',
      'bat',
      'batcat',
      'less',
      'more',
      'head',
      'tail',
      'grep',
      'egrep',
      'rg',
      'awk',
      'gawk',
      'sed',
      'nl',
      'strings',
      'xxd',
      'od',
      'view',
      'tac',
    ],
    examples: [
      'git remote -v',
      'git remote get-url origin',
      'git remote show origin',
      'git config --get remote.origin.url',
      'git config -l',
      'cat .git/config',
      'grep url .git/config',
    ],
    match: printsRemoteUrl,
    when: 'remote-credentials',
  },
  {
    id: 'credential-export',
    risk: 'high',
    reason:
      'prints secrets a tool keeps for you (private keys, access tokens, stored passwords, kubeconfig credentials, the values in a secret store, a keychain or a password manager): the output is the secret',
    programs: [
      'gpg',
      'gpg2',
      'kubectl',
      'k',
      'oc',
      'aws',
      'gcloud',
      'az',
      'gh',
      'git',
      'heroku',
      'sops',
      'ansible-vault',
      'getent',
      'pulumi',
      'vault',
      'op',
      'doppler',
      'security',
      'secret-tool',
      'pass',
      'gopass',
      'kwallet-query',
      'keyring',
      'glab',
      'flyctl',
      'fly',
      'bw',
      'lpass',
      'keepassxc-cli',
      'npm',
      'pnpm',
      'yarn',
      'docker',
      'podman',
      'nerdctl',
      'docker-credential-pass',
      'docker-credential-secretservice',
      'docker-credential-osxkeychain',
      'docker-credential-desktop',
      'docker-credential-wincred',
      'docker-credential-ecr-login',
      'docker-credential-gcloud',
    ],
    examples: [
      'gpg --export-secret-keys -a',
      'kubectl config view --raw',
      'aws configure export-credentials',
      'aws configure get aws_secret_access_key',
      'gcloud auth print-access-token',
      'gh auth token',
      'az account get-access-token',
      "printf 'protocol=https\\nhost=github.com\\n' | git credential fill",
      'gh auth status --show-token',
      'heroku auth:token',
      'getent shadow',
      'pulumi stack export --show-secrets',
      "kubectl get secret db -o jsonpath='{.data.password}'",
      'kubectl get secret db -o yaml',
      'aws secretsmanager get-secret-value --secret-id prod/db',
      'aws ssm get-parameter --with-decryption --name x',
      'vault read -field=value secret/x',
      'vault kv get secret/x',
      'gcloud secrets versions access latest --secret x',
      'az keyvault secret show --name x --vault-name v',
      'op read op://vault/item/password',
      'doppler secrets download',
      'security find-generic-password -s github -w',
      'security find-internet-password -s github.com -g',
      'secret-tool lookup service x',
      'pass show email/work',
      'kwallet-query -r key wallet',
      'keyring get system user',
      'aws ecr get-login-password',
      'glab auth status --show-token',
      'bw get password github',
      "gh auth git-credential get <<< 'host=github.com'",
      'sops -d secrets.enc.yaml',
      'sops decrypt secrets.json',
      'ansible-vault view group_vars/all/vault.yml',
      'gh config get -h github.com oauth_token',
      'npm config get //registry.npmjs.org/:_authToken',
      'echo https://index.docker.io/v1/ | docker-credential-pass get',
      "docker inspect api --format '{{json .Config.Env}}'",
    ],
    // (`gh auth token >/dev/null && echo logged-in` only asks whether there is one.)
    match: (v) => exportsCredentials(v) && !v.redirects.some((r) => stdoutToFile(r) && r.target?.value === '/dev/null'),
  },
  {
    id: 'repository-decrypt',
    risk: 'high',
    reason:
      "decrypts the repository's encrypted secrets in place (git-crypt unlock, transcrypt, blackbox) or copies out the key that does (git-crypt export-key): every password and key they hold is plain text for the next read",
    programs: ['git-crypt', 'transcrypt', 'blackbox_decrypt_all_files', 'blackbox_cat'],
    examples: [
      'git-crypt unlock',
      'git-crypt unlock ~/keys/repo.key && cat config/credentials.yml',
      'git-crypt export-key /tmp/repo.key',
      'transcrypt -c aes-256-cbc -p secret -y',
      'blackbox_decrypt_all_files',
    ],
    // (`git-crypt export-key FILE` copies the key that decrypts them all out of .git; to stdout it is denied, secret-printers.ts.)
    match: (v) =>
      (v.program === 'git-crypt' && /^(unlock|export-key)$/.test(v.args.filter((a) => !a.startsWith('-'))[0] ?? '')) ||
      (v.program === 'transcrypt' &&
        !v.args.some((a) => /^(-l|--list|-h|--help|-v|--version|-d|--display)$/.test(a))) ||
      v.program === 'blackbox_decrypt_all_files' ||
      v.program === 'blackbox_cat',
  },
  ...DEPLOYED_SECRET_DANGERS,
];
