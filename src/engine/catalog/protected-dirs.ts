// The protected-path catalogue: what an agent may never read or write, in any home on the machine.

/** One protected entry, relative to a home directory. */
export interface ProtectedEntry {
  /** Path relative to a home (`.ssh`, `.config/gcloud`). */
  relative: string;
  reason: string;
}

/** Credentials kept in every home: SSH keys, cloud and cluster credentials, GnuPG keyring, netrc. */
export const PROTECTED_IN_HOME: readonly ProtectedEntry[] = [
  { relative: '.ssh', reason: 'SSH private keys and authorized_keys' },
  { relative: '.aws', reason: 'AWS credentials' },
  { relative: '.kube', reason: 'Kubernetes cluster credentials' },
  { relative: '.gnupg', reason: 'GnuPG private keyring' },
  { relative: '.netrc', reason: 'machine passwords (netrc)' },
  { relative: '.config/gcloud', reason: 'Google Cloud credentials' },
  { relative: '.azure', reason: 'Azure credentials' },
  { relative: '.config/doctl', reason: 'DigitalOcean token' },
  { relative: '.oci', reason: 'Oracle Cloud credentials' },
  { relative: '.docker/config.json', reason: 'container registry logins' },
  { relative: '.git-credentials', reason: 'git credentials in plain text' },
  { relative: '.config/git/credentials', reason: 'git credentials in plain text' },
  { relative: '.config/gh/hosts.yml', reason: 'GitHub CLI token' },
  { relative: '.config/hub', reason: 'GitHub token (hub)' },
  { relative: '.npmrc', reason: 'npm registry tokens' },
  { relative: '.pypirc', reason: 'Python package index tokens' },
  { relative: '.cargo/credentials.toml', reason: 'crates.io token' },
  { relative: '.cargo/credentials', reason: 'crates.io token' },
  { relative: '.gem/credentials', reason: 'RubyGems API key' },
  { relative: '.terraform.d/credentials.tfrc.json', reason: 'Terraform Cloud token' },
  { relative: '.vault-token', reason: 'HashiCorp Vault token' },
  { relative: '.pgpass', reason: 'PostgreSQL passwords' },
  { relative: '.my.cnf', reason: 'MySQL client passwords' },
  { relative: '.password-store', reason: 'password store (pass)' },
  { relative: '.local/share/keyrings', reason: 'desktop keyring (saved passwords)' },
  { relative: 'Library/Keychains', reason: 'macOS keychains (saved passwords)' },
  // Browser profiles: saved passwords and session cookies are logins to everything the user has open.
  { relative: '.mozilla/firefox', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/google-chrome', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/chromium', reason: 'browser profile (saved passwords, cookies)' },
  { relative: '.config/BraveSoftware', reason: 'browser profile (saved passwords, cookies)' },
  { relative: 'Library/Application Support/Google/Chrome', reason: 'browser profile (saved passwords, cookies)' },
  { relative: 'Library/Application Support/Firefox', reason: 'browser profile (saved passwords, cookies)' },
  // toolgate's default data directory, whichever data directory this sidecar uses: another toolgate (or the
  // CLI's default) keeps its reviewer token and its rules there.
  { relative: '.toolgate', reason: "toolgate's default data directory (database, audit log, reviewer token)" },
];

/** Secrets of the machine itself: password hashes and the SSH host keys. */
export const PROTECTED_ON_SYSTEM: readonly { path: string; reason: string }[] = [
  { path: '/etc/shadow', reason: 'password hashes' },
  { path: '/etc/gshadow', reason: 'group password hashes' },
  { path: '/etc/ssh/ssh_host_*_key', reason: 'SSH host private keys' },
];

/** Where other users' homes live: the agent may run as another user, so their credentials count too. */
export const OTHER_HOMES: readonly string[] = ['/root', '/home/*', '/Users/*'];

/** Reason shown for toolgate's own data directory. */
export const DATA_DIR_REASON = "toolgate's own data (its database, audit log and reviewer token)";
/** Reason shown for an operator-configured extra path. */
export const EXTRA_REASON = 'configured as protected by the operator';
