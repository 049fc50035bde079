// The protected-path catalogue: what an agent may never read or write, in any home on the machine.

/** One protected entry, relative to a home directory. */
export interface ProtectedEntry {
  /** Path relative to a home (`.ssh`, `.config/gcloud`); a name may be a glob over one name (`.minikube/*.key`). */
  relative: string;
  reason: string;
  /**
   * Files right inside a protected directory that hold nothing secret, named on their own (a glob over one name):
   * `cat ~/.ssh/id_ed25519.pub` is allowed; listing the directory, a glob or a recursive read of it stays denied, and
   * a name that is a symlink to a secret is judged by where it leads.
   */
  open?: readonly string[];
  /**
   * Files right inside it that hold nothing secret but must not be written (a command that only reads may read them):
   * `~/.ssh/config` names hosts, users and key paths, and a `ProxyCommand` written there runs code.
   */
  readable?: readonly string[];
}

// An entry is a file when only that file is secret: `~/.claude/.credentials.json`, not `~/.claude`, whose settings,
// CLAUDE.md and commands an agent reads all the time. A directory is protected (with all below it) only when all of
// it is the secret. A path above an entry stays open (`ls ~/.claude`); a recursive read of it (`grep -r`, `cp -r`,
// `tar`) reaches the entry and is denied.

/**
 * Private keys saved by hand in a folder of a home people keep keys or downloads in (`~/keys/prod-bastion.pem`,
 * `~/certs/deploy.key`, an EC2 key pair in ~/Downloads): their extension, or an SSH key's name, says what they are.
 * Not every folder: a project's own test certificates (`~/myapp/certs/dev.pem`) stay readable, and so does a
 * recursive read of a project. Not the home itself either: `du -sh ~/*` would reach a glob there. (`[.]` is a plain dot to the glob; it keeps the name from matching any string
 * literal that ends in `.pem` in inline code, where these names are looked for as paths joined to a home.)
 */
const KEY_FOLDERS = [
  'keys/',
  '.keys/',
  'certs/',
  '.certs/',
  'ssl/',
  'secrets/',
  '.secrets/',
  'Downloads/',
  'Desktop/',
  '.ec2/',
  // VPN profiles kept by hand (round 5 of issue 26: `~/vpn/client.ovpn`).
  'vpn/',
  '.vpn/',
  'openvpn/',
  '.openvpn/',
  '.config/openvpn/',
];
const KEY_NAMES: readonly [string, string][] = [
  ['*[.]pem', 'a private key file (by its extension)'],
  ['*[.]key', 'a private key file (by its extension)'],
  ['*[.]ppk', 'a PuTTY private key'],
  ['*[.]p12', 'a private key and certificate bundle (PKCS #12)'],
  ['*[.]pfx', 'a private key and certificate bundle (PKCS #12)'],
  ['*[.]p8', 'a private key (PKCS #8: App Store Connect, APNs)'],
  ['*[.]jks', 'a Java keystore (private keys)'],
  ['*[.]keystore', 'a keystore (private keys)'],
  ['*[.]ovpn', 'an OpenVPN profile with its keys'],
  ['id_rsa', 'an SSH private key'],
  ['id_ed25519', 'an SSH private key'],
  ['id_ecdsa', 'an SSH private key'],
  ['id_dsa', 'an SSH private key'],
];
const LOOSE_PRIVATE_KEYS: readonly ProtectedEntry[] = KEY_FOLDERS.flatMap((folder) =>
  KEY_NAMES.map(([name, reason]) => ({ relative: `${folder}${name}`, reason })),
);

/** Credentials kept in every home: SSH keys, cloud and cluster credentials, GnuPG keyring, netrc. */
export const PROTECTED_IN_HOME: readonly ProtectedEntry[] = [
  {
    relative: '.ssh',
    reason: 'SSH private keys and authorized_keys',
    open: ['*.pub', 'known_hosts', 'known_hosts.old'],
    readable: ['config'],
  },
  { relative: '.aws', reason: 'AWS credentials' },
  { relative: '.kube', reason: 'Kubernetes cluster credentials' },
  { relative: '.gnupg', reason: 'GnuPG private keyring' },
  { relative: '.netrc', reason: 'machine passwords (netrc)' },
  { relative: '.config/gcloud', reason: 'Google Cloud credentials' },
  { relative: '.azure', reason: 'Azure credentials' },
  { relative: '.config/doctl', reason: 'DigitalOcean token' },
  { relative: '.oci', reason: 'Oracle Cloud credentials' },
  { relative: '.docker/config.json', reason: 'container registry logins' },
  { relative: '.dockercfg', reason: 'container registry logins (the old docker file)' },
  { relative: '.git-credentials', reason: 'git credentials in plain text' },
  { relative: '.config/git/credentials', reason: 'git credentials in plain text' },
  { relative: '.config/gh/hosts.yml', reason: 'GitHub CLI token' },
  { relative: '.config/hub', reason: 'GitHub token (hub)' },
  { relative: '.npmrc', reason: 'npm registry tokens' },
  { relative: '.pypirc', reason: 'Python package index tokens' },
  { relative: '.cargo/credentials.toml', reason: 'crates.io token' },
  { relative: '.cargo/credentials', reason: 'crates.io token' },
  { relative: '.gem/credentials', reason: 'RubyGems API key' },
  { relative: '.local/share/gem/credentials', reason: 'RubyGems API key' },
  { relative: '.bundle/config', reason: 'Bundler settings with private gem source credentials (BUNDLE_<HOST>)' },
  { relative: '.terraform.d/credentials.tfrc.json', reason: 'Terraform Cloud token' },
  { relative: '.vault-token', reason: 'HashiCorp Vault token' },
  { relative: '.pgpass', reason: 'PostgreSQL passwords' },
  { relative: '.my.cnf', reason: 'MySQL client passwords' },
  { relative: '.password-store', reason: 'password store (pass)' },
  { relative: '.local/share/keyrings', reason: 'desktop keyring (saved passwords)' },
  { relative: 'Library/Keychains', reason: 'macOS keychains (saved passwords)' },
  // Coding agents' own logins: another agent's token is a way to act as the user, and to spend their quota.
  { relative: '.claude/.credentials.json', reason: 'Claude Code OAuth credentials' },
  { relative: '.codex/auth.json', reason: 'Codex CLI login: OpenAI API key or ChatGPT tokens' },
  { relative: '.gemini/oauth_creds.json', reason: 'Gemini CLI Google OAuth credentials' },
  { relative: '.gemini/mcp-oauth-tokens.json', reason: "Gemini CLI's OAuth tokens for MCP servers" },
  // Container registries and local clusters.
  { relative: '.config/containers/auth.json', reason: 'container registry logins (podman, buildah, skopeo)' },
  { relative: '.minikube/*.key', reason: 'minikube cluster CA private keys' },
  { relative: '.minikube/profiles/*/*.key', reason: 'minikube cluster client and API server private keys' },
  { relative: '.minikube/certs/*key.pem', reason: 'minikube machine CA and client private keys' },
  { relative: '.minikube/machines/*key.pem', reason: 'minikube machine server private key' },
  { relative: '.minikube/machines/*/id_rsa', reason: 'SSH private key into the minikube machine' },
  // Encryption keys, cloud storage and hosting-platform logins.
  { relative: '.config/sops/age/keys.txt', reason: 'age private keys (SOPS)' },
  { relative: 'Library/Application Support/sops/age/keys.txt', reason: 'age private keys (SOPS)' },
  { relative: '.s3cfg', reason: 'S3 access keys (s3cmd)' },
  { relative: '.boto', reason: 'Google Cloud Storage and S3 keys (gsutil, boto)' },
  { relative: '.config/rclone/rclone.conf', reason: 'cloud storage remotes with their tokens and passwords (rclone)' },
  { relative: '.config/op', reason: '1Password CLI accounts and sessions' },
  { relative: '.op', reason: '1Password CLI accounts and sessions' },
  { relative: '.fly/config.yml', reason: 'Fly.io access token' },
  { relative: '.config/configstore/firebase-tools.json', reason: 'Firebase CLI login (OAuth refresh token)' },
  { relative: '.config/netlify/config.json', reason: 'Netlify CLI access token' },
  { relative: 'Library/Preferences/netlify/config.json', reason: 'Netlify CLI access token' },
  { relative: '.netlify/config.json', reason: 'Netlify CLI access token' },
  { relative: '.local/share/com.vercel.cli/auth.json', reason: 'Vercel CLI token' },
  { relative: 'Library/Application Support/com.vercel.cli/auth.json', reason: 'Vercel CLI token' },
  { relative: '.vercel/auth.json', reason: 'Vercel CLI token' },
  { relative: '.wrangler/config/default.toml', reason: 'Cloudflare Wrangler OAuth token' },
  { relative: '.config/.wrangler/config/default.toml', reason: 'Cloudflare Wrangler OAuth token' },
  { relative: 'Library/Preferences/.wrangler/config/default.toml', reason: 'Cloudflare Wrangler OAuth token' },
  { relative: '.config/hcloud/cli.toml', reason: 'Hetzner Cloud API tokens' },
  // Data platforms and model hubs.
  { relative: '.databrickscfg', reason: 'Databricks tokens' },
  { relative: '.snowsql/config', reason: 'Snowflake passwords (SnowSQL)' },
  { relative: '.kaggle/kaggle.json', reason: 'Kaggle API key' },
  { relative: '.config/kaggle/kaggle.json', reason: 'Kaggle API key' },
  { relative: '.huggingface/token', reason: 'Hugging Face token' },
  { relative: '.cache/huggingface/token', reason: 'Hugging Face token' },
  { relative: '.cache/huggingface/stored_tokens', reason: 'Hugging Face tokens' },
  // Browser profiles: saved passwords and session cookies are logins to everything the user has open.
  { relative: '.mozilla/firefox', reason: 'browser profile (saved passwords, cookies)' },
  { relative: 'snap/firefox/common/.mozilla/firefox', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.var/app/org.mozilla.firefox/.mozilla/firefox', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/google-chrome', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.var/app/com.google.Chrome', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/chromium', reason: 'browser profile (saved passwords, cookies)' },
  { relative: 'snap/chromium/common/chromium', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.var/app/org.chromium.Chromium', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/BraveSoftware', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/google-chrome-beta', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/google-chrome-unstable', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/chromium-browser', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.var/app/com.brave.Browser', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.librewolf', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.waterfox', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.zen', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/epiphany', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.thunderbird', reason: 'mail profile (saved passwords, mail)' },
  { relative: '.config/glab-cli/config.yml', reason: 'GitLab CLI token' },
  { relative: '.config/github-copilot/hosts.json', reason: 'GitHub Copilot token' },
  { relative: '.config/github-copilot/apps.json', reason: 'GitHub Copilot token' },
  { relative: '.config/microsoft-edge', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/vivaldi', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/opera', reason: 'browser profile (saved passwords, cookies)' },
  { relative: 'Library/Application Support/Google/Chrome', reason: 'browser profile (saved passwords, cookies)' },
  { relative: 'Library/Application Support/Firefox', reason: 'browser profile (saved passwords, cookies)' },
  { relative: 'Library/Application Support/Microsoft Edge', reason: 'browser profile (saved passwords, cookies)' },
  { relative: 'Library/Application Support/BraveSoftware', reason: 'browser profile (saved passwords, cookies)' },
  { relative: 'Library/Safari', reason: 'Safari profile (browsing history, autofill data)' },
  { relative: 'Library/Cookies', reason: 'macOS session cookies (Safari and other apps)' },
  // toolgate's default data directory, whichever data directory this sidecar uses: another toolgate (or the
  // CLI's default) keeps its reviewer token and its rules there.
  // Build tools' and package managers' registry logins.
  { relative: '.m2/settings.xml', reason: 'Maven repository passwords' },
  { relative: '.m2/settings-security.xml', reason: "Maven's master password" },
  { relative: '.gradle/gradle.properties', reason: 'Gradle repository and signing credentials' },
  { relative: '.composer/auth.json', reason: 'Composer registry tokens' },
  { relative: '.config/composer/auth.json', reason: 'Composer registry tokens' },
  { relative: '.yarnrc.yml', reason: 'Yarn registry tokens (npmAuthToken)' },
  { relative: '.config/pip/pip.conf', reason: 'pip index URLs with their passwords' },
  { relative: '.pip/pip.conf', reason: 'pip index URLs with their passwords' },
  { relative: '.nuget/NuGet/NuGet.Config', reason: 'NuGet feed passwords and API keys' },
  { relative: '.config/NuGet/NuGet.Config', reason: 'NuGet feed passwords and API keys' },
  // Issue 28: more keys and tokens kept in a home.
  { relative: '.config/age', reason: 'age private keys' },
  { relative: '.circleci/cli.yml', reason: 'CircleCI CLI token' },
  { relative: '.travis/config.yml', reason: 'Travis CI CLI token' },
  { relative: '.microsoft/usersecrets', reason: '.NET user secrets' },
  { relative: 'AppData/Roaming/Microsoft/UserSecrets', reason: '.NET user secrets' },
  { relative: '.docker/key.json', reason: "the docker client's private key (content trust)" },
  { relative: '.terraformrc', reason: 'Terraform registry tokens (credentials blocks)' },
  { relative: '.pulumi/credentials.json', reason: 'Pulumi Cloud access tokens' },
  { relative: '.config/railway/config.json', reason: 'Railway CLI token' },
  { relative: '.railway/config.json', reason: 'Railway CLI token' },
  { relative: '.sentryclirc', reason: 'Sentry CLI auth token' },
  { relative: '.config/stripe/config.toml', reason: 'Stripe CLI API keys' },
  { relative: '.doppler', reason: 'Doppler CLI tokens' },
  { relative: '.config/ngrok/ngrok.yml', reason: 'ngrok authtoken' },
  { relative: '.ngrok2/ngrok.yml', reason: 'ngrok authtoken' },
  { relative: '.cloudflared/cert.pem', reason: 'Cloudflare Tunnel account certificate (its token)' },
  { relative: '.tsh', reason: 'Teleport keys and certificates' },
  { relative: '.config/helm/registry/config.json', reason: 'Helm OCI registry logins' },
  { relative: '.config/helm/repositories.yaml', reason: 'Helm chart repository passwords' },
  { relative: 'Library/Preferences/helm/repositories.yaml', reason: 'Helm chart repository passwords' },
  { relative: 'Library/Preferences/helm/registry/config.json', reason: 'Helm OCI registry logins' },
  { relative: '.mc/config.json', reason: 'MinIO client access keys' },
  { relative: '.aliyun/config.json', reason: 'Alibaba Cloud access keys' },
  { relative: '.bluemix/config.json', reason: 'IBM Cloud CLI tokens' },
  { relative: '.config/linode-cli', reason: 'Linode API token' },
  { relative: '.snowflake/connections.toml', reason: 'Snowflake connection passwords' },
  { relative: '.dbt/profiles.yml', reason: 'dbt warehouse passwords and keys' },
  { relative: '.jfrog', reason: 'JFrog CLI access tokens' },
  { relative: '.sbt/credentials', reason: 'sbt repository credentials' },
  { relative: '.ivy2/.credentials', reason: 'Ivy repository credentials' },
  { relative: '.hex/hex.config', reason: 'Hex API key' },
  { relative: '.mix/hex.config', reason: 'Hex API key' },
  { relative: '.pub-cache/credentials.json', reason: 'pub.dev OAuth credentials' },
  { relative: '.config/dart/pub-credentials.json', reason: 'pub.dev OAuth credentials' },
  { relative: '.expo/state.json', reason: 'Expo session secret' },
  { relative: '.talos/config', reason: 'Talos cluster client keys' },
  { relative: '.gitlab-runner/config.toml', reason: 'GitLab runner tokens' },
  { relative: '.config/atuin/key', reason: 'Atuin history encryption key' },
  { relative: '.local/share/atuin/key', reason: 'Atuin history encryption key' },
  { relative: '.config/filezilla/sitemanager.xml', reason: 'FileZilla saved server passwords' },
  { relative: '.config/filezilla/recentservers.xml', reason: 'FileZilla saved server passwords' },
  { relative: '.msmtprc', reason: 'SMTP passwords (msmtp)' },
  { relative: '.wakatime.cfg', reason: 'WakaTime API key' },
  // Issue 26, round 5.
  { relative: '.config/pypoetry/auth.toml', reason: 'Poetry repository passwords' },
  { relative: 'Library/Application Support/pypoetry/auth.toml', reason: 'Poetry repository passwords' },
  { relative: '.smbcredentials', reason: 'SMB/CIFS share password' },
  { relative: '.vnc/passwd', reason: 'VNC password' },
  { relative: '.heroku/credentials', reason: 'Heroku API key (old CLI)' },
  { relative: '.appstoreconnect/private_keys', reason: 'App Store Connect API private keys' },
  { relative: '.private_keys', reason: 'App Store Connect API private keys (altool)' },
  { relative: '.cert/nm-openvpn', reason: 'OpenVPN keys NetworkManager imported' },
  { relative: '.authinfo', reason: 'machine passwords (authinfo)' },
  { relative: '.authinfo.gpg', reason: 'machine passwords (authinfo)' },
  { relative: '.fetchmailrc', reason: 'mail server passwords (fetchmail)' },
  { relative: '.mylogin.cnf', reason: 'MySQL login paths with passwords' },
  { relative: '.pg_service.conf', reason: 'PostgreSQL service passwords' },
  { relative: '.config/Bitwarden CLI/data.json', reason: 'Bitwarden CLI vault and session' },
  { relative: '.config/cachix/cachix.dhall', reason: 'Cachix auth token' },
  { relative: '.sbt/.credentials', reason: 'sbt repository credentials' },
  { relative: '.purple/accounts.xml', reason: 'chat account passwords (Pidgin)' },
  { relative: '.jenkins/secrets', reason: 'Jenkins secrets (initial admin password, master key)' },
  // Issue 26, round 6: more CLI logins and session files. A folder that holds only the login is protected whole where
  // its file has a common name (`access-token`, `config.yaml`): `cat ~/$X/config.yaml` would be taken to reach it.
  { relative: '.supabase', reason: 'Supabase CLI access token' },
  { relative: '.fastlane/spaceship', reason: 'fastlane Apple ID session cookies (spaceship)' },
  { relative: '.now/auth.json', reason: 'Vercel CLI token (the old now CLI)' },
  { relative: '.config/argocd', reason: 'Argo CD CLI auth tokens' },
  { relative: '.argocd/config', reason: 'Argo CD CLI auth tokens' },
  { relative: '.android/adbkey', reason: "adb's private key (the devices that trust it)" },
  { relative: '.config/configstore/snyk.json', reason: 'Snyk CLI API token' },
  { relative: '.modal.toml', reason: 'Modal token id and secret' },
  { relative: '.config/planetscale', reason: 'PlanetScale CLI access token' },
  { relative: '.config/neonctl/credentials.json', reason: 'Neon CLI credentials' },
  { relative: '.config/turso', reason: 'Turso CLI token' },
  { relative: '.config/turborepo/config.json', reason: 'Turborepo remote cache token' },
  { relative: 'Library/Application Support/turborepo/config.json', reason: 'Turborepo remote cache token' },
  { relative: '.rancher/cli2.json', reason: 'Rancher CLI tokens' },
  { relative: '.twilio-cli/config.json', reason: 'Twilio CLI API keys' },
  { relative: '.render', reason: 'Render CLI API key' },
  { relative: '.config/scw', reason: 'Scaleway secret key' },
  { relative: '.config/exoscale/exoscale.toml', reason: 'Exoscale API secret' },
  { relative: '.vultr-cli.yaml', reason: 'Vultr API key' },
  { relative: '.config/vultr-cli.yaml', reason: 'Vultr API key' },
  { relative: '.civo.json', reason: 'Civo API keys' },
  { relative: '.linode-cli', reason: 'Linode API token' },
  { relative: '.config/openstack/clouds.yaml', reason: 'OpenStack cloud passwords' },
  { relative: '.config/openstack/secure.yaml', reason: 'OpenStack cloud passwords' },
  { relative: '.cf/config.json', reason: 'Cloud Foundry CLI tokens' },
  { relative: '.config/atlascli/config.toml', reason: 'MongoDB Atlas CLI API keys' },
  { relative: '.config/tea/config.yml', reason: 'Gitea CLI tokens' },
  { relative: '.tccli', reason: 'Tencent Cloud CLI credentials' },
  { relative: '.ovh.conf', reason: 'OVHcloud API credentials' },
  { relative: '.config/yandex-cloud', reason: 'Yandex Cloud CLI tokens' },
  { relative: '.sfdx', reason: 'Salesforce CLI org logins' },
  { relative: '.sf', reason: 'Salesforce CLI org logins' },
  { relative: '.ollama/id_ed25519', reason: "Ollama's private key" },
  // (A tunnel's credentials file is named by its UUID: `*.json` would be taken to reach any `~/$X/package.json`.)
  { relative: '.cloudflared/*-*-*-*-*.json', reason: 'Cloudflare Tunnel credentials (the tunnel secret)' },
  // Wallets and keypairs: a blockchain key is the money it holds. Solana's CLI keeps its keypair as `id.json` beside
  // its config (`cli/config.yml`, one folder down, holds none); not every `*.json` there, which `~/.config/$APP/x.json`
  // would be taken to reach.
  { relative: '.config/solana/id.json', reason: 'Solana keypair (private key)' },
  { relative: '.config/solana/*keypair*.json', reason: 'Solana keypair (private key)' },
  { relative: '.ethereum/keystore', reason: 'Ethereum account keys (geth keystore)' },
  { relative: '.ethereum/geth/nodekey', reason: "an Ethereum node's private key" },
  { relative: 'Library/Ethereum/keystore', reason: 'Ethereum account keys (geth keystore)' },
  { relative: '.foundry/keystores', reason: 'Ethereum account keys (Foundry cast wallet)' },
  { relative: '.brownie/accounts', reason: 'Ethereum account keys (Brownie)' },
  { relative: '.bitcoin/wallet.dat', reason: 'Bitcoin wallet (private keys)' },
  { relative: '.bitcoin/wallets', reason: 'Bitcoin wallets (private keys)' },
  { relative: 'Library/Application Support/Bitcoin/wallets', reason: 'Bitcoin wallets (private keys)' },
  { relative: 'Library/Application Support/Bitcoin/wallet.dat', reason: 'Bitcoin wallet (private keys)' },
  { relative: '.litecoin/wallet.dat', reason: 'Litecoin wallet (private keys)' },
  { relative: '.dogecoin/wallet.dat', reason: 'Dogecoin wallet (private keys)' },
  { relative: '.electrum/wallets', reason: 'Electrum wallets (private keys)' },
  { relative: '.sui/sui_config/sui.keystore', reason: 'Sui account keys' },
  { relative: '.near-credentials', reason: 'NEAR account keys' },
  { relative: '.aptos', reason: 'Aptos account private keys' },
  { relative: '.starkli-wallets', reason: 'Starknet account keys (starkli)' },
  ...LOOSE_PRIVATE_KEYS,
  { relative: '.toolgate', reason: "toolgate's default data directory (database, audit log, reviewer token)" },
];

/** Secrets of the machine itself: password hashes, host and TLS private keys, cluster credentials. */
export const PROTECTED_ON_SYSTEM: readonly { path: string; reason: string }[] = [
  { path: '/etc/shadow', reason: 'password hashes' },
  { path: '/etc/gshadow', reason: 'group password hashes' },
  // The copies shadow's tools leave beside it and the daily backup.
  { path: '/etc/shadow-', reason: 'password hashes (backup copy)' },
  { path: '/etc/gshadow-', reason: 'group password hashes (backup copy)' },
  { path: '/var/backups/shadow.bak', reason: 'password hashes (backup copy)' },
  { path: '/var/backups/gshadow.bak', reason: 'group password hashes (backup copy)' },
  { path: '/etc/master.passwd', reason: 'password hashes (BSD, macOS)' },
  { path: '/etc/ssh/ssh_host_*_key', reason: 'SSH host private keys' },
  { path: '/etc/ssl/private', reason: 'TLS private keys' },
  { path: '/etc/pki/tls/private', reason: 'TLS private keys' },
  { path: '/etc/letsencrypt/live/*/privkey*.pem', reason: "TLS private keys (Let's Encrypt)" },
  { path: '/etc/letsencrypt/archive/*/privkey*.pem', reason: "TLS private keys (Let's Encrypt)" },
  { path: '/etc/letsencrypt/accounts', reason: "ACME account private keys (Let's Encrypt)" },
  // kubeadm: admin.conf, super-admin.conf, kubelet.conf, controller-manager.conf and scheduler.conf are kubeconfigs
  // with client keys; pki holds the cluster CA, service-account signing and etcd keys. manifests/ stays readable.
  { path: '/etc/kubernetes/*.conf', reason: 'Kubernetes cluster credentials (kubeconfig)' },
  { path: '/etc/kubernetes/pki/*.key', reason: 'Kubernetes cluster private keys' },
  { path: '/etc/kubernetes/pki/etcd/*.key', reason: 'etcd private keys' },
  // A pod's service-account token: the agent running in a pod acts as that account against the cluster's API.
  // (`token` is a link into `..data/`, where the file itself is; EKS mounts a second token for IAM.)
  { path: '/var/run/secrets/kubernetes.io/serviceaccount/token', reason: "the pod's Kubernetes service-account token" },
  { path: '/run/secrets/kubernetes.io/serviceaccount/token', reason: "the pod's Kubernetes service-account token" },
  {
    path: '/var/run/secrets/kubernetes.io/serviceaccount/..data',
    reason: "the pod's Kubernetes service-account token",
  },
  { path: '/run/secrets/kubernetes.io/serviceaccount/..data', reason: "the pod's Kubernetes service-account token" },
  { path: '/var/run/secrets/eks.amazonaws.com/serviceaccount', reason: "the pod's AWS IAM web-identity token (EKS)" },
  { path: '/run/secrets/eks.amazonaws.com/serviceaccount', reason: "the pod's AWS IAM web-identity token (EKS)" },
  // A node's own kubelet credentials and k3s's admin kubeconfig.
  { path: '/var/lib/kubelet/pki', reason: 'kubelet client keys' },
  { path: '/var/lib/kubelet/kubeconfig', reason: 'kubelet cluster credentials (kubeconfig)' },
  { path: '/etc/rancher/k3s/k3s.yaml', reason: 'k3s cluster credentials (kubeconfig)' },
  // podman and buildah keep registry logins in the runtime directory by default (`podman login`).
  // The docker daemon's private key (/etc/docker/key.json) and its TLS keys.
  // VPN and tunnel keys, service passwords, runner tokens, cluster keys outside /etc/kubernetes.
  { path: '/etc/wireguard', reason: 'WireGuard private keys' },
  // Wi-Fi and VPN passwords and keys (NetworkManager's connections, wpa_supplicant's networks).
  { path: '/etc/NetworkManager/system-connections', reason: 'Wi-Fi and VPN passwords and keys (NetworkManager)' },
  { path: '/etc/wpa_supplicant', reason: 'Wi-Fi passwords (wpa_supplicant)' },
  { path: '/etc/wpa_supplicant.conf', reason: 'Wi-Fi passwords (wpa_supplicant)' },
  { path: '/etc/openvpn/*.key', reason: 'OpenVPN private keys' },
  { path: '/etc/openvpn/*/*.key', reason: 'OpenVPN private keys' },
  // A client or server configuration carries its keys inline (<key>, <tls-auth>, <tls-crypt>) and auth files hold
  // passwords: /etc/openvpn/client/office.conf, server/*.conf, *.ovpn.
  { path: '/etc/openvpn/*.conf', reason: 'OpenVPN configurations with their private keys' },
  { path: '/etc/openvpn/*/*.conf', reason: 'OpenVPN configurations with their private keys' },
  { path: '/etc/openvpn/*.ovpn', reason: 'OpenVPN configurations with their private keys' },
  { path: '/etc/openvpn/*/*.ovpn', reason: 'OpenVPN configurations with their private keys' },
  { path: '/etc/openvpn/*/*.pass', reason: 'OpenVPN passwords' },
  { path: '/etc/openvpn/*.pass', reason: 'OpenVPN passwords' },
  { path: '/etc/openvpn/*/auth*.txt', reason: 'OpenVPN passwords' },
  { path: '/etc/ipsec.secrets', reason: 'IPsec pre-shared keys and private keys' },
  { path: '/etc/strongswan/ipsec.secrets', reason: 'IPsec pre-shared keys and private keys' },
  { path: '/etc/ipsec.d/private', reason: 'IPsec private keys' },
  { path: '/etc/swanctl/private', reason: 'IPsec private keys (strongSwan)' },
  { path: '/etc/swanctl/swanctl.conf', reason: 'IPsec pre-shared keys (strongSwan)' },
  { path: '/etc/swanctl/conf.d/*.conf', reason: 'IPsec pre-shared keys (strongSwan)' },
  { path: '/etc/ppp/chap-secrets', reason: 'PPP passwords' },
  { path: '/etc/ppp/pap-secrets', reason: 'PPP passwords' },
  { path: '/etc/mysql/debian.cnf', reason: "MySQL's maintenance user password" },
  // Issue 26, round 5: service keytabs, passwords and join tokens.
  { path: '/etc/krb5.keytab', reason: 'Kerberos host keys (keytab)' },
  { path: '/etc/security/opasswd', reason: 'old password hashes' },
  { path: '/etc/gitlab/gitlab-secrets.json', reason: "GitLab's secrets (database and token keys)" },
  { path: '/etc/gitlab/initial_root_password', reason: "GitLab's initial root password" },
  { path: '/var/lib/jenkins/secrets', reason: 'Jenkins secrets (initial admin password, master key)' },
  { path: '/var/jenkins_home/secrets', reason: 'Jenkins secrets (initial admin password, master key)' },
  { path: '/var/lib/jenkins/credentials.xml', reason: 'Jenkins stored credentials' },
  { path: '/var/lib/rancher/k3s/server/token', reason: 'k3s cluster join token' },
  { path: '/var/lib/rancher/k3s/server/node-token', reason: 'k3s cluster join token' },
  { path: '/etc/ldap.secret', reason: 'LDAP bind password' },
  { path: '/etc/libnss-ldap.secret', reason: 'LDAP bind password' },
  { path: '/etc/pam_ldap.secret', reason: 'LDAP bind password' },
  { path: '/etc/openstack/clouds.yaml', reason: 'OpenStack cloud passwords' },
  { path: '/etc/postfix/sasl_passwd', reason: 'SMTP relay passwords (postfix)' },
  { path: '/etc/ssmtp/ssmtp.conf', reason: 'SMTP password (ssmtp)' },
  { path: '/etc/msmtprc', reason: 'SMTP passwords (msmtp)' },
  { path: '/etc/exim4/passwd.client', reason: 'SMTP relay passwords (exim)' },
  { path: '/etc/davfs2/secrets', reason: 'WebDAV passwords (davfs2)' },
  { path: '/var/lib/tailscale/tailscaled.state', reason: "Tailscale's node and machine keys" },
  { path: '/var/lib/zerotier-one/identity.secret', reason: "ZeroTier's node private key" },
  { path: '/var/lib/iwd', reason: 'Wi-Fi passwords (iwd)' },
  { path: '/boot/wpa_supplicant.conf', reason: 'Wi-Fi passwords (wpa_supplicant, first boot)' },
  { path: '/boot/firmware/wpa_supplicant.conf', reason: 'Wi-Fi passwords (wpa_supplicant, first boot)' },
  { path: '/etc/gitlab-runner/config.toml', reason: 'GitLab runner tokens' },
  { path: '/etc/rancher/rke2/rke2.yaml', reason: 'RKE2 cluster credentials (kubeconfig)' },
  { path: '/var/lib/docker/swarm/certificates', reason: 'docker swarm node private keys' },
  { path: '/etc/docker/key.json', reason: "the docker daemon's private key" },
  { path: '/etc/docker/*key.pem', reason: "the docker daemon's TLS private key" },
  // Secrets rendered into files for a workload (issue 26, round 6): the Vault agent injector's /vault/secrets, the
  // Secrets Store CSI driver's usual mount, secret volumes mounted at /etc/secrets or /secrets, apt's repository
  // logins (a Kerberos keytab, GitLab's and Jenkins' first passwords and k3s's join tokens are in round 5's list above).
  { path: '/vault/secrets', reason: 'secrets the Vault agent rendered for this workload' },
  { path: '/mnt/secrets-store', reason: 'secrets the Secrets Store CSI driver mounted' },
  { path: '/etc/secrets', reason: 'a mounted secret volume' },
  { path: '/secrets', reason: 'a mounted secret volume' },
  { path: '/etc/apt/auth.conf', reason: 'apt repository passwords' },
  { path: '/etc/apt/auth.conf.d', reason: 'apt repository passwords' },
  { path: '/run/user/*/containers/auth.json', reason: 'container registry logins (podman, buildah, skopeo)' },
  // A process's initial environment, which keeps tokens passed in it (TOOLGATE_REVIEWER_TOKEN, API keys) even after
  // the process deletes them: Linux serves the environment block the process started with. `*` covers every pid,
  // `self` and `thread-self`; a thread's copy sits under task/.
  { path: '/proc/*/environ', reason: "a process's environment (the sidecar's and agents' tokens and keys)" },
  { path: '/proc/*/task/*/environ', reason: "a process's environment (the sidecar's and agents' tokens and keys)" },
];

/** Where other users' homes live: the agent may run as another user, so their credentials count too. */
// (And Windows homes seen from WSL: `/mnt/c/Users/dev/.aws/credentials`, round 5 of issue 26.)
export const OTHER_HOMES: readonly string[] = ['/root', '/home/*', '/Users/*', '/mnt/*/Users/*'];

/** Reason shown for toolgate's own data directory. */
export const DATA_DIR_REASON = "toolgate's own data (its database, audit log and reviewer token)";
/** Reason shown for an operator-configured extra path. */
export const EXTRA_REASON = 'configured as protected by the operator';
