// Commands that make a new credential, or hand out one a service keeps, and print it (issue 26, round 6): entries of
// SECRET_PRINTERS (secret-printers.ts), denied as reading the login they are made with is. `az ad sp create-for-rbac`
// prints the new service principal's password, `aws iam create-access-key` a secret key, `az storage account keys
// list` the account's keys, `keyring get` a saved password. Listing, showing metadata and creating without a secret
// (`az ad sp list`, `aws iam list-access-keys`, `gcloud api-keys list`) stay allowed.
import type { SecretPrinter } from './secret-printers.ts';
import { operands, optionValue } from './flags.ts';
import { inlineCode } from './inline-code.ts';
import { isMetadataUrl } from './remote-targets.ts';

/** Options before (and between) a cloud CLI's command words that take a value. */
const CLOUD_WITH_ARG = [
  '--profile',
  '--region',
  '--output',
  '-o',
  '--query',
  '--project',
  '--subscription',
  '--name',
  '-n',
  '--resource-group',
  '-g',
  '--id',
  '--format',
  '--user-name',
  '--key-name',
  '--instance-name',
  '--api-id',
  '--api-key',
  '--cluster-identifier',
  '--db-user',
  '--role',
  '--scopes',
  '--account-name',
  '--vault-name',
  '--secret',
];

/** Azure commands (their words joined by spaces) that print keys, passwords, connection strings or SAS tokens. */
const AZURE_PRINTS_SECRET =
  /^(ad sp create-for-rbac|ad (sp|app) credential reset|.* keys list|.* list-keys|.* key list|.* show-connection-string|.* connection-string show|acr credential show|.* generate-sas|search admin-key show|webapp deployment list-publishing-(profiles|credentials)|functionapp (function )?keys list)( |$)/;
/** AWS operations (`service operation`) that print a new or kept secret: access keys, key pairs, database passwords, API keys. */
const AWS_PRINTS_SECRET =
  /^(iam (create-access-key|create-service-specific-credential|reset-service-specific-credential)|ec2 create-key-pair|lightsail (get-instance-access-details|download-default-key-pair|create-key-pair)|iot create-keys-and-certificate|redshift get-cluster-credentials(-with-iam)?|redshift-serverless get-credentials|appsync list-api-keys|cognito-idp (admin-)?initiate-auth|sso-oidc create-token|kms decrypt)$/;
/** gcloud commands (after `alpha`/`beta`) that print a token, an API key or a database auth string. */
const GCLOUD_PRINTS_SECRET =
  /^(auth (print-access-token|print-identity-token|print-refresh-token|application-default print-access-token)|config config-helper|redis instances get-auth-string|api-keys get-key-string|sql generate-login-token|storage hmac create)\b/;

// One line per entry: the table is read down its rows, so the formatter leaves it as written.
// prettier-ignore
export const MINTED_CREDENTIALS: readonly SecretPrinter[] = [
  {
    id: 'azure-secret-mint', programs: ['az'], keptIn: '.azure', reason: "prints a new service principal's password, an account's keys or a connection string (az ad sp create-for-rbac, credential reset, keys list), made with the login in ~/.azure",
    // (`--cert`/`--create-cert` put the credential in a certificate file and print its path.)
    prints: (_, args) => {
      const command = operands([...args], CLOUD_WITH_ARG).join(' ');
      // (`az aks get-credentials --file -` prints the kubeconfig instead of merging it into ~/.kube/config.)
      if (command.startsWith('aks get-credentials')) return optionValue([...args], ['--file', '-f']) === '-';
      return AZURE_PRINTS_SECRET.test(command) && !args.some((a) => a === '--cert' || a === '--create-cert' || a === '--keyvault');
    },
    examples: ['az ad sp create-for-rbac --name ci-deployer --role contributor', 'az ad sp create-for-rbac --sdk-auth', 'az ad sp credential reset --id 00000000-0000-0000-0000-000000000000', 'az ad app credential reset --id abc --append', 'az storage account keys list -n acmestore', 'az storage account show-connection-string -n acmestore', 'az acr credential show -n acmeregistry', 'az cosmosdb keys list -n acme -g rg --type connection-strings', 'az redis list-keys -n cache -g rg', 'az aks get-credentials -n prod -g rg --file -', 'az storage container generate-sas --account-name acme -n logs --permissions r --expiry 2030-01-01'],
    controls: ['az ad sp list --display-name ci-deployer', 'az ad sp show --id abc', 'az ad sp credential list --id abc', 'az storage account list', 'az ad sp create-for-rbac --name ci --create-cert', 'az acr list', 'az aks get-credentials -n prod -g rg'],
  },
  {
    id: 'aws-secret-mint', programs: ['aws'], keptIn: '.aws/credentials', reason: 'prints a new access key, a private key pair, a database password or an API key (aws iam create-access-key, ec2 create-key-pair, …), made with the login in ~/.aws',
    prints: (_, args) => {
      const [service, operation] = operands([...args], CLOUD_WITH_ARG);
      if (service === 'apigateway') return (operation === 'get-api-key' && args.includes('--include-value')) || (operation === 'get-api-keys' && args.includes('--include-values'));
      return AWS_PRINTS_SECRET.test(`${service} ${operation}`) && !(service === 'ec2' && args.some((a) => /KeyPairId|KeyFingerprint/.test(a)));
    },
    examples: ['aws iam create-access-key --user-name ci', 'aws ec2 create-key-pair --key-name prod', 'aws iot create-keys-and-certificate --set-as-active', 'aws lightsail get-instance-access-details --instance-name web', 'aws redshift get-cluster-credentials --cluster-identifier c --db-user u', 'aws apigateway get-api-key --api-key abc --include-value', 'aws appsync list-api-keys --api-id x', 'aws kms decrypt --ciphertext-blob fileb://secret.enc'],
    controls: ['aws iam list-access-keys --user-name ci', 'aws ec2 describe-key-pairs', 'aws apigateway get-api-key --api-key abc', 'aws iam get-user', 'aws kms list-keys'],
  },
  {
    id: 'gcloud-secret-mint', programs: ['gcloud'], keptIn: '.config/gcloud', reason: 'prints an access token, an API key string or a database auth string, made with the login in ~/.config/gcloud',
    prints: (_, args) => { const words = operands([...args], CLOUD_WITH_ARG); return GCLOUD_PRINTS_SECRET.test((/^(alpha|beta)$/.test(words[0] ?? '') ? words.slice(1) : words).join(' ')); },
    examples: ['gcloud config config-helper --format=json', 'gcloud beta auth print-access-token', 'gcloud redis instances get-auth-string cache --region us-central1', 'gcloud api-keys get-key-string abc', 'gcloud sql generate-login-token', 'gcloud storage hmac create sa@acme.iam.gserviceaccount.com'],
    controls: ['gcloud config list', 'gcloud api-keys list', 'gcloud redis instances describe cache --region us-central1', 'gcloud beta auth list'],
  },
  {
    // Python's keyring CLI (`keyring get SERVICE USER`, `python -m keyring get …`) prints a password the desktop keyring keeps.
    id: 'keyring-get', programs: ['keyring', 'python', 'python3'], keptIn: '.local/share/keyrings', reason: 'prints a password saved in the desktop keyring (keyring get)',
    prints: (words, args, v) => {
      if (v.program === 'keyring') return words[0] === 'get';
      // (`python3 -c "print(keyring.get_password('pypi', '__token__'))"`: the same password, printed by inline code.)
      return (args[0] === '-m' && args[1] === 'keyring' && args[2] === 'get') || inlineCode(v).some((c) => PRINTED_KEYRING_PASSWORD.test(c.code));
    },
    examples: ['keyring get https://upload.pypi.org/legacy/ __token__', 'python3 -m keyring get system me', 'python -m keyring get pypi __token__', "python3 -c \"import keyring; print(keyring.get_password('pypi', '__token__'))\""],
    controls: ['keyring --list-backends', 'keyring diagnose', 'python3 -m keyring --list-backends', 'python3 -m pytest', "python3 -c \"import keyring; print(keyring.get_keyring())\""],
  },
  {
    // CLIs that mint a login token and print it: `firebase login:ci`, `heroku authorizations:create`, `vault token
    // create`, `openstack token issue`, `ibmcloud iam oauth-tokens`, doctl's registry login and kubeconfig, Vault's
    // current token; `pulumi config get` of a secret and `--show-secrets`, Stripe's keys from its config.
    id: 'cli-token-mint', programs: ['firebase', 'heroku', 'vault', 'openstack', 'ibmcloud', 'doctl', 'pulumi', 'stripe', 'argocd', 'cloudflared', 'supabase', 'gsutil'], keptIn: '.config/configstore/firebase-tools.json',
    reason: 'mints a login token or key and prints it (firebase login:ci, heroku authorizations:create, vault token create, argocd account generate-token, cloudflared tunnel token, …), or prints secrets a CLI keeps (pulumi --show-secrets, stripe config --list, supabase projects api-keys, argocd admin initial-password)',
    prints: (words, args, v) => {
      switch (v.program) {
        case 'firebase': return words[0] === 'login:ci';
        case 'heroku': return words[0] === 'authorizations:create' || (words[0] === 'authorizations:info' && args.length > 1);
        case 'vault': return (words[0] === 'token' && words[1] === 'create') || (words[0] === 'print' && words[1] === 'token') || (words[0] === 'login' && args.some((a) => a === '-token-only' || a === '-field=token')) || (words[0] === 'write' && /^auth\/.+\/login/.test(words[1] ?? ''));
        case 'openstack': return (words[0] === 'token' && words[1] === 'issue') || (words[0] === 'ec2' && words[1] === 'credentials' && /^(create|list|show)$/.test(words[2] ?? ''));
        case 'ibmcloud': return words[0] === 'iam' && /^(oauth-tokens|api-key-create)$/.test(words[1] ?? '');
        case 'doctl': return (words[0] === 'registry' && words[1] === 'docker-config') || (words.slice(0, 4).join(' ') === 'kubernetes cluster kubeconfig show');
        case 'pulumi': return args.includes('--show-secrets') || (words[0] === 'config' && words[1] === 'get' && SECRET_NAME.test(words[2] ?? ''));
        case 'stripe': return words[0] === 'config' && args.includes('--list');
        case 'argocd': return (words[0] === 'account' && words[1] === 'generate-token') || (words[0] === 'admin' && words[1] === 'initial-password');
        case 'cloudflared': return words[0] === 'tunnel' && words[1] === 'token';
        case 'supabase': return words[0] === 'projects' && words[1] === 'api-keys';
        case 'gsutil': return words[0] === 'hmac' && words[1] === 'create';
        default: return false;
      }
    },
    examples: ['firebase login:ci', 'heroku authorizations:create -d ci', 'vault token create -ttl=1h', 'vault print token', 'vault login -token-only -method=userpass username=me', 'openstack token issue', 'ibmcloud iam oauth-tokens', 'doctl registry docker-config', 'doctl kubernetes cluster kubeconfig show prod', 'pulumi config get dbPassword', 'pulumi stack output --show-secrets', 'pulumi config --show-secrets', 'stripe config --list', 'argocd account generate-token', 'argocd admin initial-password -n argocd', 'cloudflared tunnel token my-tunnel', 'supabase projects api-keys --project-ref abcd', 'gsutil hmac create sa@acme.iam.gserviceaccount.com'],
    controls: ['firebase login', 'heroku authorizations', 'vault token lookup', 'vault status', 'openstack server list', 'doctl registry get', 'pulumi config', 'pulumi stack output', 'pulumi config get aws:region', 'stripe listen --forward-to localhost:3000/webhook', 'argocd app list', 'cloudflared tunnel list', 'supabase status', 'gsutil hmac list'],
  },
  // Issue 26, round 7.
  {
    // JFrog CLI: `jf config export` prints a server's configuration with its access token (base64), `jf atc` mints one.
    id: 'jfrog-token-print', programs: ['jf', 'jfrog'], keptIn: '.jfrog', reason: "prints the JFrog CLI's access token from ~/.jfrog (jf config export) or mints one (jf access-token-create)",
    prints: (words) => {
      const [group, command] = words[0] === 'rt' ? words.slice(1) : words;
      return ((group === 'config' || group === 'c') && command === 'export') || group === 'access-token-create' || group === 'atc';
    },
    examples: ['jf config export', 'jf c export prod-server', 'jfrog config export', 'jf atc', 'jf rt access-token-create --expiry 3600'],
    controls: ['jf config show', 'jf c ls', 'jf config use prod', 'jf rt ping'],
  },
  {
    // my_print_defaults masks passwords unless told to show them (-s); mysql_config_editor print always masks them.
    id: 'mysql-defaults-print', programs: ['my_print_defaults'], keptIn: '.my.cnf', reason: 'prints the MySQL client password from ~/.my.cnf or ~/.mylogin.cnf (my_print_defaults --show)',
    prints: (_, args) => args.some((a) => a === '-s' || a === '--show'),
    examples: ['my_print_defaults -s client', 'my_print_defaults --show client mysql', 'my_print_defaults -s --login-path=prod client'],
    controls: ['my_print_defaults client', 'my_print_defaults mysqld'],
  },
  {
    // `security export -t identities` (or privKeys, all) writes the keychain's private keys out: to stdout or a file
    // named by -o, a copy of ~/Library/Keychains' keys as `cp ~/Library/Keychains/login.keychain-db /tmp/` is.
    id: 'keychain-key-export', programs: ['security'], keptIn: 'Library/Keychains', reason: 'exports private keys from the macOS keychain (security export -t identities / privKeys)',
    prints: (words, args) => words[0] === 'export' && !args.some((a, i) => (a === '-t' || a === '--type') && /^(certs|pubKeys)$/.test(args[i + 1] ?? '')) && args.some((a, i) => (a === '-t' || a === '--type') && /^(identities|privKeys|all)$/.test(args[i + 1] ?? '')),
    examples: ['security export -k login.keychain-db -t identities -f pkcs12 -o /tmp/id.p12', 'security export -t privKeys -f pemseq', 'security export -k ~/Library/Keychains/login.keychain-db -t all -o all.pem'],
    controls: ['security export -k login.keychain-db -t certs -f pemseq -o certs.pem', 'security find-identity -v -p codesigning', 'security list-keychains'],
  },
  {
    // The instance metadata paths that hand out the machine's (or the task's) live credentials; the rest of the
    // metadata service (instance id, zone, user data) stays asked as cloud-metadata.
    id: 'cloud-metadata-credentials', programs: ['curl', 'wget', 'http', 'https', 'xh', 'xhs', 'python', 'python3', 'node', 'ruby', 'perl', 'php'],
    reason: "fetches the machine role's live cloud credentials from the instance metadata service (AWS security-credentials, the ECS task role, a GCE service-account token, Azure's managed identity token)",
    prints: (_, args, v) => /^(python|node|ruby|perl|php)/.test(v.program) ? inlineCode(v).some((c) => [...c.code.matchAll(/["'`]([^"'`\s]+)["'`]/g)].some((m) => metadataCredentialUrl(m[1]!))) : args.some(metadataCredentialUrl),
    examples: ['curl -s http://169.254.169.254/latest/meta-data/iam/security-credentials/app-role', 'wget -qO- http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'curl -s -H "Metadata-Flavor: Google" http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token', 'curl -s -H Metadata:true "http://169.254.169.254/metadata/identity/oauth2/token?api-version=2018-02-01&resource=https://management.azure.com/"', 'curl -s http://169.254.170.2$AWS_CONTAINER_CREDENTIALS_RELATIVE_URI', 'curl -s -H "Authorization: $AWS_CONTAINER_AUTHORIZATION_TOKEN" $AWS_CONTAINER_CREDENTIALS_FULL_URI', 'http GET http://metadata/computeMetadata/v1/instance/service-accounts/default/identity?audience=x Metadata-Flavor:Google', 'curl http://100.100.100.200/latest/meta-data/ram/security-credentials/ecs-role', "python3 -c \"import requests; print(requests.get('http://169.254.169.254/latest/meta-data/iam/security-credentials/app').text)\""],
    controls: ['curl -s https://api.github.com/repos/acme/app', 'python3 -c "import requests; print(requests.get(\'https://example.com/health\').status_code)"'],
  },
  {
    // The kernel keyring keeps keys and tokens (Kerberos tickets, fscrypt and ecryptfs keys, tokens put there by tools).
    id: 'kernel-keyring-print', programs: ['keyctl'], reason: 'prints a key from the kernel keyring (keyctl print, pipe, read)',
    prints: (words) => /^(print|pipe|read)$/.test(words[0] ?? ''),
    examples: ['keyctl print %user:token', 'keyctl pipe 12345', 'keyctl read 12345'],
    controls: ['keyctl show', 'keyctl list @u', 'keyctl describe 12345'],
  },
  {
    // Another process's memory saved to a core file or dumped by a debugger: the keys and tokens the process holds.
    id: 'process-memory-dump', programs: ['gcore', 'gdb', 'lldb', 'procdump', 'avml'], reason: "dumps another process's memory (gcore, gdb's dump memory or generate-core-file, procdump, avml): the keys and tokens it holds",
    prints: (_, args, v) => {
      if (v.program === 'gcore' || v.program === 'procdump' || v.program === 'avml') return args.some((a) => !a.startsWith('-')) && !args.some((a) => /^(-h|--help|--version)$/.test(a));
      const attached = args.some((a) => /^(-p|--pid|--attach-pid|--attach-name|-n)(=|$)/.test(a)) || (v.program === 'gdb' && args.some((a) => /^\d+$/.test(a)));
      return attached && args.some((a) => /\b(dump\s+(memory|binary|value)|gcore|generate-core-file|save-core|memory\s+read)\b|^x\/\d*[sxb]/.test(a));
    },
    examples: ['gcore -o /tmp/dump 4211', 'sudo gcore 1234', "gdb -p 4211 -batch -ex 'dump memory /tmp/m 0x1000 0x2000'", 'gdb -p 4211 -batch -ex gcore', "gdb --batch -ex 'generate-core-file /tmp/core' -p 99", "lldb -p 4211 --batch -o 'process save-core /tmp/core'", 'procdump -p 4211', 'sudo avml /tmp/memory.lime', "gdb -p 4211 -batch -ex 'x/100s $sp'"],
    controls: ['gdb ./a.out', 'gdb -batch -ex run -ex bt ./app', 'gdb -p 4211 -batch -ex bt', 'lldb ./a.out', 'gcore --help'],
  },
];

/** A metadata service URL that hands out credentials (or the ECS credentials endpoint by its variables). */
function metadataCredentialUrl(url: string): boolean {
  if (/\$\{?(AWS_CONTAINER_CREDENTIALS_(RELATIVE|FULL)_URI|IDENTITY_ENDPOINT|MSI_ENDPOINT)\b/.test(url)) return true;
  if (!isMetadataUrl(url)) return false;
  return (
    /security-credentials|\/service-accounts\/[^/?#]+\/(token|identity)\b|\/identity\/oauth2\/token|\/v2\/credentials/i.test(
      url,
    ) || /^(?:https?:\/\/)?169\.254\.170\.2(?::\d+)?(?:\$|\/?$)/.test(url)
  );
}

/** A configuration key that names a secret: `dbPassword`, `apiToken`, `stripe:secretKey`. */
const SECRET_NAME = /pass(word)?|secret|token|api_?key|private_?key|credential/i;

/** Inline code printing a password from Python's keyring: `print(keyring.get_password('pypi', '__token__'))`. */
const PRINTED_KEYRING_PASSWORD = /\bprint\s*\([^;\n]{0,40}?\bget_password\s*\(/;
