// Families of programs the analyzer reasons about: shells, interpreters, downloaders, decoders.

/** Shells: they run code from `-c`, a script file, or stdin. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'ash', 'csh', 'tcsh', 'busybox-sh', 'rbash', 'yash', 'oksh', 'loksh', 'posh', 'ksh93', 'pdksh',
  // Other shells whose simple commands read like bash's (`nu -c 'rm -rf ~'`): judged as if they were.
  'nu', 'xonsh', 'elvish', 'oil', 'osh', 'ysh']);

/** Language interpreters with inline code flags (`-c` / `-e`) and a stdin script. */
export const INTERPRETERS: Record<string, { inline: string[]; stdinAlternatives: string[] }> = {
  python: { inline: ['-c'], stdinAlternatives: ['-m'] },
  python2: { inline: ['-c'], stdinAlternatives: ['-m'] },
  python3: { inline: ['-c'], stdinAlternatives: ['-m'] },
  pypy: { inline: ['-c'], stdinAlternatives: ['-m'] },
  pypy3: { inline: ['-c'], stdinAlternatives: ['-m'] },
  perl: { inline: ['-e', '-E'], stdinAlternatives: [] },
  ruby: { inline: ['-e'], stdinAlternatives: [] },
  node: { inline: ['-e', '--eval', '-p', '--print'], stdinAlternatives: [] },
  nodejs: { inline: ['-e', '--eval', '-p', '--print'], stdinAlternatives: [] },
  deno: { inline: ['eval'], stdinAlternatives: [] },
  bun: { inline: ['-e', '--eval'], stdinAlternatives: [] },
  php: { inline: ['-r'], stdinAlternatives: [] },
  lua: { inline: ['-e'], stdinAlternatives: [] },
  Rscript: { inline: ['-e'], stdinAlternatives: [] },
  osascript: { inline: ['-e'], stdinAlternatives: [] },
  pwsh: { inline: ['-c', '-Command', '-command'], stdinAlternatives: [] },
  powershell: { inline: ['-c', '-Command', '-command'], stdinAlternatives: [] },
  'powershell.exe': { inline: ['-c', '-Command', '-command'], stdinAlternatives: [] },
  'pwsh.exe': { inline: ['-c', '-Command', '-command'], stdinAlternatives: [] },
  'ts-node': { inline: ['-e', '--eval', '-p', '--print'], stdinAlternatives: [] },
  tsx: { inline: ['-e', '--eval', '-p', '--print'], stdinAlternatives: [] },
  // Tcl: `exec prog args` runs a program; tclsh and wish read code from a file or stdin, expect also from -c.
  tclsh: { inline: [], stdinAlternatives: [] },
  wish: { inline: [], stdinAlternatives: [] },
  expect: { inline: ['-c'], stdinAlternatives: [] },
  // More interpreters with inline code: what they run through system()/os.execute() is found the same way.
  R: { inline: ['-e'], stdinAlternatives: [] },
  luajit: { inline: ['-e'], stdinAlternatives: [] },
  texlua: { inline: ['-e'], stdinAlternatives: [] },
  julia: { inline: ['-e', '--eval', '-E', '--print'], stdinAlternatives: [] },
  octave: { inline: ['--eval'], stdinAlternatives: [] },
  groovy: { inline: ['-e'], stdinAlternatives: [] },
  elixir: { inline: ['-e', '--eval'], stdinAlternatives: [] },
  racket: { inline: ['-e', '--eval'], stdinAlternatives: [] },
  guile: { inline: ['-c'], stdinAlternatives: [] },
  bb: { inline: ['-e', '--eval'], stdinAlternatives: [] },
  gnuplot: { inline: ['-e'], stdinAlternatives: [] },
  goawk: { inline: [], stdinAlternatives: [] },
  emacs: { inline: ['--eval', '-eval'], stdinAlternatives: [] },
  irb: { inline: [], stdinAlternatives: [] },
  ipython: { inline: ['-c'], stdinAlternatives: ['-m'] },
  ipython3: { inline: ['-c'], stdinAlternatives: ['-m'] },
};

/** Programs that fetch from the network. */
export const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'lwp-request', 'GET', 'nc', 'ncat', 'socat', 'ftp', 'tftp', 'scp', 'rsync', 'invoke-webrequest', 'iwr']);

/** Programs that decode or unscramble text: their output piped into a shell is a hidden payload. */
export const DECODERS = new Set(['base64', 'base32', 'xxd', 'rev', 'openssl', 'gpg', 'uudecode', 'gunzip', 'zcat', 'gzip', 'bzip2', 'xz', 'tr']);

/** Programs that only print their arguments: their arguments are data, never paths or commands. */
export const PRINTERS = new Set(['echo', 'printf', ':', 'true', 'false', 'type', 'which', 'whence', 'hash', 'help', 'whatis', 'apropos', 'man', 'info']);

/** Programs whose output is shell set-up code meant for `eval` (`eval "$(ssh-agent -s)"`): not hidden code. */
export const ENV_SETUP = new Set(['ssh-agent', 'pyenv', 'rbenv', 'nodenv', 'goenv', 'jenv', 'direnv', 'conda', 'brew', 'starship', 'zoxide', 'fnm', 'mise', 'rtx', 'opam', 'luarocks', 'dircolors', 'keychain', 'gpg-agent', 'thefuck', 'register-python-argcomplete', 'atuin', 'asdf', 'minikube', 'docker-machine']);

/** Programs that run code given inline or on stdin: shells, interpreters, awk, and the shell's own runners. */
export const CODE_RUNNERS = [...SHELLS, ...Object.keys(INTERPRETERS), 'awk', 'gawk', 'mawk', 'nawk', 'busybox-awk', 'source', '.', 'eval'];

/** A program's name without its version suffix (`python3.12` → `python`, `pip3` → `pip`): the tables list bare names. */
export function unversioned(program: string): string {
  return program.replace(/[\d.]+$/, '');
}

/** The interpreter a program is, by its own name or its unversioned one (`python3.12`, `php8`). */
export function interpreterOf(program: string): (typeof INTERPRETERS)[string] | undefined {
  return INTERPRETERS[program] ?? INTERPRETERS[unversioned(program)];
}

/** Every program name the catalogue knows: a glob in a command name (`/usr/bin/s?do`) is matched against it. */
export const KNOWN_PROGRAMS = [
  'rm', 'rmdir', 'shred', 'unlink', 'dd', 'mkfs', 'wipefs', 'fdisk', 'sfdisk', 'parted', 'mkswap', 'chmod', 'chown', 'chgrp',
  'sudo', 'doas', 'su', 'pkexec', 'kill', 'pkill', 'killall', 'iptables', 'ip6tables', 'nft', 'ufw', 'systemctl',
  'service', 'launchctl', 'reboot', 'shutdown', 'halt', 'poweroff', 'init', 'git', 'find', 'xargs', 'crontab', 'terraform',
  'kubectl', 'docker', 'aws', 'gcloud', 'psql', 'mysql', 'curl', 'wget', 'mv', 'cp', 'tee', 'truncate', 'env', 'eval',
  ...SHELLS, ...Object.keys(INTERPRETERS),
];
