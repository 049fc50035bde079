// Places whose modification is dangerous whatever the command: devices, system directories, homes, profiles.

/** Device files that are safe to write (sinks and the terminal). */
const SAFE_DEVICES = [/^\/dev\/(null|zero|stdout|stderr|stdin|tty|full|random|urandom)$/, /^\/dev\/fd\/\d+$/, /^\/dev\/pts\/\d+$/];

/** System directories: writing, moving or deleting in them breaks the machine or needs privilege. */
const SYSTEM_DIRS = ['/etc', '/boot', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/sys', '/proc', '/var/lib', '/var/spool/cron', '/System', '/Library', '/private/etc', '/opt'];

/** Shell start-up files (relative to a home): a line written there runs in every future shell. */
const SHELL_PROFILES = ['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zprofile', '.zshenv', '.zlogin', '.kshrc', '.cshrc', '.tcshrc', '.config/fish/config.fish', '.inputrc'];
const SYSTEM_PROFILES = ['/etc/profile', '/etc/bash.bashrc', '/etc/bashrc', '/etc/zshrc', '/etc/zsh/zshrc', '/etc/environment'];

/** Collapses `//`, `/./`, `..` and a trailing slash of an absolute path; relative paths come back unchanged. */
export function normalizeAbsolute(path: string): string {
  if (!path.startsWith('/')) return path;
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return '/' + out.join('/');
}

/** A device other than the safe sinks (`/dev/sda`, `/dev/nvme0n1`, `/dev/tcp/…`). */
export function isDangerousDevice(path: string): boolean {
  const p = normalizeAbsolute(path);
  return p.startsWith('/dev/') && !SAFE_DEVICES.some((re) => re.test(p));
}

/** Inside (or equal to) a system directory. */
export function isSystemPath(path: string): boolean {
  const p = normalizeAbsolute(path);
  return SYSTEM_DIRS.some((d) => p === d || p.startsWith(d + '/'));
}

/** `/`, a home directory itself, or the directory holding homes — including `/*` style globs of them. */
export function isRootOrHome(path: string, home: string): boolean {
  const p = normalizeAbsolute(path.replace(/\/\*$/, '') || '/');
  if (p === '/' || p === normalizeAbsolute(home) || p === '/home' || p === '/Users' || p === '/root') return true;
  if (/^\/(home|Users)\/[^/]+$/.test(p)) return true;
  return SYSTEM_DIRS.includes(p) || p === '/var' || p === '/srv' || p === '/mnt' || p === '/media';
}

/** A shell start-up file of any home, or a system-wide one. */
export function isShellProfile(path: string, home: string): boolean {
  const p = normalizeAbsolute(path);
  if (SYSTEM_PROFILES.includes(p)) return true;
  const homes = [normalizeAbsolute(home), '/root'];
  const m = /^\/(?:home|Users)\/[^/]+/.exec(p);
  if (m) homes.push(m[0]);
  return homes.some((h) => SHELL_PROFILES.some((f) => p === `${h}/${f}`));
}

/** Git's own configuration and hooks: writing them makes the next git command run arbitrary code. */
export function isGitInternal(path: string): boolean {
  return /(^|\/)\.git\/(config|hooks(\/|$))/.test(path);
}

/** Kernel control files (`/proc/sysrq-trigger`, `/proc/sys/…`, `/sys/…`). */
export function isKernelControl(path: string): boolean {
  const p = normalizeAbsolute(path);
  return p === '/proc/sysrq-trigger' || p.startsWith('/proc/sys/') || p.startsWith('/sys/');
}
