// The tests the git entries (danger-git.ts) use: git's command line once its global options are skipped, config
// settings that run a program, `git branch` flag clusters, and pushes to a remote that is not the usual one.
import type { CommandView } from '../shell/view.ts';
import { hasFlag, operands, subcommands } from './flags.ts';

/** git's global options that take a value (`git -C dir …`). */
const GIT_GLOBAL_WITH_ARG = [
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
  '--super-prefix',
  '--list-cmds',
];

/** git's subcommand and its arguments, once the global options (`-C dir`, `-c k=v`) are skipped: `[]` without one. */
export function gitCommand(args: string[]): string[] {
  return subcommands(args, GIT_GLOBAL_WITH_ARG);
}

/** `git <sub> <args…>` once global options are skipped; undefined for other programs. */
export function git(v: CommandView): { sub: string; args: string[] } | undefined {
  if (v.program !== 'git') return undefined;
  // Every git entry asks for the same command's subcommand, one after another: the last view's answer is kept.
  if (gitMemo?.view === v) return gitMemo.parsed;
  const rest = gitCommand(v.args);
  const parsed = rest.length ? { sub: rest[0]!, args: rest.slice(1).map(fullOption) } : undefined;
  gitMemo = { view: v, parsed };
  return parsed;
}
let gitMemo: { view: CommandView; parsed: ReturnType<typeof git> } | undefined;

/** The long options the entries below look for (git takes any unambiguous prefix of one: `--har`, `--forc`). */
const LONG_OPTIONS = [
  '--hard',
  '--merge',
  '--keep',
  '--force',
  '--force-with-lease',
  '--force-if-includes',
  '--mirror',
  '--delete',
  '--prune',
  '--discard-changes',
  '--interactive',
  '--worktree',
  '--staged',
  '--cached',
  '--dry-run',
  '--exec',
  '--all',
];

/** A long option written as a prefix of one of LONG_OPTIONS (the shortest it may stand for), else the word. */
function fullOption(arg: string): string {
  if (!arg.startsWith('--') || arg.length < 4) return arg;
  const [name, value] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
  if (LONG_OPTIONS.includes(name)) return arg;
  const full = LONG_OPTIONS.find((o) => o.startsWith(name));
  return full === undefined ? arg : value === undefined ? full : `${full}=${value}`;
}

/** Keys whose value git runs through the shell as a command line (besides `alias.NAME=!cmd`). */
const COMMAND_KEYS =
  /^(core\.(sshcommand|pager|editor|askpass|gitproxy|fsmonitor|alternaterefscommand)|sequence\.editor|diff\.external|gpg\.program|gpg\.[a-z0-9]+\.program|gpg\.ssh\.defaultkeycommand|uploadpack\.packobjectshook|credential\.([^=]*\.)?helper|diff\.[^=]+\.(textconv|command)|filter\.[^=]+\.(clean|smudge|process)|merge\.[^=]+\.driver|pager\.[^=]+|(difftool|mergetool|browser|man)\.[^=]+\.cmd|remote\.[^=]+\.(uploadpack|receivepack)|submodule\.[^=]+\.update|interactive\.difffilter|sendemail\.(tocmd|cccmd))$/i;

/** Programs that take the code to run as their arguments: an alias `!sh` runs whatever words follow the alias. */
const TAKES_CODE =
  /^(sh|bash|zsh|dash|ksh|fish|eval|exec|python[\d.]*|node|perl|ruby|php|lua|xargs|env|sudo|command|busybox)$/;

/**
 * The key and value `git config` sets, from the words after `config`: `git config [--global] KEY VALUE`,
 * `git config set KEY VALUE` (git 2.46), with option values skipped (`-f FILE`, `--type bool`); undefined for a read,
 * an unset or a section command.
 */
export function gitConfigAssignment(args: string[]): { key: string; value: string; keyAt: number } | undefined {
  const ops: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (/^(-f|--file|--blob|--type|--default|--comment|--value)$/.test(a)) {
      i++;
      continue;
    }
    if (
      /^(--get|--get-all|--get-regexp|--get-urlmatch|--unset|--unset-all|--list|-l|--edit|-e|--rename-section|--remove-section)$/.test(
        a,
      )
    )
      return undefined;
    if (!a.startsWith('-')) ops.push(i);
  }
  let first = 0;
  if (args[ops[0] ?? -1] === 'set') first = 1;
  else if (/^(get|unset|list|edit|rename-section|remove-section)$/.test(args[ops[0] ?? -1] ?? '')) return undefined;
  if (ops.length - first < 2) return undefined;
  return {
    key: args[ops[first]!]!,
    value: ops
      .slice(first + 1)
      .map((i) => args[i]!)
      .join(' '),
    keyAt: ops[first]!,
  };
}

/**
 * The command line git runs for a setting — `alias.x=!cmd`, `core.sshCommand=cmd`, `credential.helper=!cmd` — or
 * undefined: another key, or a value that runs nothing of the agent's (`core.fsmonitor=false`, git's own
 * credential caches). nested.ts walks that command as the code it is.
 */
export function gitConfigCommand(key: string, value: string): string | undefined {
  const v = value.trim();
  if (/^alias\./i.test(key)) return v.startsWith('!') ? v.slice(1) : undefined;
  if (/^submodule\./i.test(key)) return v.startsWith('!') ? v.slice(1) : undefined;
  if (!COMMAND_KEYS.test(key) || v === '') return undefined;
  if (/^core\.fsmonitor$/i.test(key) && /^(true|false|yes|no|on|off|1|0)$/i.test(v)) return undefined; // git's own monitor, or none
  if (/^credential\./i.test(key)) {
    if (v.startsWith('!')) return v.slice(1);
    if (/^(cache|store|osxkeychain|manager|manager-core|libsecret|wincred)(\s|$)/.test(v)) return undefined;
    return v.includes('/') ? v : `git-credential-${v}`;
  }
  return v;
}

/** Configuration keys whose value git runs as a program (an `!` alias runs a shell). */
const EXEC_CONFIG =
  /^(include\.path=|includeif\.[^=]*\.path=|alias\.[^=]+=\s*!|alias\.[^=]+=(.*\s)?(-c|--config-env|--exec-path)(\s|=)|pager\.[^=]+=|(difftool|mergetool|browser|man)\.[^=]+\.cmd=|remote\.[^=]+\.(uploadpack|receivepack)=|submodule\.[^=]+\.update=\s*!|interactive\.difffilter=|sendemail\.(tocmd|cccmd)=|core\.alternaterefscommand=|gpg\.ssh\.defaultkeycommand=|core\.(sshcommand|pager|editor|hookspath|fsmonitor|gitproxy|askpass)=|(credential|diff|filter|merge)\.[^=]*\.?(helper|command|textconv|process|clean|smudge|driver)=|uploadpack\.packobjectshook=|sequence\.editor=|diff\.external=|init\.templatedir=|gpg\.program=|gpg\.[a-z]+\.program=)/i;

/** A pager that only shows text (`git -c core.pager=cat log`, the usual way to turn paging off). */
const PLAIN_PAGER = /^core\.pager=\s*(cat|less|more|most|bat|delta|diff-so-fancy)?(\s+-[\w-]+)*\s*$/i;

/**
 * An editor or helper that does nothing, the usual way to keep git from waiting on one: `core.editor=true`,
 * `sequence.editor=:`, `credential.helper=` (no helper).
 */
const NO_OP_PROGRAM = /^(core\.editor|sequence\.editor|credential\.helper)=\s*(true|:|cat|)\s*$/i;
/** An editor people use, and git's own credential caches: what developers set up, not a program of the agent's. */
const PLAIN_SETTING =
  /^(core\.editor=\s*(vim?|nvim|nano|emacs|micro|helix|hx|code|code-insiders|cursor|subl|mate|zed|atom|gedit|kate)(\s+(-w|--wait|-n|--new-window))*|credential\.([^=]*\.)?helper=\s*(cache(\s+--timeout[= ]\d+)?|store(\s+--file[= ]\S+)?|osxkeychain|manager|manager-core|libsecret|wincred|!\s*(gh|glab)\s+auth\s+git-credential|(\/[\w./-]+\/)?git-credential-manager(-core)?))\s*$/i;

/**
 * `KEY=VALUE` (a `-c` setting) that makes git run a program this finding stands for: a command line whose text is
 * not known here (`dynamic`), or code in a place git looks (`core.hooksPath`, `init.templateDir`). A known command
 * line is judged as itself instead (`gitConfigCommand`, walked by nested.ts): `core.pager=cat` or `diff.external=difft`
 * ask nothing, `alias.x=!rm -rf ~` asks what `rm -rf ~` asks.
 */
export function runsProgram(setting: string, dynamic: boolean): boolean {
  if (
    !EXEC_CONFIG.test(setting) ||
    PLAIN_PAGER.test(setting) ||
    NO_OP_PROGRAM.test(setting) ||
    PLAIN_SETTING.test(setting)
  )
    return false;
  const eq = setting.indexOf('=');
  const key = setting.slice(0, eq).trim();
  const value = setting.slice(eq + 1).trim();
  if (/^core\.hookspath$/i.test(key) && value === '/dev/null') return false; // no hooks at all
  // An empty value resets the setting (git's default: no program, no hooks path of the agent's).
  if (value === '' || value === '""' || value === "''") return false;
  // `alias.x='!sh'`: what follows the alias is code for that program (`git x -c 'curl … | sh'`).
  if (
    /^alias\./i.test(key) &&
    TAKES_CODE.test((gitConfigCommand(key, value) ?? '').trim().split(/\s+/)[0]?.replace(/^.*\//, '') ?? '')
  )
    return true;
  if (/^core\.fsmonitor$/i.test(key) && /^(true|false|yes|no|on|off|1|0)$/i.test(value)) return false;
  // A credential helper is handed the user's passwords and tokens to keep: one of the agent's choosing stays asked.
  if (/^credential\./i.test(key)) return true;
  return dynamic || gitConfigCommand(key, value) === undefined;
}

/**
 * `git config [--global] KEY VALUE` setting one of those keys. Unlike `-c`, the setting stays and runs in the
 * user's own later git commands: a program named by its path (`diff.external /tmp/x`), which the agent may have
 * put there, is asked even when its command line is known.
 */
export function gitConfigSetsExec(v: CommandView): boolean {
  const set = gitConfigSetting(v);
  if (set === undefined) return false;
  if (
    runsProgram(
      `${set.key}=${set.value}`,
      v.words.some((w) => w.dynamic),
    )
  )
    return true;
  const command = gitConfigCommand(set.key, set.value);
  return command !== undefined && /^\S*\//.test(command.trim());
}

/** The key and value `git config [--global] KEY VALUE` sets, else undefined. */
export function gitConfigSetting(v: CommandView): { key: string; value: string } | undefined {
  const g = git(v);
  return g?.sub === 'config' ? gitConfigAssignment(g.args) : undefined;
}

/** A short-flag cluster of `git branch` containing one of the letters (`-vD`, `-Dvv`); `--format -d` is not one. */
export function branchFlag(args: string[], letters: string): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--format' || a === '--sort' || a === '--contains' || a === '--merged' || a === '--points-at') {
      i++;
      continue;
    }
    if (/^-[A-Za-z]+$/.test(a) && [...letters].some((l) => a.includes(l))) return true;
  }
  return false;
}

/** A remote that is not this machine: a URL (`https://`, `ssh://`, `git://`) or scp-like `user@host:path`. */
const REMOTE_URL = /^(?:(?:https?|ssh|git|git\+ssh):\/\/(?!localhost[:/]|127\.)|[\w.-]+@[\w.-]+:)/;
const PUSH_WITH_ARG = ['-o', '--push-option', '--receive-pack', '--exec'];

/**
 * `git push URL`, `git push --repo=URL`, or a push to a remote that `git remote add`/`set-url` pointed at a URL
 * earlier on the line (`view.addedRemotes`; a push without a remote goes to `origin`).
 */
export function pushesToNewRemote(v: CommandView): boolean {
  // `gh repo create NAME --source . --push`: a repository made now, and the project pushed to it.
  if (v.program === 'gh') return v.args[0] === 'repo' && v.args[1] === 'create' && v.args.includes('--push');
  const g = git(v);
  // `git subtree push --prefix dir URL ref`: the subtree's history pushed to the URL.
  if (g?.sub === 'subtree' && g.args.includes('push'))
    return operands(g.args, ['--prefix', '-P', '-m', '--message'])
      .slice(1)
      .some((r) => REMOTE_URL.test(r) || v.addedRemotes?.has(r) === true);
  if (!g || g.sub !== 'push' || hasFlag(g.args, 'n', ['--dry-run'])) return false;
  const repo =
    g.args.find((a) => a.startsWith('--repo='))?.slice(7) ??
    (g.args.includes('--repo') ? g.args[g.args.indexOf('--repo') + 1] : undefined);
  const remote = repo ?? operands(g.args, PUSH_WITH_ARG)[0];
  if (remote !== undefined && REMOTE_URL.test(remote)) return true;
  if (pushRepointed(v.args)) return true;
  return v.addedRemotes?.has(remote ?? 'origin') === true || v.addedRemotes?.has(ANY_REMOTE) === true;
}

/** A push to any remote goes somewhere new: the line rewrote where remotes' URLs point (`url.<base>.pushInsteadOf`). */
const ANY_REMOTE = '*';

/**
 * After `git remote add NAME URL`, `git remote set-url [--push|--add] NAME URL`, `git config remote.NAME.url URL`
 * (or `.pushurl`, also `git config set …`), `git remote rename A B` of such a remote: NAME, for later pushes. A
 * URL rewrite (`git config url.URL.insteadOf …`/`pushInsteadOf`) or a push default set to a URL makes every push new.
 */
export function recordAddedRemote(v: CommandView, added: Set<string>): void {
  const g = git(v);
  if (!g) return;
  if (g.sub === 'config') {
    const set = gitConfigAssignment(g.args);
    if (set === undefined) return;
    const remote = /^remote\.(.+)\.(?:url|pushurl)$/i.exec(set.key);
    if (remote && REMOTE_URL.test(set.value)) added.add(remote[1]!);
    if (/^url\..+\.(?:insteadof|pushinsteadof)$/i.test(set.key) && REMOTE_URL.test(set.key.slice(4)))
      added.add(ANY_REMOTE);
    if (
      /^(?:remote\.pushdefault|branch\..+\.(?:remote|pushremote))$/i.test(set.key) &&
      (REMOTE_URL.test(set.value) || added.has(set.value))
    )
      added.add(ANY_REMOTE);
    return;
  }
  if (g.sub !== 'remote') return;
  const [action, name, url] = operands(g.args, ['-t', '-m', '--track', '--master']);
  if ((action === 'add' || action === 'set-url') && name !== undefined && url !== undefined && REMOTE_URL.test(url))
    added.add(name);
  if (action === 'rename' && name !== undefined && url !== undefined && added.has(name)) added.add(url);
}

/** `git -c remote.origin.url=URL push`, `git -c url.URL.pushInsteadOf=… push`: the push itself is pointed elsewhere. */
function pushRepointed(args: readonly string[]): boolean {
  return args.some((a, i) => {
    const setting = a === '-c' ? (args[i + 1] ?? '') : a.startsWith('-c') ? a.slice(2) : '';
    const eq = setting.indexOf('=');
    if (eq < 0) return false;
    const key = setting.slice(0, eq);
    return (
      (/^remote\..+\.(?:url|pushurl)$/i.test(key) && REMOTE_URL.test(setting.slice(eq + 1))) ||
      (/^url\..+\.(?:insteadof|pushinsteadof)$/i.test(key) && REMOTE_URL.test(key.slice(4)))
    );
  });
}
