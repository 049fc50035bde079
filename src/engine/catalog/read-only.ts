// Read-only programs and subcommands, for `read_only` mode: a command is read-only only if this table says so.
import type { CommandView } from '../shell/view.ts';
import { redirectWrites } from '../shell/view.ts';
import { subcommands } from './flags.ts';

/** Programs that never modify anything (given no output redirection). */
export const READ_ONLY_PROGRAMS = new Set([
  'ls',
  'll',
  'dir',
  'cat',
  'tac',
  'head',
  'tail',
  'less',
  'more',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'wc',
  'sort',
  'uniq',
  'cut',
  'tr',
  'diff',
  'cmp',
  'comm',
  'file',
  'stat',
  'du',
  'df',
  'which',
  'whereis',
  'type',
  'echo',
  'printf',
  'pwd',
  'whoami',
  'id',
  'date',
  'uname',
  'hostname',
  'printenv',
  'tree',
  'jq',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'shasum',
  'cksum',
  'base64',
  'xxd',
  'hexdump',
  'od',
  'strings',
  'nl',
  'rev',
  'column',
  'fold',
  'fmt',
  'true',
  'false',
  'test',
  '[',
  '[[',
  'seq',
  'sleep',
  'ps',
  'pgrep',
  'uptime',
  'free',
  'lsof',
  'netstat',
  'ss',
  'dig',
  'nslookup',
  'host',
  'man',
  'help',
  'info',
  'whatis',
  'apropos',
  'cd',
  'pushd',
  'popd',
  'env',
  'locale',
  'groups',
  'users',
  'who',
  'w',
  'last',
  'lsblk',
  'lscpu',
  'nproc',
  'getconf',
  'arch',
  'tty',
  'expr',
  'bc',
  'yes',
  'paste',
  'join',
  'expand',
  'unexpand',
  'look',
  'zcat',
  'zgrep',
  'bzcat',
  'xzcat',
  'find',
  'fd',
  'locate',
  'tldr',
  'cal',
  'vmstat',
  'iostat',
  'top',
  'htop',
  'export',
  'set',
  'read',
  'command',
  'hash',
  'history',
  'shellcheck',
  'diffstat',
  'numfmt',
  'sum',
  'ping',
  'traceroute',
]);

/** Multi-command CLIs: the subcommands that only read. */
const READ_ONLY_SUBCOMMANDS: Record<string, { globalWithArg: string[]; subs: Set<string> }> = {
  git: {
    globalWithArg: ['-C', '-c', '--git-dir', '--work-tree'],
    subs: new Set([
      'status',
      'log',
      'diff',
      'show',
      'blame',
      'grep',
      'ls-files',
      'ls-tree',
      'ls-remote',
      'rev-parse',
      'rev-list',
      'describe',
      'shortlog',
      'reflog',
      'cat-file',
      'whatchanged',
      'name-rev',
      'merge-base',
      'show-ref',
      'for-each-ref',
      'count-objects',
      'fsck',
      'version',
      'help',
      'branch',
      'tag',
      'remote',
      'config',
      'stash',
    ]),
  },
  npm: {
    globalWithArg: [],
    subs: new Set([
      'ls',
      'list',
      'view',
      'info',
      'outdated',
      'audit',
      'explain',
      'why',
      'search',
      'help',
      'config',
      'root',
      'bin',
      'prefix',
      'whoami',
      'version',
      '-v',
      '--version',
    ]),
  },
  pnpm: { globalWithArg: [], subs: new Set(['ls', 'list', 'outdated', 'why', 'audit']) },
  yarn: { globalWithArg: [], subs: new Set(['list', 'info', 'why', 'outdated']) },
  docker: {
    globalWithArg: ['-H', '--host', '--context', '-c'],
    subs: new Set([
      'ps',
      'images',
      'inspect',
      'logs',
      'version',
      'info',
      'stats',
      'top',
      'port',
      'diff',
      'history',
      'search',
    ]),
  },
  kubectl: {
    globalWithArg: ['-n', '--namespace', '--context', '--kubeconfig', '-l'],
    subs: new Set([
      'get',
      'describe',
      'logs',
      'explain',
      'version',
      'top',
      'api-resources',
      'api-versions',
      'cluster-info',
      'auth',
    ]),
  },
  cargo: { globalWithArg: [], subs: new Set(['tree', 'metadata', 'search', 'version', '--version']) },
  go: { globalWithArg: [], subs: new Set(['version', 'env', 'list', 'doc', 'vet']) },
  pip: { globalWithArg: [], subs: new Set(['list', 'show', 'freeze', 'check']) },
  systemctl: {
    globalWithArg: [],
    subs: new Set(['status', 'show', 'list-units', 'list-unit-files', 'is-active', 'is-enabled', 'is-failed', 'cat']),
  },
};

/** Git subcommands in the table above that write when given arguments (branch NAME, tag NAME, config KEY VALUE). */
function gitWritesAnyway(sub: string, rest: string[]): boolean {
  const positional = rest.filter((a) => !a.startsWith('-'));
  if (sub === 'branch' || sub === 'tag')
    return positional.length > 0 || rest.some((a) => /^-[dDmMcC]/.test(a) || a === '--delete');
  if (sub === 'config') return !rest.some((a) => /^--(get|list|get-all|get-regexp)$|^-l$/.test(a));
  if (sub === 'remote') return positional.length > 0 && positional[0] !== 'show' && positional[0] !== 'get-url';
  if (sub === 'stash') return positional[0] !== 'list' && positional[0] !== 'show';
  return false;
}

/** Flags that turn an otherwise read-only program into a writer. */
const WRITING_FLAGS: Record<string, RegExp> = {
  find: /^-(delete|exec|execdir|ok|okdir|fprint0?|fprintf|fls)$/,
  sort: /^(-o|--output)/,
  env: /.^/,
};

/** True when the command cannot modify anything. */
export function isReadOnlyCommand(view: CommandView): boolean {
  if (redirectWrites(view).some((t) => !/^\/dev\/(null|stdout|stderr|tty)$/.test(t))) return false;
  if (view.wrappers.some((w) => w !== 'command' && w !== 'time' && w !== 'nice' && w !== 'timeout')) return false;
  const { program, args } = view;
  if (program === 'env' && args.length > 0) return false;
  if (READ_ONLY_PROGRAMS.has(program))
    return !(WRITING_FLAGS[program]?.source && args.some((a) => WRITING_FLAGS[program]!.test(a)));
  if (program === 'sed')
    return !args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a)) && !/\be\b|w /.test(args.join(' '));
  if (program === 'awk') return !/system|getline|>|\|/.test(args.join(' '));
  const table = READ_ONLY_SUBCOMMANDS[program];
  if (!table) return false;
  const rest = subcommands(args, table.globalWithArg);
  const sub = rest[0];
  if (sub === undefined || !table.subs.has(sub)) return false;
  return program !== 'git' || !gitWritesAnyway(sub, rest.slice(1));
}
