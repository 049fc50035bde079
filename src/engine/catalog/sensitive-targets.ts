// Places whose modification is dangerous whatever the command: devices, system directories, homes, profiles.

/** Device files that are safe to write (sinks and the terminal). */
const SAFE_DEVICES = [
  /^\/dev\/(null|zero|stdout|stderr|stdin|tty|full|random|urandom)$/,
  /^\/dev\/fd\/\d+$/,
  /^\/dev\/pts\/\d+$/,
];

/** System directories: writing, moving or deleting in them breaks the machine or needs privilege. */
const SYSTEM_DIRS = [
  '/etc',
  '/boot',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/sys',
  '/proc',
  '/var/lib',
  '/var/log',
  '/var/spool/cron',
  '/System',
  '/Library',
  '/private/etc',
  '/opt',
];
/** The same with a trailing slash (built once: the checks run on every path a command writes or deletes). */
const SYSTEM_DIR_PREFIXES = SYSTEM_DIRS.map((d) => d + '/');

/** Shell start-up files (relative to a home): a line written there runs in every future shell. */
const SHELL_PROFILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.kshrc',
  '.cshrc',
  '.tcshrc',
  '.config/fish/config.fish',
  '.inputrc',
  '.mkshrc',
  '.xprofile',
  '.xsessionrc',
  '.xinitrc',
  '.tmux.conf',
  '.config/tmux/tmux.conf',
  '.vimrc',
  '.config/nvim/init.vim',
  '.config/nvim/init.lua',
];
/** Directories whose files a shell (or the editor, the multiplexer) reads at start-up. */
const PROFILE_DIRS = [
  '.bashrc.d/',
  '.zshrc.d/',
  '.config/fish/conf.d/',
  '.config/fish/functions/',
  '.oh-my-zsh/custom/',
  '.config/powershell/',
  '.config/environment.d/',
  '.config/plasma-workspace/env/',
];
const SYSTEM_PROFILES = [
  '/etc/profile',
  '/etc/bash.bashrc',
  '/etc/bashrc',
  '/etc/zshrc',
  '/etc/zsh/zshrc',
  '/etc/environment',
];

/** An empty, `.` or `..` segment, or a trailing slash: what normalizeAbsolute has to rewrite (most paths have none). */
const NOT_NORMAL = /\/(?:\.{1,2})?(?:\/|$)/;

/** Collapses `//`, `/./`, `..` and a trailing slash of an absolute path; relative paths come back unchanged. */
export function normalizeAbsolute(path: string): string {
  if (!path.startsWith('/') || !NOT_NORMAL.test(path)) return path;
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
  for (let i = 0; i < SYSTEM_DIRS.length; i++)
    if (p === SYSTEM_DIRS[i] || p.startsWith(SYSTEM_DIR_PREFIXES[i]!)) return true;
  return false;
}

/** `/`, a home directory itself, or the directory holding homes — including `/*` style globs of them. */
export function isRootOrHome(path: string, home: string): boolean {
  const p = normalizeAbsolute(path.replace(/\/\*$/, '') || '/');
  if (p === '/' || p === normalizeAbsolute(home) || p === '/home' || p === '/Users' || p === '/root') return true;
  if (/^\/(home|Users)\/[^/]+$/.test(p)) return true;
  return SYSTEM_DIRS.includes(p) || p === '/var' || p === '/srv' || p === '/mnt' || p === '/media';
}

/** Shell and REPL history files: the record of what ran on this machine. */
const HISTORY_FILE =
  /\/\.(bash_history|zsh_history|zhistory|history|sh_history|ksh_history|python_history|node_repl_history|psql_history|mysql_history|sqlite_history|lesshst)$|\/fish\/fish_history$/;

/** A shell or REPL history file (`~/.bash_history`, `~/.zsh_history`, fish's `fish_history`, …). */
export function isHistoryFile(path: string): boolean {
  return HISTORY_FILE.test(path);
}

/** A shell start-up file of any home, or a system-wide one. */
export function isShellProfile(path: string, home: string): boolean {
  const p = normalizeAbsolute(path);
  if (SYSTEM_PROFILES.includes(p)) return true;
  const homes = [normalizeAbsolute(home), '/root'];
  const m = /^\/(?:home|Users)\/[^/]+/.exec(p);
  if (m) homes.push(m[0]);
  return homes.some((h) => {
    if (!p.startsWith(h + '/')) return false;
    const relative = p.slice(h.length + 1);
    return (
      SHELL_PROFILES.includes(relative) ||
      PROFILE_DIRS.some((d) => relative.startsWith(d) && relative.length > d.length)
    );
  });
}

/**
 * Git's own configuration and hooks — a repository's `.git/config` and `.git/hooks/`, and the user's global
 * `~/.gitconfig` or `~/.config/git/config`: writing them makes the next git command run arbitrary code
 * (`core.sshCommand`, `core.fsmonitor`, `core.hooksPath`, an alias with `!`).
 */
export function isGitInternal(path: string): boolean {
  return /(^|\/)\.git\/(config|hooks(\/|$))|(^|\/)\.gitconfig$|(^|\/)\.config\/git\/config$/.test(path);
}

/**
 * An AI agent's own settings, where its hooks and permissions live: Claude Code's `.claude/settings.json` and
 * `settings.local.json`, Codex's `.codex/config.toml`, Gemini CLI's `.gemini/settings.json`, Cursor's
 * `.cursor/hooks.json` (in a home or a project). The hook that sends the agent's calls to toolgate is one of their
 * lines: an agent that writes them can switch its own checks off.
 */
export function isAgentSettings(path: string): boolean {
  return /(^|\/)(\.claude\/settings(\.local)?\.json|\.codex\/config\.toml|\.gemini\/settings\.json|\.cursor\/hooks\.json)$/.test(
    path,
  );
}

/**
 * Files that run something at login, at boot or on a timer without a shell reading them: systemd user units,
 * XDG autostart entries, macOS LaunchAgents, a user's crontab spool, Python's `.pth` start-up hooks.
 */
export function isAutostart(path: string): boolean {
  // The directory itself too: `cp x.service ~/.config/systemd/user/` writes into it.
  return (
    /(^|\/)(\.config\/systemd\/user|\.config\/autostart|Library\/LaunchAgents)(\/|$)|^\/var\/spool\/cron\//.test(
      path,
    ) ||
    // A `.pth` file (or sitecustomize.py) in site-packages runs at every Python start.
    /\/site-packages\/([^/]+\.pth|sitecustomize\.py|usercustomize\.py)$/.test(path)
  );
}

/** Kernel control files (`/proc/sysrq-trigger`, `/proc/sys/…`, `/sys/…`). */
export function isKernelControl(path: string): boolean {
  const p = normalizeAbsolute(path);
  return p === '/proc/sysrq-trigger' || p.startsWith('/proc/sys/') || p.startsWith('/sys/');
}
