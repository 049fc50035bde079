// Stage 1 of the pipeline: canonical tool name and the call's subjects (command, paths, URL, canonical args).
import { fileUrlPath } from './file-url.ts';
import { canonicalTool, type AliasIndex, type ToolAlias, type ToolKind } from './catalog/tool-aliases.ts';

/** A tool call as an agent sends it. */
export interface ToolCall {
  tool: string;
  args: unknown;
  agentId?: string;
  sessionId?: string;
  cwd?: string;
  /**
   * An MCP tool's behaviour hints, as its server declares them. The MCP spec calls them untrusted: they may add a
   * finding (destructive), never remove one.
   */
  annotations?: ToolAnnotations;
}

/** The two MCP tool annotations that bear on risk. */
export interface ToolAnnotations {
  destructiveHint?: boolean;
  readOnlyHint?: boolean;
}

/** The call reduced to what the pipeline judges. */
export interface NormalizedCall {
  /** Canonical tool name (`bash`, `read_file`, …) or the tool's own name when unknown. */
  tool: string;
  /** The name the agent used. */
  rawTool: string;
  kind: ToolKind;
  /** The shell command, for shell tools. */
  command?: string;
  /**
   * Further commands the arguments carry under other command-bearing keys (`{"command":"ls","cmd":"rm -rf ~"}`:
   * Codex's exec_command runs `cmd`), or the rest of a `commands` list. Each is analysed on its own, the strictest
   * verdict wins: which key a runtime runs is not for toolgate to guess.
   */
  otherCommands?: string[];
  /** Raw path arguments of file tools (resolved later against cwd). */
  paths: string[];
  /** The tool reads everything below its paths (a content search: Grep). */
  recursive?: boolean;
  /**
   * The paths are glob patterns a file tool expands itself (Glob): its `**` crosses any directories and its `*`
   * matches hidden names too, unlike bash's (`**\/id_rsa` below the home lists `~/.ssh/id_rsa`).
   */
  toolGlob?: boolean;
  /** The URL of fetch tools. */
  url?: string;
  /** Further URLs of a fetch tool (every URL in a web_fetch prompt): each is checked like `url`. */
  otherUrls?: string[];
  /**
   * Strings anywhere in the arguments of an unknown or MCP tool, checked against the protected paths only: such a
   * tool may take its path under any key (`filename`, `target`, `options.path`).
   */
  mentionedPaths?: string[];
  /** Stable JSON of the args (sorted keys), for rules on other tools and for dedupe. */
  canonicalArgs: string;
  cwd?: string;
  agentId?: string;
  sessionId?: string;
  /** Why the call's arguments could not be read, when they could not (the pipeline asks). */
  problem?: string;
}

const PATH_KEYS = [
  'path',
  'file_path',
  'filePath',
  'notebook_path',
  'notebookPath',
  'absolute_path',
  'dir_path',
  'directory',
  'target_file',
  'file',
  // MCP filesystem servers: move_file / copy_file name both ends.
  'source',
  'destination',
  'src',
  'dest',
  'old_path',
  'new_path',
  'oldPath',
  'newPath',
];
const PATH_LIST_KEYS = ['paths', 'file_paths', 'files'];
const COMMAND_KEYS = ['command', 'cmd', 'script', 'commands'];
const URL_KEYS = ['url', 'uri'];
/** URLs in a prompt (web_fetch), checked each. */
const PROMPT_URL = /\b(?:https?|file):\/\/[^\s"'<>)]+/gi;
/** Bounds of the scans of arguments: more than these is a call that cannot be read (the pipeline asks). */
export const ARGUMENT_SCAN_LIMITS = { urls: 64, strings: 512, depth: 16, stringLength: 4096 } as const;

/** Reduces a call to its canonical tool and subjects. Never throws: an unreadable shape sets `problem`. */
export function normalizeCall(call: ToolCall, aliases: AliasIndex): NormalizedCall {
  const alias = canonicalTool(call.tool, aliases);
  const args = isRecord(call.args) ? call.args : {};
  // An MCP server's shell or fetch tool (`mcp__desktop-commander__execute_command`, `mcp__fetch__fetch`) is read as
  // the built-in tool of its name: its command is analysed, its URL checked (under its own name for rules).
  const own = alias.kind === 'other' ? mcpOwnAlias(call.tool, alias.canonical, aliases) : undefined;
  const kind = own?.kind === 'shell' || own?.kind === 'fetch' ? own.kind : alias.kind;
  const normalized: NormalizedCall = {
    tool: alias.canonical,
    rawTool: call.tool,
    kind,
    paths: [],
    canonicalArgs: canonicalJson(call.args ?? {}),
    cwd: workingDirectory(call, args, kind),
    agentId: call.agentId,
    sessionId: call.sessionId,
  };
  if (kind === 'shell') {
    const [command, ...others] = commandsOf(call.args, args);
    if (command === undefined)
      normalized.problem = `no command found in the arguments of ${call.tool} (expected one of ${COMMAND_KEYS.join(', ')}, a string or an argv array)`;
    else normalized.command = command;
    if (others.length > 0) normalized.otherCommands = others;
  } else if (kind === 'fetch') {
    // Gemini's web_fetch has no url argument: the URLs are in its prompt, and every one of them is checked.
    const urls = [
      ...new Set([
        ...URL_KEYS.map((k) => args[k]).filter((v): v is string => typeof v === 'string' && v !== ''),
        ...(typeof args.prompt === 'string' ? promptUrls(args.prompt) : []),
      ]),
    ];
    if (urls.length > ARGUMENT_SCAN_LIMITS.urls)
      normalized.problem = `${call.tool} names ${urls.length} URLs; at most ${ARGUMENT_SCAN_LIMITS.urls} are checked`;
    const [url, ...others] = urls.slice(0, ARGUMENT_SCAN_LIMITS.urls);
    if (url) normalized.url = url;
    if (others.length > 0) normalized.otherUrls = others;
    // `file:///root/.ssh/id_rsa` reads a local file: its path is checked like a Read's.
    for (const u of urls) {
      const local = fileUrlPath(u);
      if (local !== undefined) normalized.paths.push(local);
    }
  } else if (alias.kind === 'search') {
    // Grep reads every file below its path (the cwd when none); a Glob pattern may itself name a place.
    normalized.paths = pathsOf(args);
    if (alias.canonical === 'grep') {
      normalized.recursive = true;
      if (normalized.paths.length === 0) normalized.paths = ['.'];
    }
    // A Glob pattern is a path pattern below its path (or the cwd): `/root/.ssh/*`, `.ssh/*` with path `/root`.
    const pattern = alias.canonical === 'glob' && typeof args.pattern === 'string' ? args.pattern : undefined;
    const base = typeof args.path === 'string' && args.path ? args.path.replace(/\/+$/, '') : undefined;
    if (pattern) {
      normalized.paths.push(/^[~/]/.test(pattern) || !base ? pattern : `${base}/${pattern}`);
      normalized.toolGlob = true;
    }
  } else if (alias.kind !== 'other') {
    normalized.paths = pathsOf(args);
    if (normalized.paths.length === 0 && (alias.kind === 'read' || alias.kind === 'write' || alias.kind === 'edit')) {
      normalized.problem = `no path found in the arguments of ${call.tool} (expected one of ${PATH_KEYS.join(', ')})`;
    }
  } else {
    // Unknown tools may still carry paths; they are checked against protected paths all the same.
    normalized.paths = pathsOf(args);
    // An MCP server's file tool (`mcp__filesystem__write_file`) writes like the built-in tool of that name: its
    // write is judged as one (a start-up file, a git hook), under its own name for rules.
    const fileKind = own?.kind === 'write' || own?.kind === 'edit' ? own.kind : undefined;
    if (fileKind && normalized.paths.length > 0) normalized.kind = fileKind;
  }
  // An unknown or MCP tool may take its path under any key: every string of its arguments is checked against the
  // protected paths (and only those), so `{"filename": "~/.ssh/id_rsa"}` or `{"options": {"path": …}}` is seen.
  if (alias.kind === 'other' || call.tool.startsWith('mcp__')) {
    const scan = stringsOf(call.args);
    if (scan.strings.length > 0) normalized.mentionedPaths = scan.strings;
    if (scan.truncated)
      normalized.problem ??= `the arguments of ${call.tool} are too large to check for protected paths (more than ${ARGUMENT_SCAN_LIMITS.strings} strings or ${ARGUMENT_SCAN_LIMITS.depth} levels)`;
  }
  return normalized;
}

/** Every URL in a prompt, in order. */
function promptUrls(prompt: string): string[] {
  return [...prompt.matchAll(PROMPT_URL)].map((m) => m[0]);
}

/**
 * The strings of a JSON value that may be paths (one line, not longer than a path is), depth-first and bounded:
 * `truncated` when the value holds more strings or levels than the limits.
 */
function stringsOf(value: unknown): { strings: string[]; truncated: boolean } {
  const strings: string[] = [];
  let truncated = false;
  const walk = (v: unknown, depth: number): void => {
    if (truncated) return;
    if (typeof v === 'string') {
      if (v === '' || v.length > ARGUMENT_SCAN_LIMITS.stringLength || v.includes('\n')) return;
      if (strings.length >= ARGUMENT_SCAN_LIMITS.strings) truncated = true;
      else strings.push(v);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (depth >= ARGUMENT_SCAN_LIMITS.depth) {
      truncated = true;
      return;
    }
    for (const item of Array.isArray(v) ? v : Object.values(v)) walk(item, depth + 1);
  };
  walk(value, 0);
  return { strings: [...new Set(strings)], truncated };
}

/**
 * The built-in tool an MCP tool (`mcp__<server>__<tool>`, or Gemini's `mcp_<server>_<tool>` as `canonical` spells
 * it) is named after, when its own name is one's alias. In Gemini's spelling a server name with an underscore makes
 * the split ambiguous (`mcp_my_srv_execute_command`): there every tail after an underscore is tried too, longest
 * first, so a shell or fetch tool is read as one whichever way the name splits (reading more is the safe side).
 */
function mcpOwnAlias(raw: string, canonical: string, aliases: AliasIndex): ToolAlias | undefined {
  const m = /^mcp__.+?__(.+)$/.exec(canonical);
  if (!m) return undefined;
  const own = aliases.get(m[1]!.toLowerCase());
  if (own || raw === canonical) return own;
  const words = m[1]!.split('_');
  for (let i = 1; i < words.length; i++) {
    const tail = aliases.get(words.slice(i).join('_').toLowerCase());
    if (tail) return tail;
  }
  return undefined;
}

/** The shell command of a call to a shell tool, else undefined: the part of `normalizeCall` a quick look needs. */
export function shellCommandOf(call: ToolCall, aliases: AliasIndex): string | undefined {
  if (canonicalTool(call.tool, aliases).kind !== 'shell') return undefined;
  return commandsOf(call.args, isRecord(call.args) ? call.args : {})[0];
}

/**
 * Where the call runs: a shell tool's own working directory argument (`workdir`, `cwd`, `directory`) wins over the
 * agent's cwd, against which a relative one is resolved — the command runs there, not in the session's cwd.
 */
function workingDirectory(call: ToolCall, args: Record<string, unknown>, kind: ToolKind): string | undefined {
  const own = [
    args.workdir,
    args.cwd,
    kind === 'shell' ? args.directory : undefined,
    kind === 'shell' ? args.dir_path : undefined,
  ].find((v): v is string => typeof v === 'string' && v !== '');
  if (own === undefined) return call.cwd;
  if (/^[/~]/.test(own) || !call.cwd) return own;
  return `${call.cwd.replace(/\/+$/, '')}/${own}`;
}

/**
 * Every command the arguments carry, the first command-bearing key's first: a string, an argv array (`command`,
 * `cmd`, `script`), or a list of command lines (`commands`), under every key present — not the first key only.
 */
function commandsOf(raw: unknown, args: Record<string, unknown>): string[] {
  if (typeof raw === 'string') return [raw];
  if (Array.isArray(raw)) return [argvToShell(raw)];
  const commands: string[] = [];
  for (const key of COMMAND_KEYS) {
    const value = args[key];
    if (typeof value === 'string') commands.push(value);
    else if (Array.isArray(value) && value.every((w) => typeof w === 'string')) {
      // `commands: ["ls", "rm -rf ~"]` is a list of command lines; under the other keys an array is an argv.
      if (key === 'commands') commands.push(...(value as string[]));
      else commands.push(argvToShell(value as string[]));
    }
  }
  return [...new Set(commands)];
}

function pathsOf(args: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const key of PATH_KEYS) if (typeof args[key] === 'string' && args[key]) paths.push(args[key] as string);
  for (const key of PATH_LIST_KEYS) {
    const list = args[key];
    if (Array.isArray(list)) for (const p of list) if (typeof p === 'string' && p) paths.push(p);
  }
  // Codex apply_patch carries its files inside the patch text.
  const patch = typeof args.input === 'string' ? args.input : typeof args.patch === 'string' ? args.patch : undefined;
  if (patch) for (const m of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)) paths.push(m[1]!.trim());
  if (patch) for (const m of patch.matchAll(/^\*\*\* Move to: (.+)$/gm)) paths.push(m[1]!.trim());
  return paths;
}

/** Joins an argv array into one shell string with POSIX quoting, so it splits back into the same words. */
export function argvToShell(argv: readonly unknown[]): string {
  return argv.map((w) => shellQuote(String(w))).join(' ');
}

/** Quotes a word for POSIX sh only when it needs it. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** JSON with object keys sorted at every level, so equal args give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
    return out;
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
