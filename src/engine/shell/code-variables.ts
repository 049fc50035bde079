// Variables whose value bash, or a program the command starts, runs as code: `PROMPT_COMMAND='cmd' bash -i`,
// `PS4='$(cmd)'; set -x`, `EDITOR='cmd #' git commit`, `BASH_ENV=<(echo cmd) bash -c :`.
import { dataUrlText } from '../file-url.ts';

/** The code a variable's value amounts to: scripts to walk, or code whose text is not known here. */
export interface VariableCode {
  scripts: string[];
  /** The value names a file of code whose contents are unknown (`BASH_ENV=/tmp/x.sh`). */
  unknown: boolean;
}

const NONE: VariableCode = Object.freeze({ scripts: [], unknown: false }) as VariableCode;

/**
 * Commands a program runs through a shell: editors, pagers, askpass helpers, git's ssh and diff commands, the
 * browser npm and xdg tools open, the compilers make and build scripts run, npm's script shell, rustc's wrapper.
 * `GIT_CONFIG_VALUE_<n>` is any setting's value: when one is a command line (`core.pager`), this is it.
 */
const COMMAND_VARIABLES = new Set([
  'PROMPT_COMMAND',
  'FCEDIT',
  'EDITOR',
  'VISUAL',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'PAGER',
  'GIT_PAGER',
  'MANPAGER',
  'SYSTEMD_PAGER',
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_EXTERNAL_DIFF',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'GIT_PROXY_COMMAND',
  'LESSOPEN',
  'LESSCLOSE',
  'BROWSER',
  'CC',
  'CXX',
  'CPP',
  'FC',
  'LD',
  'AR',
  'RUSTC_WRAPPER',
  'RUSTC',
  'npm_config_script_shell',
  'NPM_CONFIG_SCRIPT_SHELL',
  'npm_config_browser',
  'npm_config_editor',
  'RSYNC_RSH',
  'CVS_RSH',
]);

/** Variables naming a place git reads configuration or its own programs from: a file of the agent's may set any of them. */
const GIT_PLACES = new Set(['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_EXEC_PATH', 'GIT_TEMPLATE_DIR']);

/**
 * Variables that make a program load code from a file or module before its own: the runner given the file runs
 * it as that program would (`NODE_OPTIONS='--require /tmp/h.js'` as `node /tmp/h.js`, a library as a program), so
 * a file the command line downloaded or wrote is judged by where it came from or what it holds. Packages by name
 * (`--require dotenv/config`, `--import tsx`, `-rbundler/setup`) are installed code and are not counted.
 */
const CODE_FILE_VARIABLES: Record<string, (value: string) => { runner: string; file: string }[]> = {
  LD_PRELOAD: libraries,
  LD_AUDIT: libraries,
  DYLD_INSERT_LIBRARIES: libraries,
  NODE_OPTIONS: (value) => optionFiles(value, /^(?:--require|-r|--import|--loader|--experimental-loader)$/, 'node'),
  npm_config_node_options: (value) =>
    optionFiles(value, /^(?:--require|-r|--import|--loader|--experimental-loader)$/, 'node'),
  RUBYOPT: (value) => optionFiles(value, /^-r$/, 'ruby'),
  PYTHONSTARTUP: (value) => (value.trim() ? [{ runner: 'python3', file: value.trim() }] : []),
  JAVA_TOOL_OPTIONS: javaAgents,
  _JAVA_OPTIONS: javaAgents,
  JDK_JAVA_OPTIONS: javaAgents,
  JAVA_OPTS: javaAgents,
  MAVEN_OPTS: javaAgents,
  GRADLE_OPTS: javaAgents,
  LUA_INIT: (value) => (value.startsWith('@') ? [{ runner: 'lua', file: value.slice(1) }] : []),
};

/** A git setting's value that reads as a command line (words, or an alias's `!cmd`), not a setting like `user.email=x`. */
function readsAsCommandLine(value: string): boolean {
  return /\S\s+\S/.test(value.trim()) || /^\s*!/.test(value);
}

/** A file named from the root, the home, by URL, or climbing out of the project (a relative one below it is the project's). */
const OUTSIDE_PROJECT = /^([/~]|[a-z][\w+.-]*:|\.\.(\/|$))/i;
/**
 * The system's own libraries (root-owned: jemalloc and friends preloaded on purpose, agents under /opt) and the build
 * tools' artefact caches (a JaCoCo agent in ~/.m2/repository); a `..` may lead anywhere.
 */
const SYSTEM_LIBRARY =
  /^(\/(usr\/(lib|lib64|local\/lib|share\/java)|lib|lib64|opt)\/|~\/(\.m2\/repository|\.gradle\/caches)\/|\/(root|home\/[^/]+)\/(\.m2\/repository|\.gradle\/caches)\/)(?!.*(^|\/)\.\.(\/|$))/;

/** LD_PRELOAD's libraries (blank- or colon-separated): each is code run in the program. */
function libraries(value: string): { runner: string; file: string }[] {
  return value
    .split(/[\s:]+/)
    .filter((f) => f !== '')
    .map((file) => ({ runner: '', file }));
}

/** `-javaagent:/tmp/a.jar[=opts]`, `-agentpath:/tmp/x.so`: a jar or a native library whose code runs before main. */
function javaAgents(value: string): { runner: string; file: string }[] {
  return [...value.matchAll(/-(javaagent|agentpath):["']?([^=\s"']+)/g)].map((m) => ({
    runner: m[1] === 'javaagent' ? 'java -jar' : '',
    file: m[2]!,
  }));
}

/** The file values of some options in an options string (`--require /tmp/h.js`, `-r./x.js`, `--import=./y.mjs`). */
function optionFiles(value: string, option: RegExp, runner: string): { runner: string; file: string }[] {
  const words = value.trim().split(/\s+/);
  const out: { runner: string; file: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const eq = w.indexOf('=');
    let file: string | undefined;
    if (option.test(w)) file = words[++i];
    else if (eq > 0 && option.test(w.slice(0, eq))) file = w.slice(eq + 1);
    else if (/^-r./.test(w) && option.test('-r')) file = w.slice(2);
    // Quotes inside the value are node's own (`--require "/tmp/h.js"`); a `data:` URL runs to the end of the value.
    if (file !== undefined) file = file.replace(/^["']|["']$/g, '');
    if (file?.startsWith('data:')) {
      out.push({ runner, file: [file, ...words.slice(i + 1)].join(' ').replace(/["']$/, '') });
      break;
    }
    // A path or a URL names code of the agent's; a bare name is an installed package.
    if (file !== undefined && /^(\.{0,2}\/|~|[a-z][\w+.-]*:)/i.test(file) && !/^node:/.test(file))
      out.push({ runner, file });
  }
  return out;
}

/** A file name as one shell word. */
function shellWord(file: string): string {
  return /^[\w@%+=:,./~-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`;
}
/**
 * Prompts bash expands (running their substitutions) without a terminal: PS4 before each command `set -x` traces,
 * PS0 after `bash -i` reads a command. (PS1 and PS2, set by many dotfiles, only show at an interactive prompt.)
 */
const PROMPTS = new Set(['PS0', 'PS4']);

/**
 * What the value of `name` runs, given its static text (undefined when unknown) and a `<(…)`'s known output. `moved`:
 * the script changed directory, so a relative file is no longer the project's.
 */
export function variableCode(
  name: string,
  value: string | undefined,
  processOutput?: string,
  moved = false,
): VariableCode {
  if (COMMAND_VARIABLES.has(name)) {
    if (value === undefined) return NONE;
    // LESSOPEN='|cmd %s': the leading pipe marks an input filter.
    const code = name.startsWith('LESS') ? value.replace(/^\s*\|{1,2}-?/, '') : value;
    return code.trim() === '' ? NONE : { scripts: [code], unknown: false };
  }
  // GIT_CONFIG_VALUE_<n> with its GIT_CONFIG_KEY_<n>: judged as any value git may run (the key is elsewhere).
  // (Only a value that reads as a command line — words, or an alias's `!` — is walked: `user.email=ci@x`, `safe.directory=*`
  // and `insteadOf=git@github.com:` are settings, and a lone program name runs as itself anyway.)
  if (/^GIT_CONFIG_VALUE_\d+$/.test(name))
    return value !== undefined && readsAsCommandLine(value)
      ? { scripts: [value.replace(/^\s*!/, '')], unknown: false }
      : NONE;
  // GIT_CONFIG_PARAMETERS="'alias.x'='!cmd' 'core.pager'='cmd'": each value, as above.
  if (name === 'GIT_CONFIG_PARAMETERS') {
    if (value === undefined) return { scripts: [], unknown: true };
    // Both of git's forms: `'key'='value'` and the older `'key=value'`.
    const values = [...value.matchAll(/'[^'=]*'='((?:[^']|'\\'')*)'|'[^'=]+=((?:[^']|'\\'')*)'/g)].map((m) =>
      (m[1] ?? m[2]!).replace(/'\\''/g, "'"),
    );
    const scripts = values.filter(readsAsCommandLine).map((c) => c.replace(/^\s*!/, ''));
    return scripts.length ? { scripts, unknown: false } : NONE;
  }
  // `GIT_CONFIG_GLOBAL=/tmp/gc git log`: a config file of the agent's may set a pager, an ssh command, hooks.
  if (GIT_PLACES.has(name))
    return value === undefined || (value.trim() !== '' && value.trim() !== '/dev/null')
      ? { scripts: [], unknown: true }
      : NONE;
  // `TAR_OPTIONS='--checkpoint-action=exec=…'`: options every tar takes, as if written on its command line.
  if (name === 'TAR_OPTIONS')
    return value !== undefined &&
      /--(checkpoint-action|to-command|use-compress-program|info-script|new-volume-script)|(^|\s)-[IF]\b/.test(value)
      ? { scripts: [`tar ${value}`], unknown: false }
      : NONE;
  // `PERL5OPT='-MFoo;…'`: perl runs `use Foo;…` — the text after -M is code (a module by name is installed code).
  if (name === 'PERL5OPT') {
    const code = value === undefined ? undefined : /(?:^|\s)-[mM](\S.*)$/s.exec(value)?.[1];
    return code !== undefined && /[;`(]/.test(code)
      ? { scripts: [`perl -e ${shellWord(`use ${code.trim()}`)}`], unknown: false }
      : NONE;
  }
  // `LUA_INIT='os.execute(…)'`: Lua code lua runs first (`@file` names a file instead).
  if (name === 'LUA_INIT' && value !== undefined && value.trim() !== '' && !value.startsWith('@'))
    return { scripts: [`lua -e ${shellWord(value)}`], unknown: false };
  const loads = CODE_FILE_VARIABLES[name];
  if (loads) {
    if (value === undefined)
      return name === 'NODE_OPTIONS' || name === 'RUBYOPT' || name.includes('JAVA') || name.endsWith('_OPTS')
        ? NONE
        : { scripts: [], unknown: true };
    const files = loads(value);
    if (files.length === 0) return NONE;
    // `NODE_OPTIONS='--import data:text/javascript,…'`: the code itself is in the value.
    const scripts = files.map(({ runner, file }) => {
      const code = runner === 'node' ? dataUrlText(file) : undefined;
      if (code !== undefined) return `node -e ${shellWord(code)}`;
      return runner ? `${runner} ${shellWord(file)}` : shellWord(file);
    });
    // Code from outside the project and the system's own libraries is asked about even when nothing more is known
    // of it: the command as written (`ls`, `npm test`) does not show it.
    const outside = (file: string) =>
      (moved || OUTSIDE_PROJECT.test(file)) && !SYSTEM_LIBRARY.test(file) && !file.startsWith('data:');
    return { scripts, unknown: files.some(({ file }) => outside(file)) };
  }
  if (PROMPTS.has(name))
    return value !== undefined && /\$\(|`/.test(value)
      ? { scripts: [`: "${value.replace(/(["\\])/g, '\\$1')}"`], unknown: false }
      : NONE;
  // A file a non-interactive bash (BASH_ENV) or an interactive sh (ENV) reads before anything else: run as `bash FILE`
  // would run it (a file the command line wrote or downloaded is judged by that).
  if (
    name === 'BASH_ENV' ||
    (name === 'ENV' && (processOutput !== undefined || (value !== undefined && /^[/~.]|\//.test(value))))
  ) {
    if (processOutput !== undefined) return { scripts: [processOutput], unknown: false };
    if (value === undefined) return { scripts: [], unknown: true };
    // (A file of the project — `BASH_ENV=./ci/env.sh` — is judged as `bash ./ci/env.sh` would be, like NODE_OPTIONS's.)
    return value.trim() === ''
      ? NONE
      : { scripts: [`bash ${shellWord(value.trim())}`], unknown: moved || OUTSIDE_PROJECT.test(value.trim()) };
  }
  return NONE;
}
