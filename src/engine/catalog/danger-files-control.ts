// Danger catalogue, files that decide what runs and who may change it: shell start-up files, agent settings, autostart
// entries, git hooks, permissions and owners, and the shell history that records what ran.
import type { DangerEntry } from './danger-entry.ts';
import { rmDeletes } from './delete-targets.ts';
import { hasFlag, operands } from './flags.ts';
import {
  chmodMode,
  findExecChmod,
  installMakesExecutable,
  installMode,
  isSystemOrRoot,
  RECURSIVE,
  stopsHistory,
  targetsAfterFirst,
} from './danger-files-match.ts';
import {
  isAgentSettings,
  isAutostart,
  isGitInternal,
  isHistoryFile,
  isRootOrHome,
  isShellProfile,
  isSystemPath,
} from './sensitive-targets.ts';

/** Listed in FILE_DANGERS (danger-files.ts) after the deletes, disks, devices and overwrites. */
export const FILE_CONTROL_DANGERS: DangerEntry[] = [
  {
    id: 'shell-profile-write',
    risk: 'high',
    reason: 'writes a shell start-up file: the line runs in every future shell',
    examples: ['echo \'alias cd="rm -r"\' >> ~/.bashrc', 'cp evil ~/.zshrc', 'tee -a ~/.profile < x'],
    written: isShellProfile,
    match: (v) =>
      v.program === 'sed' && hasFlag(v.args, 'i', ['--in-place']) && v.args.some((p) => isShellProfile(p, v.home)),
  },
  {
    id: 'agent-settings-write',
    risk: 'high',
    reason:
      "writes an AI agent's own settings (hooks, permissions): a line there can switch off the checks on the agent's calls",
    examples: [
      "echo '{}' > .claude/settings.json",
      'cp x ~/.codex/config.toml',
      "sed -i '/toolgate/d' ~/.gemini/settings.json",
      'tee .claude/settings.local.json < new.json',
      // Into the directory, under the source's name, or a whole tree landing there (copy-targets.ts).
      'cp x/settings.json .claude/',
      'cp -t .claude x/settings.json',
      'rsync -a d/ .claude/',
      'tar xf x -C .claude',
      'mv /tmp/dotclaude .claude',
      'cp ../config.toml ~/.codex/',
    ],
    written: (p) => isAgentSettings(p),
  },
  {
    id: 'autostart-write',
    risk: 'high',
    reason:
      'writes a file that runs a program at login or on a timer (systemd user unit, XDG autostart, LaunchAgent, cron spool, a Python .pth or sitecustomize.py in site-packages)',
    examples: [
      'cp evil.service ~/.config/systemd/user/',
      'echo "Exec=sh x" > ~/.config/autostart/x.desktop',
      'cp x.plist ~/Library/LaunchAgents/',
    ],
    written: (p) => isAutostart(p),
    writtenExcept: ['mkdir'], // an empty directory runs nothing
  },
  {
    id: 'git-internals-write',
    risk: 'high',
    reason: 'writes .git/config or a git hook: the next git command runs what it says',
    examples: [
      'echo x >.git/config',
      'cp payload .git/hooks/pre-commit',
      "echo '[core] fsmonitor = x' >> ~/.gitconfig",
    ],
    written: (p) => isGitInternal(p),
  },
  {
    id: 'chmod-recursive-world-writable',
    risk: 'high',
    reason: 'recursive chmod that makes a tree world-writable (chmod -R 777)',
    programs: ['chmod', 'find'],
    examples: [
      'chmod -R 777 /var/www',
      'chmod -R 0777 /var/www',
      'chmod 777 -R .',
      'chmod --recursive a+rwx .',
      'find . -type f -exec chmod 777 {} +',
    ],
    // `find . -exec chmod 777 {} +` changes every file below, as -R does.
    match: (v) =>
      (v.program === 'chmod' && hasFlag(v.args, 'R', RECURSIVE) && chmodMode(v.args)?.worldWritable === true) ||
      (v.program === 'find' && findExecChmod(v.args)?.worldWritable === true),
  },
  {
    id: 'chmod-recursive-system',
    risk: 'high',
    reason: 'recursive permission change on /, a home or a system directory',
    programs: ['chmod', 'setfacl', 'chgrp'],
    examples: ['chmod -R 755 /etc', 'chmod -R g-w ~', 'setfacl -R -m u:app:rwx /etc'],
    match: (v) =>
      (v.program === 'chmod' || v.program === 'setfacl' || v.program === 'chgrp') &&
      hasFlag(v.args, 'R', RECURSIVE) &&
      v.args.some((p) => isRootOrHome(p, v.home) || isSystemPath(p)),
  },
  {
    id: 'permissions-system-path',
    risk: 'high',
    reason: 'changes the permissions, owner or attributes of a system file (chmod, chown, chattr, setfacl)',
    hostOnly: true,
    programs: ['chmod', 'chown', 'chgrp', 'setfacl', 'chattr'],
    examples: [
      'chmod 000 /etc/shadow',
      'chown me /etc/sudoers',
      'chattr +i /etc/resolv.conf',
      'chmod o+w /usr/local/bin/node',
    ],
    match: (v) =>
      /^(chmod|chown|chgrp|setfacl|chattr)$/.test(v.program) &&
      v.args.some((p) => p.startsWith('/') && isSystemOrRoot(p)),
  },
  {
    id: 'history-wipe',
    risk: 'medium',
    reason: 'erases or stops shell history (the record of what ran here)',
    examples: [
      'history -c',
      'rm -f ~/.zsh_history',
      'cat /dev/null > ~/.bash_history',
      'set +o history',
      'ln -sf /dev/null ~/.bash_history',
      'unset HISTFILE',
      'export HISTFILE=/dev/null',
      'HISTSIZE=0',
      'export HISTFILESIZE=0 SAVEHIST=0',
      "HISTIGNORE='*'",
    ],
    match: (v) =>
      (v.program === 'history' && hasFlag(v.args, 'c', [])) ||
      (v.program === 'set' && v.args.some((a, i) => a === '+o' && v.args[i + 1] === 'history')) ||
      ((v.program === 'rm' || v.program === 'unlink') && operands(v.args).some(isHistoryFile)),
    written: (p) => isHistoryFile(p),
    assigned: stopsHistory,
  },
  {
    id: 'chmod-recursive',
    risk: 'medium',
    reason: 'recursive permission change',
    programs: ['chmod', 'setfacl'],
    examples: ['chmod -R u+w src', 'setfacl -R -m u:app:rwx data'],
    match: (v) => (v.program === 'chmod' || v.program === 'setfacl') && hasFlag(v.args, 'R', RECURSIVE),
  },
  {
    id: 'chmod-setuid',
    risk: 'high',
    reason:
      "sets the setuid/setgid bit or file capabilities: the program then runs with its owner's (or root's) rights",
    programs: ['chmod', 'install', 'setcap'],
    examples: [
      'chmod u+s /usr/bin/find',
      'chmod 4755 ./tool',
      'chmod g+s bin/x',
      'chmod 04777 x',
      'install -m 4755 x ./y',
      'setcap cap_setuid+ep /usr/bin/python3',
    ],
    // File capabilities (`setcap cap_setuid+ep`) give a program root's powers the same way.
    match: (v) =>
      (v.program === 'chmod' && chmodMode(v.args)?.setid === true) ||
      (v.program === 'install' && installMode(v.args)?.setid === true) ||
      (v.program === 'setcap' && v.args.some((a) => /[+=][a-z]*[ep]/i.test(a)) && !v.args.includes('-r')),
  },
  {
    id: 'chmod-world-writable',
    risk: 'medium',
    reason: 'chmod 777: everyone may modify the file',
    programs: ['chmod'],
    examples: ['chmod 777 file', 'chmod 0666 data.db', 'chmod o+w config'],
    match: (v) => v.program === 'chmod' && chmodMode(v.args)?.worldWritable === true,
  },
  {
    id: 'chmod-executable',
    risk: 'medium',
    reason: 'makes a file executable (chmod +x, install -m 755): it can then be run',
    programs: ['chmod', 'install'],
    examples: [
      'chmod +x ./deploy.sh',
      'chmod a+x ~/bin/*',
      'chmod 755 file',
      'chmod u+x run',
      'install -m 755 build/app ~/bin/app',
    ],
    match: (v) =>
      (v.program === 'chmod' && chmodMode(v.args)?.exec === true) ||
      (v.program === 'install' && installMakesExecutable(v.args)),
    // `chmod +x scripts/build.sh` in the project is everyday work: only a file outside it is asked about.
    inProject: (v) =>
      v.program === 'chmod' && !hasFlag(v.args, 'R', RECURSIVE)
        ? rmDeletes({ ...v, args: targetsAfterFirst(v.args) })
        : undefined,
  },
  {
    id: 'chown-recursive',
    risk: 'high',
    reason: 'recursive ownership change (chown -R)',
    programs: ['chown', 'chgrp'],
    examples: ['chown -R 1000 /', 'chown --recursive www-data: /var/www', 'chown -hR me .'],
    match: (v) => (v.program === 'chown' || v.program === 'chgrp') && hasFlag(v.args, 'R', RECURSIVE),
  },
  {
    id: 'chown',
    risk: 'medium',
    reason: 'changes the owner of a file',
    programs: ['chown', 'chgrp'],
    examples: ['chown root file', 'chgrp wheel ./tool'],
    match: (v) => (v.program === 'chown' || v.program === 'chgrp') && targetsAfterFirst(v.args).length > 0,
  },
];
