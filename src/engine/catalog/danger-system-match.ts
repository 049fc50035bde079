// The tests the machine entries (danger-system.ts) use: privilege, kill signals, reading logs and firewall rules,
// toolgate's own process and settings, and macOS's user and session commands.
import type { CommandView } from '../shell/view.ts';
import { operands, optionValue } from './flags.ts';
import { inlineCode } from './inline-code.ts';
import { importsToolgate, toolgateArgs, reviewerShapedArgs } from './toolgate-code.ts';

export const PRIVILEGE: ReadonlySet<string> = new Set([
  'sudo',
  'doas',
  'pkexec',
  'run0',
  'su',
  'sudoedit',
  'sg',
  'newgrp',
]);
export const KILL_SIGNALS = /^(-?(9|KILL|SIGKILL))$/i;
/** systemctl / service verbs that only read state. */
export const SERVICE_READS = new Set([
  'status',
  'show',
  'list-units',
  'list-unit-files',
  'list-timers',
  'list-sockets',
  'list-dependencies',
  'is-active',
  'is-enabled',
  'is-failed',
  'cat',
  'help',
  '--version',
  'list',
]);

/** kill's signal and pid operands, whatever the spelling (-9, -KILL, -s 9, -n 9, --signal KILL). */
export function killParse(args: string[]): { signal: string; targets: string[] } {
  let signal = 'TERM';
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      targets.push(...args.slice(i + 1));
      break;
    }
    if (a === '-s' || a === '-n' || a === '--signal') {
      signal = args[++i] ?? signal;
      continue;
    }
    if (a === '-l' || a === '-L' || a === '--list') return { signal: 'none', targets: [] };
    if (/^-[A-Za-z0-9]+$/.test(a) && !/^-\d+$/.test(a)) {
      signal = a.slice(1);
      continue;
    }
    if (/^-\d+$/.test(a) && targets.length === 0 && i === 0) {
      signal = a.slice(1);
      continue;
    }
    targets.push(a);
  }
  return { signal: signal.replace(/^SIG/i, '').toUpperCase(), targets };
}

export const isKill = (v: CommandView): boolean => v.program === 'kill';

/** `killall5` signals every process but the caller's session (SIGTERM unless told otherwise); `-0` only tests. */
export const killall5SignalsAll = (v: CommandView): boolean => v.program === 'killall5' && !v.args.includes('-0');

/** `pkill -0 node`, `killall -s 0 x`, `--signal=0`: signal 0 only tests that the process exists (pkill's `-s` is a session). */
export function onlyProbesProcess(v: CommandView): boolean {
  const signal = optionValue(v.args, v.program === 'killall' ? ['-s', '--signal'] : ['--signal']);
  return v.args.includes('-0') || signal?.replace(/^SIG/i, '') === '0';
}

/**
 * PowerShell stopping processes by name or by a filter: `Stop-Process -Name node`, `spps -n x`, `kill -Name x`,
 * `Get-Process dotnet | Stop-Process`, `gps | ? CPU -gt 90 | kill`, `(Get-Process node).Kill()`, `Stop-Process -Id
 * (Get-Process x).Id`; and cmd's `taskkill /IM node.exe` and `wmic process where name=… delete|call terminate`, in
 * PowerShell or cmd code. `Stop-Process -Id 4242` (one process, as `kill 4242`) and `-WhatIf` are not.
 */
const WINDOWS_KILL_BY_NAME = new RegExp(
  [
    String.raw`\b(?:Stop-Process|spps|kill)\b[^;\n|]*\s-(?:Name|ProcessName|n)\b`,
    String.raw`\b(?:Get-Process|gps|ps)\b[^;\n]*\|\s*(?:[^;\n|]*\|\s*)*(?:Stop-Process|spps|kill)\b`,
    String.raw`\b(?:Get-Process|gps)\b[^;\n]*(?:\)\s*\.\s*Kill\s*\(|\.\s*Kill\s*\(\s*\))`,
    String.raw`\b(?:Stop-Process|spps|kill)\b[^;\n]*\(\s*(?:Get-Process|gps|ps)\b`,
    String.raw`\btaskkill(?:\.exe)?\b[^;\n]*\s(?:\/{1,2}|-)(?:IM|FI)\b`,
    String.raw`\bwmic(?:\.exe)?\s+process\s+where\b[^;\n]*\b(?:delete|terminate)\b`,
  ].join('|'),
  'i',
);
const POWERSHELL_PROGRAM = /^(pwsh|powershell)(\.exe)?$/i;

/** `pwsh -c "Get-Process dotnet | Stop-Process -Force"`, `taskkill /F /IM node.exe`, `cmd /c "taskkill /IM x.exe"`. */
export function windowsKillsByName(v: CommandView): boolean {
  let code: string;
  if (POWERSHELL_PROGRAM.test(v.program)) {
    code = inlineCode(v)
      .map((c) => c.code)
      .join('\n');
    // Windows PowerShell runs its words as a command when no -File or -Command names them (pwsh reads a file).
    if (code === '' && /^powershell/i.test(v.program) && !v.args.some((a) => /^-(File|f)$/i.test(a)))
      code = v.args.filter((a) => !a.startsWith('-')).join(' ');
  } else if (/^(taskkill|wmic|cmd)(\.exe)?$/i.test(v.program)) code = v.argv.join(' ');
  else return false;
  return WINDOWS_KILL_BY_NAME.test(code) && !/\s-WhatIf\b/i.test(code);
}

/** Options of journalctl that change the journal (vacuum, rotate, flush) rather than read it. */
const JOURNAL_CHANGES =
  /^--(vacuum-(size|time|files)|rotate|flush|sync|relinquish-var|smart-relinquish-var|setup-keys|update-catalog)(=|$)/;
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
  ...['cat', 'tail', 'head', 'zcat', 'grep', 'zgrep', 'wc', 'ls', 'du'].map(
    (p) =>
      [
        p,
        (args: string[]) => {
          const paths = operands(args).filter((a) => a.includes('/'));
          return paths.length > 0 && paths.every((a) => LOG_PATH.test(a) && !/(^|\/)\.\.(\/|$)/.test(a));
        },
      ] as const,
  ),
]);

/** `sudo journalctl -u nginx`, `sudo dmesg -T`, `sudo tail -f /var/log/syslog`, `sudo systemctl status x`, `sudo ss -tlnp`: reading only. */
export function readsLogsOnly(v: CommandView): boolean {
  if (
    v.redirects.some((r) => r.write && r.target !== undefined && !/^\/dev\/(null|stdout|stderr)$/.test(r.target.value))
  )
    return false;
  return PRIVILEGED_READERS.get(v.program)?.(v.args) ?? false;
}

/** Listing the firewall only reads it (`iptables -L`, `ufw status`, `nft list ruleset`, `firewall-cmd --list-all`). */
export function firewallReadOnly(v: CommandView): boolean {
  const { program, args } = v;
  if (program === 'ufw') return args[0] === 'status' || args[0] === 'show' || args[0] === 'version';
  if (program === 'nft') return args.filter((a) => !a.startsWith('-'))[0] === 'list';
  if (program === 'firewall-cmd')
    return args.length > 0 && args.every((a) => /^--(list|get|query|state|zone=)/.test(a) || !a.startsWith('-'));
  if (program === 'ipfw') return /^(list|show|l|s)$/.test(args.filter((a) => !a.startsWith('-'))[0] ?? '');
  // macOS's application firewall: `--getglobalstate`, `--listapps`, … only read.
  if (program === 'socketfilterfw')
    return args.length > 0 && args.every((a) => /^--(get|list)/.test(a) || !a.startsWith('-'));
  if (/^(ip6?tables|iptables-legacy)$/.test(program)) {
    const lists = args.some((a) => /^-[a-zA-Z]*[LS][a-zA-Z]*$|^--list(-rules)?$|^-C$|^--check$/.test(a));
    const mutates = args.some((a) =>
      /^-[ADIRFPXNZE]$|^--(append|delete|insert|replace|flush|policy|delete-chain|new-chain|zero|rename-chain)$/.test(
        a,
      ),
    );
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
export function runsToolgateAsReviewer(v: CommandView): boolean {
  if (importsToolgate(v)) return true;
  const args = toolgateArgs(v);
  if (args === undefined) return reviewerShapedArgs(v.args);
  if (args.includes('--help') || args.includes('-h')) return false;
  // Options may come before the subcommand with a value of their own (`rules --data-dir d add …`): any word counts.
  const words = args.filter((a) => !a.startsWith('-'));
  const command = words[0];
  return (
    command === 'review' ||
    (command === 'approvals' && words.includes('resolve')) ||
    (command === 'rules' && words.some((w) => /^(add|rm|remove|import)$/.test(w)))
  );
}

/** Programs that stop, kill or remove a process, a service or a container. */
export const STOPPERS = new Set([
  'kill',
  'pkill',
  'killall',
  'fuser',
  'systemctl',
  'service',
  'launchctl',
  'docker',
  'podman',
  'pm2',
  'supervisorctl',
]);
/** The verbs of the service and container managers among STOPPERS that stop what they name. */
const STOP_VERBS = /^(stop|kill|disable|mask|rm|remove|delete|unload|bootout|restart|down)$/;

/**
 * A command that stops toolgate itself (`pkill -f toolgate`, `kill $(pgrep -f toolgate)`, `systemctl --user stop
 * toolgate`, `docker stop toolgate`): an HTTP hook whose sidecar does not answer lets the agent's call run.
 */
export function stopsToolgate(v: CommandView): boolean {
  if (!STOPPERS.has(v.program) || !/toolgate/i.test(v.text)) return false;
  if (v.program === 'kill' || v.program === 'pkill' || v.program === 'killall' || v.program === 'fuser') return true;
  return v.args.some((a) => STOP_VERBS.test(a));
}

/** A command that expands the reviewer token toolgate's CLI and API accept (`$TOOLGATE_REVIEWER_TOKEN`). */
export const usesReviewerToken = (v: CommandView): boolean => v.text.includes('TOOLGATE_REVIEWER_TOKEN');

/**
 * `mount`, `timedatectl`, `hostnamectl` with nothing to change print the current settings; `update-alternatives
 * --list|--display|--query`, `passwd -S` and `swapon --show` only read.
 */
export function onlyShowsSettings(v: CommandView): boolean {
  const ops = v.args.filter((a) => !a.startsWith('-'));
  switch (v.program) {
    // `mount`, `mount -l`, `mount -t ext4`: lists what is mounted (a type given to -t is not a device).
    case 'mount':
      return v.args.every(
        (a, i) => /^(-l|-t|--types|-v|--verbose|--show-labels)$/.test(a) || /^(-t|--types)$/.test(v.args[i - 1] ?? ''),
      );
    case 'timedatectl':
    case 'hostnamectl':
      return ops.length === 0 || /^(status|show|list-timezones|timesync-status|show-timesync)$/.test(ops[0]!);
    case 'update-alternatives':
      return v.args.some((a) => /^--(list|display|query|get-selections)$/.test(a));
    case 'passwd':
      return v.args.some((a) => a === '-S' || a === '--status');
    case 'swapon':
      return v.args.some((a) => a === '--show' || a === '-s' || a === '--summary');
    default:
      return false;
  }
}

/** `dscl . -create /Users/toor UniqueID 0` (also `-append`, `-change … UniqueID 501 0`): macOS's way to give an account uid 0. */
export function dsclGivesUidZero(v: CommandView): boolean {
  if (v.program !== 'dscl' || !v.args.some((a) => /^-(create|append|merge|change)$/.test(a))) return false;
  const key = v.args.findIndex((a) => /^UniqueID$/i.test(a));
  return key >= 0 && key < v.args.length - 1 && /^0+$/.test(v.args.at(-1)!);
}

/** AppleScript asking System Events, Finder or loginwindow to restart, shut down or log out (also as raw `«event aevtrrst»` codes). */
export function applescriptLeavesSession(args: string[]): boolean {
  const script = args.join(' ');
  return (
    /"(System Events|Finder|loginwindow)"/i.test(script) &&
    /\b(restart|shut\s*down|log\s*out|aevt(rrst|rsdn|rlgo))\b/i.test(script)
  );
}

/** `ps` options that list every process (`-e`, `-A`, `aux`, `ax`, `-ef`). */
const PS_ALL = /\bps\s+(?:[^|;)`]*\s)?(?:-[a-zA-Z]*[eA][a-zA-Z]*|a?uxw*|axw*|-?aux|-?ax)(?=[\s|;)`]|$)/;
/** Anything that narrows a process list: a grep, an awk pattern or test, ps's selection by name/user/pid/tty. */
const PS_NARROWED =
  /\b(?:e?grep|rg)\b|awk\s+(?:-\S+\s+)*['"][^'"]*(?:\/[^/]+\/|[=!]=|~)|\s-(?:C|u|U|p|G|g|t|s|q)\b|--(?:pid|ppid|user|pid|sid|tty)\b|\bhead\b|\btail\b/;
/** `pgrep` with a pattern every process matches (`.`, `.*`, `''`, `^`). */
const PGREP_ALL = /\bpgrep\s+(?:-\S+\s+)*(?:'\.\*?'|"\.\*?"|\.\*?|''|""|'\^'|"\^"|\^)(?=[\s)`]|$)/;

/**
 * `kill $(ps -e -o pid=)`, `kill -9 $(ps aux | awk '{print $2}')`, `kill $(pgrep .)`: the targets are a substituted
 * list of every process. A list narrowed by name, user, port or grep (`kill -9 $(lsof -t -i:3000)`,
 * `kill $(ps aux | grep node | awk '{print $2}')`) is judged as any kill.
 */
export function killsListedEveryProcess(v: CommandView): boolean {
  if (!isKill(v) || killParse(v.args).signal === '0') return false;
  const subs = [...v.text.matchAll(/\$\(([^]*)\)|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? '');
  return subs.some((s) => (PS_ALL.test(s) && !PS_NARROWED.test(s)) || PGREP_ALL.test(s));
}
