// Nested code of programs that run commands as another user or on other hosts: su, runuser, ssh and its kin,
// rsync's remote shell, ansible's shell modules, vagrant ssh.
import { SSH_WITH_ARG } from '../../catalog/flags.ts';
import type { CommandView } from '../view.ts';
import type { Word } from '../word.ts';
import { literalWord } from '../word.ts';
import { joinWords } from '../unwrap.ts';
import { afterDashes, firstOperand, optionValues, script, stdinScript, text } from './support.ts';
import type { NestedCode, NestedEntry } from './support.ts';

const RUNUSER_WITH_ARG = ['-u', '--user', '-g', '--group', '-G', '--supp-group', '-w', '--whitelist-environment'];

/** The home a login shell of `user` starts in (root's when no user is named; other users' under /home). */
export function loginHome(user: string | undefined): string {
  return user === undefined || user === 'root' || user === '0' ? '/root' : `/home/${user}`;
}

/** `-o ProxyCommand=cmd` (or `-oProxyCommand cmd`, `LocalCommand`) runs cmd on this machine. */
function localCommands(out: NestedCode[], args: Word[]): void {
  for (const w of optionValues(args, '-o')) {
    const m = /^(?:ProxyCommand|LocalCommand)\s*[= ]\s*(.*)$/is.exec(w.value);
    if (m && m[1] !== 'none') text(out, m[1]!);
  }
}

/** ssh's remote command, or the remote shell reading ssh's stdin. */
function remoteCommand(out: NestedCode[], view: CommandView, args: Word[]): void {
  // The words after the host (a `--` before them is ssh's) are a command line for the remote shell; without
  // them, the remote shell reads its commands from ssh's stdin (`ssh host <<< 'cmd'`, `echo cmd | ssh host`).
  const host = firstOperand(args, SSH_WITH_ARG);
  const remote = host < 0 ? [] : afterDashes(args.slice(host + 1));
  if (remote.length > 0) out.push({ kind: 'script', word: joinWords(remote) });
  else if (host >= 0 && !args.some((w) => /^-[a-zA-Z]*[NfW]/.test(w.value))) stdinScript(out, view);
}

export const REMOTE_ENTRIES: NestedEntry[] = [
  {
    programs: ['su', 'runuser'],
    nested(out, view, args) {
      const c = args.findIndex((w) => w.value === '-c' || w.value === '--command');
      const eq = args.find((w) => w.value.startsWith('--command='));
      // `su - alice -c 'cat .ssh/id_rsa'`: a login shell starts in the user's home (root's without a name).
      const login = args.some((w) => w.value === '-' || w.value === '-l' || w.value === '--login');
      const valueOf = /^-(c|s|g|G|w)$|^--(command|shell|group|supp-group|whitelist-environment)$/;
      const name = args.find(
        (w, i) => !w.value.startsWith('-') && w !== args[c + 1] && !valueOf.test(args[i - 1]?.value ?? ''),
      );
      const base = login ? loginHome(name?.value) : undefined;
      if (c >= 0 && args[c + 1]) out.push({ kind: 'script', word: args[c + 1]!, ...(base ? { base } : {}) });
      if (eq) out.push({ kind: 'script', word: literalWord(eq.value.slice(10)), ...(base ? { base } : {}) });
      // `runuser -u root -- rm -rf ~`: with -u the operands are the command itself (without it, a user name).
      const user =
        view.program === 'runuser' && c < 0 && !eq && args.some((w) => w.value === '-u' || w.value === '--user');
      const at = user ? firstOperand(args, RUNUSER_WITH_ARG) : -1;
      if (at >= 0) out.push({ kind: 'argv', words: args.slice(at) });
    },
  },
  {
    programs: ['ssh'],
    nested(out, view, args) {
      remoteCommand(out, view, args);
      localCommands(out, args);
    },
  },
  {
    programs: ['scp', 'sftp'],
    nested(out, _view, args) {
      localCommands(out, args);
    },
  },
  {
    programs: ['rsync'],
    nested(out, _view, args) {
      // `-e cmd` / `--rsh=cmd` runs cmd here to reach the other side; `--rsync-path=cmd` runs it there.
      for (const w of optionValues(args, '-e', '--rsh', '--rsync-path')) script(out, w);
    },
  },
  {
    programs: ['ansible'],
    nested(out, _view, args) {
      // `ansible all -m shell -a 'rm -rf /var/www'`: the shell (or command, raw) module runs its argument on each host.
      const module = optionValues(args, '-m', '--module-name')[0]?.value;
      if (module !== undefined && !/^(ansible\.builtin\.)?(shell|command|raw|script)$/.test(module)) return;
      for (const w of optionValues(args, '-a', '--args')) script(out, w);
    },
  },
  {
    programs: ['vagrant'],
    nested(out, _view, args) {
      if (args[0]?.value === 'ssh') for (const w of optionValues(args, '-c', '--command')) script(out, w);
    },
  },
];
