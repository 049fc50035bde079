// Variables whose value bash, or a program the command starts, runs as code: `PROMPT_COMMAND='cmd' bash -i`,
// `PS4='$(cmd)'; set -x`, `EDITOR='cmd #' git commit`, `BASH_ENV=<(echo cmd) bash -c :`.

/** The code a variable's value amounts to: scripts to walk, or code whose text is not known here. */
export interface VariableCode {
  scripts: string[];
  /** The value names a file of code whose contents are unknown (`BASH_ENV=/tmp/x.sh`). */
  unknown: boolean;
}

const NONE: VariableCode = Object.freeze({ scripts: [], unknown: false }) as VariableCode;

/** Commands a program runs through a shell: editors, pagers, askpass helpers, git's ssh and diff commands. */
const COMMAND_VARIABLES = new Set(['PROMPT_COMMAND', 'FCEDIT', 'EDITOR', 'VISUAL', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'PAGER', 'GIT_PAGER', 'MANPAGER',
  'SYSTEMD_PAGER', 'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'GIT_PROXY_COMMAND', 'LESSOPEN', 'LESSCLOSE']);
/**
 * Prompts bash expands (running their substitutions) without a terminal: PS4 before each command `set -x` traces,
 * PS0 after `bash -i` reads a command. (PS1 and PS2, set by many dotfiles, only show at an interactive prompt.)
 */
const PROMPTS = new Set(['PS0', 'PS4']);

/** What the value of `name` runs, given its static text (undefined when unknown) and a `<(…)`'s known output. */
export function variableCode(name: string, value: string | undefined, processOutput?: string): VariableCode {
  if (COMMAND_VARIABLES.has(name)) {
    if (value === undefined) return NONE;
    // LESSOPEN='|cmd %s': the leading pipe marks an input filter.
    const code = name.startsWith('LESS') ? value.replace(/^\s*\|{1,2}-?/, '') : value;
    return code.trim() === '' ? NONE : { scripts: [code], unknown: false };
  }
  if (PROMPTS.has(name)) return value !== undefined && /\$\(|`/.test(value) ? { scripts: [`: "${value.replace(/(["\\])/g, '\\$1')}"`], unknown: false } : NONE;
  // A file a non-interactive bash (BASH_ENV) or an interactive sh (ENV) reads before anything else.
  if (name === 'BASH_ENV' || (name === 'ENV' && (processOutput !== undefined || (value !== undefined && /^[/~.]|\//.test(value))))) {
    if (processOutput !== undefined) return { scripts: [processOutput], unknown: false };
    return value === undefined || value.trim() !== '' ? { scripts: [], unknown: true } : NONE;
  }
  return NONE;
}
