// The tests the secret entries (danger-secrets.ts) use for credentials kept by tools: cloud CLIs, kubectl, gpg,
// gh, vault and the other credential exporters, and password managers.
import type { CommandView } from '../shell/view.ts';
import { gitCommand } from './danger-git.ts';
import { operands, optionValue } from './flags.ts';

/** Options before the subcommand of the cloud CLIs that take a value (`aws --profile prod secretsmanager …`). */
const CLOUD_GLOBAL_WITH_ARG = [
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
/** kubectl options that take a value, so that the words left are the verb, the resource and the names. */
const KUBECTL_WITH_ARG = [
  '-n',
  '--namespace',
  '-o',
  '--output',
  '-l',
  '--selector',
  '--field-selector',
  '--context',
  '--cluster',
  '--user',
  '--kubeconfig',
  '-s',
  '--server',
  '--template',
];
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
    case 'configure':
      return (
        operation === 'export-credentials' || (operation === 'get' && /secret|session_token|access_key/i.test(key))
      );
    case 'secretsmanager':
      return operation === 'get-secret-value' || operation === 'batch-get-secret-value';
    // Short-lived credentials and registry passwords, printed: `aws ecr get-login-password`, `aws sts get-session-token`.
    case 'ecr':
      return operation === 'get-login-password' || operation === 'get-authorization-token';
    case 'ecr-public':
      return operation === 'get-login-password';
    case 'sts':
      return /^(get-session-token|assume-role|assume-role-with-web-identity|get-federation-token)$/.test(operation);
    case 'codeartifact':
      return operation === 'get-authorization-token';
    case 'sso':
      return operation === 'get-role-credentials';
    case 'eks':
      return operation === 'get-token';
    case 'rds':
      return operation === 'generate-db-auth-token';
    case 'iam':
      return operation === 'create-access-key';
    case 'ssm':
      return /^get-parameter(s|s-by-path|-history)?$/.test(operation) && args.includes('--with-decryption');
    default:
      return false;
  }
}

/** `gpg --export-secret-keys`, `kubectl config view --raw`, `gh auth token`, `git credential fill`, `vault kv get`, … */
export function exportsCredentials(v: CommandView): boolean {
  const [a, b] = v.args.filter((x) => !x.startsWith('-'));
  switch (v.program) {
    // gpg takes any unambiguous prefix of a long option: `--export-secret-key`, `--export-secret-k`.
    case 'gpg':
    case 'gpg2':
      return v.args.some((x) => /^--export-secret-(sub)?k/.test(x));
    case 'kubectl':
    case 'k':
    case 'oc':
      return (
        (a === 'config' && b === 'view' && v.args.some((x) => x === '--raw' || x === '--flatten')) ||
        printsKubeSecret(v.args) ||
        (a === 'create' && b === 'token') ||
        v.args.some((x) => /\/secrets(\/|$)/.test(x) && v.args.includes('--raw'))
      );
    case 'aws':
      return awsPrintsSecret(v.args);
    case 'gcloud': {
      const [group, command, action] = operands(v.args, CLOUD_GLOBAL_WITH_ARG);
      return (
        (group === 'auth' &&
          (/^print-(access|identity)-token$/.test(command ?? '') ||
            (command === 'application-default' && action === 'print-access-token'))) ||
        (group === 'secrets' && command === 'versions' && action === 'access') ||
        (group === 'config' && command === 'config-helper')
      );
    }
    case 'az': {
      const [group, command, action] = operands(v.args, CLOUD_GLOBAL_WITH_ARG);
      return (
        (group === 'account' && command === 'get-access-token') ||
        (group === 'keyvault' && command === 'secret' && (action === 'show' || action === 'download')) ||
        (group === 'acr' && command === 'login' && v.args.includes('--expose-token')) ||
        (group === 'storage' && command === 'account' && action === 'keys')
      );
    }
    case 'gh':
      return (
        (a === 'auth' &&
          (b === 'token' ||
            (b === 'git-credential' && v.args.includes('get')) ||
            (b === 'status' && v.args.some((x) => x === '--show-token' || x === '-t')))) ||
        (a === 'config' && b === 'get' && v.args.some((x) => /token/i.test(x)))
      );
    // `npm config get //registry.npmjs.org/:_authToken`, `yarn config get npmAuthToken`: the registry token (from ~/.npmrc).
    case 'npm':
    case 'pnpm':
    case 'yarn':
      return a === 'config' && b === 'get' && v.args.some((x) => /_auth|authtoken|_password/i.test(x));
    case 'git': {
      // The credential helper answers `fill` (a helper itself: `get`) with the stored username and password.
      const [command, action] = gitCommand(v.args);
      return (
        (command === 'credential' && action === 'fill') || (/^credential-/.test(command ?? '') && action === 'get')
      );
    }
    case 'glab':
      return (
        (a === 'auth' && b === 'status' && v.args.includes('--show-token')) ||
        (a === 'config' && b === 'get' && /token/i.test(v.args.filter((x) => !x.startsWith('-'))[2] ?? ''))
      );
    case 'flyctl':
    case 'fly':
      return a === 'auth' && b === 'token';
    case 'vault':
      return (
        a === 'read' ||
        (a === 'kv' && b === 'get') ||
        (a === 'print' && b === 'token') ||
        (a === 'login' && v.args.includes('-token-only'))
      );
    case 'heroku':
      return a === 'auth:token';
    // `docker inspect api --format '{{json .Config.Env}}'`: a container's environment, where its secrets are passed.
    case 'docker':
    case 'podman':
    case 'nerdctl':
      return (
        (a === 'inspect' || ((a === 'container' || a === 'image') && b === 'inspect')) &&
        v.args.some((x) => /\.Config\.Env\b|\.Env\b/.test(x))
      );
    // Decrypting an encrypted secrets file to the terminal (`sops -d secrets.yaml`, `ansible-vault view vault.yml`);
    // decrypting into a file (`-o`/`--output`, `sops -i`) prints nothing.
    case 'sops':
      return (
        (a === 'decrypt' || v.args.some((x) => x === '-d' || x === '--decrypt')) &&
        !v.args.some((x) => /^(-i|--in-place|--output(=.*)?)$/.test(x))
      );
    case 'ansible-vault':
      return (
        a === 'view' ||
        (a === 'decrypt' &&
          v.args.some((x) => x === '--output=-' || (x === '--output' && v.args[v.args.indexOf(x) + 1] === '-')))
      );
    case 'getent':
      return a === 'shadow' || a === 'gshadow';
    case 'pulumi':
      return v.args.includes('--show-secrets');
    case 'op':
      return a === 'read' || (a === 'item' && b === 'get' && v.args.includes('--reveal'));
    case 'doppler':
      return (
        a === 'secrets' && (b === undefined || b === 'get' || b === 'download') && !v.args.includes('--only-names')
      );
    // `echo https://index.docker.io/v1/ | docker-credential-pass get`: docker's credential helpers print the stored login.
    default:
      return (/^docker-credential-/.test(v.program) && a === 'get') || printsStoredPassword(v);
  }
}

/** pass's subcommands: any other first word is an entry's name, which `pass NAME` shows. */
const PASS_COMMANDS =
  /^(init|ls|list|find|search|insert|add|edit|generate|rm|remove|delete|mv|rename|cp|copy|git|help|version)$/;

/**
 * The desktop keyrings and password stores: `security find-generic-password -w` (or `-g`), `security dump-keychain -d`,
 * `secret-tool lookup`, `pass show x`, `kwallet-query -r key wallet`, `keyring get service user`. Copying to the
 * clipboard (`pass -c x`) prints nothing.
 */
function printsStoredPassword(v: CommandView): boolean {
  const [a, b] = v.args.filter((x) => !x.startsWith('-'));
  switch (v.program) {
    case 'security':
      return (
        (/^find-(generic|internet)-password$/.test(a ?? '') && v.args.some((x) => x === '-w' || x === '-g')) ||
        (a === 'dump-keychain' && v.args.some((x) => /^-[a-z]*d/.test(x)))
      );
    case 'secret-tool':
      return a === 'lookup' || a === 'search';
    case 'pass':
    case 'gopass':
      return (
        a !== undefined &&
        (a === 'show' || a === 'otp' || a === 'grep' || !PASS_COMMANDS.test(a)) &&
        !v.args.some((x) => /^(-c|--clip|-q|--qrcode)(=|$)/.test(x))
      );
    case 'kwallet-query':
      return v.args.some((x) => x === '-r' || x === '--read-password');
    case 'keyring':
      return a === 'get';
    // Password-manager CLIs: Bitwarden, LastPass, KeePassXC.
    case 'bw':
      return (
        (a === 'get' && b !== 'template') ||
        (a === 'list' && b === 'items') ||
        (a === 'unlock' && v.args.includes('--raw')) ||
        a === 'export'
      );
    case 'lpass':
      return a === 'show' || a === 'export';
    case 'keepassxc-cli':
      return a === 'show' || a === 'export' || a === 'clip';
    default:
      return false;
  }
}
