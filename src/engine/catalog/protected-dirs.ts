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
  // toolgate's default data directory, whichever data directory this sidecar uses: another toolgate (or the
  // CLI's default) keeps its reviewer token and its rules there.
  { relative: '.toolgate', reason: "toolgate's default data directory (database, audit log, reviewer token)" },
];

/** Where other users' homes live: the agent may run as another user, so their credentials count too. */
export const OTHER_HOMES: readonly string[] = ['/root', '/home/*', '/Users/*'];

/** Reason shown for toolgate's own data directory. */
export const DATA_DIR_REASON = "toolgate's own data (its database, audit log and reviewer token)";
/** Reason shown for an operator-configured extra path. */
export const EXTRA_REASON = 'configured as protected by the operator';
