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
  /** Stable JSON of the args (sorted keys), for rules on other tools and for dedupe. */
  canonicalArgs: string;
  cwd?: string;
  agentId?: string;
  sessionId?: string;
  /** Why the call's arguments could not be read, when they could not (the pipeline asks). */
  problem?: string;
}

const PATH_KEYS = ['path', 'file_path', 'filePath', 'notebook_path', 'notebookPath', 'absolute_path', 'dir_path', 'directory', 'target_file', 'file',
  // MCP filesystem servers: move_file / copy_file name both ends.
  'source', 'destination', 'src', 'dest', 'old_path', 'new_path', 'oldPath', 'newPath'];
const PATH_LIST_KEYS = ['paths', 'file_paths', 'files'];
const COMMAND_KEYS = ['command', 'cmd', 'script', 'commands'];
const URL_KEYS = ['url', 'uri'];

/** Reduces a call to its canonical tool and subjects. Never throws: an unreadable shape sets `problem`. */
export function normalizeCall(call: ToolCall, aliases: AliasIndex): NormalizedCall {
  const alias = canonicalTool(call.tool, aliases);
  const args = isRecord(call.args) ? call.args : {};
  // An MCP server's shell or fetch tool (`mcp__desktop-commander__execute_command`, `mcp__fetch__fetch`) is read as
  // the built-in tool of its name: its command is analysed, its URL checked (under its own name for rules).
  const own = alias.kind === 'other' ? mcpOwnAlias(call.tool, aliases) : undefined;
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
    const command = commandOf(call.args, args);
    if (command === undefined) normalized.problem = `no command found in the arguments of ${call.tool} (expected one of ${COMMAND_KEYS.join(', ')}, a string or an argv array)`;
    else normalized.command = command;
  } else if (kind === 'fetch') {
    // Gemini's web_fetch has no url argument: the URLs are in its prompt.
    const url = (URL_KEYS.map((k) => args[k]).find((v) => typeof v === 'string') as string | undefined)
      ?? (typeof args.prompt === 'string' ? /\b(?:https?|file):\/\/[^\s"'<>)]+/i.exec(args.prompt)?.[0] : undefined);
    if (url) normalized.url = url;
    // `file:///root/.ssh/id_rsa` reads a local file: its path is checked like a Read's.
    const local = url === undefined ? undefined : fileUrlPath(url);
    if (local !== undefined) normalized.paths = [local];
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
  return normalized;
}

/** The built-in tool an MCP tool (`mcp__<server>__<tool>`) is named after, when its own name is one's alias. */
function mcpOwnAlias(tool: string, aliases: AliasIndex): ToolAlias | undefined {
  const m = /^mcp__.+?__(.+)$/.exec(tool);
  return m ? aliases.get(m[1]!.toLowerCase()) : undefined;
}

/** The shell command of a call to a shell tool, else undefined: the part of `normalizeCall` a quick look needs. */
export function shellCommandOf(call: ToolCall, aliases: AliasIndex): string | undefined {
  if (canonicalTool(call.tool, aliases).kind !== 'shell') return undefined;
  return commandOf(call.args, isRecord(call.args) ? call.args : {});
}

/**
 * Where the call runs: a shell tool's own working directory argument (`workdir`, `cwd`, `directory`) wins over the
 * agent's cwd, against which a relative one is resolved — the command runs there, not in the session's cwd.
 */
function workingDirectory(call: ToolCall, args: Record<string, unknown>, kind: ToolKind): string | undefined {
  const own = [args.workdir, args.cwd, kind === 'shell' ? args.directory : undefined, kind === 'shell' ? args.dir_path : undefined].find((v): v is string => typeof v === 'string' && v !== '');
  if (own === undefined) return call.cwd;
  if (/^[/~]/.test(own) || !call.cwd) return own;
  return `${call.cwd.replace(/\/+$/, '')}/${own}`;
}

function commandOf(raw: unknown, args: Record<string, unknown>): string | undefined {
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) return argvToShell(raw);
  for (const key of COMMAND_KEYS) {
    const value = args[key];
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((w) => typeof w === 'string')) return argvToShell(value as string[]);
  }
  return undefined;
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

