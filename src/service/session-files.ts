// What an agent wrote with file tools in a session: a script it writes with Write and runs in a later Bash call
// (`bash deploy.sh`, `./deploy.sh`) is judged by its contents, as one written and run on the same command line is.
import type { AliasIndex } from '../engine/catalog/tool-aliases.ts';
import { shellCommandOf, type NormalizedCall, type ToolCall } from '../engine/normalize.ts';
import { absolutePath } from '../engine/paths.ts';

/** Limits of the memory: it holds only what a later command may run, never the project. */
export interface SessionFilesLimits {
  /** Sessions remembered (least recently used go first). */
  sessions: number;
  /** Files remembered per session (least recently written go first). */
  filesPerSession: number;
  /** Larger contents are not remembered (the analyzer would not read a larger command either). */
  maxBytes: number;
}

const DEFAULTS: SessionFilesLimits = { sessions: 256, filesPerSession: 64, maxBytes: 64 * 1024 };

/** A remembered file: its path, its contents, and its name (what a command that runs it must contain), cut once. */
interface Remembered {
  path: string;
  contents: string;
  name: string;
}

/** One replacement an Edit makes (`old_string` → `new_string`, every occurrence with `replace_all`). */
interface Replacement {
  from: string;
  to: string;
  all: boolean;
}

/**
 * Per session (or, without one, per agent): absolute path → the contents its file tools wrote there. Write sets a
 * file; Edit and MultiEdit apply their replacements to what is remembered (a file whose edit does not apply is
 * forgotten: its contents are no longer known). Nothing is read from disk; a file changed by a shell command keeps
 * what the file tools wrote, which can only make a later run of it be judged by more, never by less, than before.
 */
export class SessionFiles {
  private readonly sessions = new Map<string, Map<string, Remembered>>();
  private readonly limits: SessionFilesLimits;

  constructor(limits: Partial<SessionFilesLimits> = {}) {
    this.limits = { ...DEFAULTS, ...limits };
  }

  /** Remembers what a file-tool call writes (call as normalized, args as sent). */
  record(call: NormalizedCall, args: unknown, home: string): void {
    if ((call.kind !== 'write' && call.kind !== 'edit') || !isRecord(args)) return;
    const key = sessionKey(call);
    if (key === undefined) return;
    const patch = typeof args.input === 'string' ? args.input : typeof args.patch === 'string' ? args.patch : undefined;
    if (patch !== undefined && patch.includes('*** Begin Patch')) return this.patch(key, patch, home, call.cwd);
    if (call.paths.length !== 1) return;
    const path = absolutePath(call.paths[0]!, home, call.cwd);
    if (typeof args.content === 'string') return this.set(key, path, args.content);
    const edits = replacements(args);
    if (edits === undefined) return this.forget(key, path);
    const before = this.sessions.get(key)?.get(path)?.contents;
    if (before === undefined) return;
    let after = before;
    for (const edit of edits) {
      if (edit.from === '' || !after.includes(edit.from)) return this.forget(key, path);
      // What the replacement would grow to is counted first: a short string replaced everywhere by a long one must
      // not build a string larger than the memory keeps (or than V8 can hold).
      const count = edit.all ? after.split(edit.from).length - 1 : 1;
      if (after.length + count * (edit.to.length - edit.from.length) > this.limits.maxBytes)
        return this.forget(key, path);
      after = edit.all ? after.split(edit.from).join(edit.to) : after.replace(edit.from, () => edit.to);
    }
    this.set(key, path, after);
  }

  /**
   * The remembered files a shell call of this session may run: those whose name appears in its command. Calls of a
   * session with nothing remembered cost one map lookup.
   */
  filesFor(call: ToolCall, aliases: AliasIndex): ReadonlyMap<string, string> | undefined {
    const key = sessionKey(call);
    const files = key === undefined ? undefined : this.sessions.get(key);
    if (!files || files.size === 0) return undefined;
    const command = shellCommandOf(call, aliases);
    if (command === undefined) return undefined;
    let found: Map<string, string> | undefined;
    // The names are cut when a file is remembered: a session that wrote 64 files made 64 strings per shell call.
    // Over the values, not the entries: an entry is a [path, file] array made per file per shell call.
    for (const file of files.values()) {
      if (!command.includes(file.name)) continue;
      (found ??= new Map()).set(file.path, file.contents);
    }
    return found;
  }

  /**
   * Codex's apply_patch: an `*** Add File:` section's `+` lines are the new file; an updated, moved or deleted file
   * is forgotten (its hunks are not applied here).
   */
  private patch(key: string, patch: string, home: string, cwd: string | undefined): void {
    const sections = patch.split(/^(?=\*\*\* (?:Add|Update|Delete) File: )/m);
    for (const section of sections) {
      const m = /^\*\*\* (Add|Update|Delete) File: (.+)$/m.exec(section);
      if (!m) continue;
      const path = absolutePath(m[2]!.trim(), home, cwd);
      if (m[1] !== 'Add') {
        this.forget(key, path);
        continue;
      }
      const lines = section.split('\n').slice(1);
      const body: string[] = [];
      for (const line of lines) {
        if (line.startsWith('***')) break;
        if (line.startsWith('+')) body.push(line.slice(1));
      }
      this.set(key, path, body.length ? `${body.join('\n')}\n` : '');
    }
  }

  private set(key: string, path: string, contents: string): void {
    if (Buffer.byteLength(contents, 'utf8') > this.limits.maxBytes) return this.forget(key, path);
    let files = this.sessions.get(key);
    if (files) this.sessions.delete(key);
    else files = new Map();
    this.sessions.set(key, files); // most recently used last
    files.delete(path);
    files.set(path, { path, contents, name: path.slice(path.lastIndexOf('/') + 1) });
    if (files.size > this.limits.filesPerSession) files.delete(files.keys().next().value!);
    if (this.sessions.size > this.limits.sessions) this.sessions.delete(this.sessions.keys().next().value!);
  }

  private forget(key: string, path: string): void {
    this.sessions.get(key)?.delete(path);
  }
}

/** Whose memory a call uses: its session, else its agent; anonymous calls share none. */
function sessionKey(call: Pick<ToolCall, 'sessionId' | 'agentId'>): string | undefined {
  if (call.sessionId) return `s:${call.sessionId}`;
  if (call.agentId) return `a:${call.agentId}`;
  return undefined;
}

/** An Edit's (`old_string`/`new_string`, `replace_all`) or a MultiEdit's (`edits: […]`) replacements, in order. */
function replacements(args: Record<string, unknown>): Replacement[] | undefined {
  const one = (e: unknown): Replacement | undefined =>
    isRecord(e) && typeof e.old_string === 'string' && typeof e.new_string === 'string'
      ? { from: e.old_string, to: e.new_string, all: e.replace_all === true }
      : undefined;
  if (Array.isArray(args.edits)) {
    const edits = args.edits.map(one);
    return edits.every((e): e is Replacement => e !== undefined) ? edits : undefined;
  }
  const edit = one(args);
  return edit ? [edit] : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
