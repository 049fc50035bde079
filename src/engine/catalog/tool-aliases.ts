// The tool alias table: every runtime's name for a tool, mapped to toolgate's canonical name.

/** Canonical tool kinds the pipeline knows how to read. */
export type ToolKind = 'shell' | 'read' | 'write' | 'edit' | 'list' | 'search' | 'fetch' | 'other';

export interface ToolAlias {
  /** Canonical name used in rules and the audit log. */
  canonical: string;
  kind: ToolKind;
  /** Names used by agent runtimes (matched case-insensitively). */
  aliases: string[];
  /** Which runtime uses which alias, for people reading the table. */
  note: string;
}

/**
 * Built-in aliases. Extra aliases come from the config file (`aliases: {"MyShell": "bash"}`).
 * Read-only kinds (`read`, `list`, `search`, `fetch`) are allowed in `read_only` mode.
 */
export const TOOL_ALIASES: readonly ToolAlias[] = [
  {
    canonical: 'bash',
    kind: 'shell',
    aliases: [
      'bash',
      'Bash',
      'shell',
      'run_shell_command',
      'exec_command',
      'local_shell',
      'container.exec',
      'unified_exec',
      'BashOutput',
      'execute_command',
      'run_command',
      'start_process',
      'run_terminal_cmd',
      'run_in_terminal',
    ],
    note: 'Claude Code Bash, Codex shell/exec_command/local_shell, Gemini run_shell_command',
  },
  {
    canonical: 'read_file',
    kind: 'read',
    aliases: ['read_file', 'Read', 'read', 'read_many_files', 'NotebookRead', 'view'],
    note: 'Claude Code Read, Gemini read_file/read_many_files',
  },
  {
    canonical: 'write_file',
    kind: 'write',
    aliases: ['write_file', 'Write', 'write', 'create_file'],
    note: 'Claude Code Write, Gemini write_file',
  },
  {
    canonical: 'edit_file',
    kind: 'edit',
    aliases: [
      'edit_file',
      'Edit',
      'MultiEdit',
      'replace',
      'apply_patch',
      'NotebookEdit',
      'str_replace_based_edit_tool',
      'edit',
    ],
    note: 'Claude Code Edit/MultiEdit/NotebookEdit, Gemini replace, Codex apply_patch',
  },
  {
    canonical: 'list_dir',
    kind: 'list',
    aliases: ['list_dir', 'LS', 'list_directory', 'ls'],
    note: 'Claude Code LS, Gemini list_directory',
  },
  { canonical: 'glob', kind: 'search', aliases: ['glob', 'Glob'], note: 'Claude Code Glob, Gemini glob' },
  {
    canonical: 'grep',
    kind: 'search',
    aliases: ['grep', 'Grep', 'search_file_content', 'grep_search'],
    note: 'Claude Code Grep, Gemini search_file_content',
  },
  {
    canonical: 'web_fetch',
    kind: 'fetch',
    aliases: [
      'web_fetch',
      'WebFetch',
      'fetch',
      'web_search',
      'WebSearch',
      'google_web_search',
      'fetch_url',
      'browser_navigate',
      'puppeteer_navigate',
      'playwright_navigate',
      'navigate',
    ],
    note: 'Claude Code WebFetch/WebSearch, Gemini web_fetch/google_web_search',
  },
];

/** Index from lower-cased alias to its entry. */
export type AliasIndex = ReadonlyMap<string, ToolAlias>;

/** Builds the alias index from the built-in table plus configured extras (`alias → canonical`). */
export function buildAliasIndex(extra: Record<string, string> = {}): AliasIndex {
  const index = new Map<string, ToolAlias>();
  for (const entry of TOOL_ALIASES) {
    index.set(entry.canonical.toLowerCase(), entry);
    for (const a of entry.aliases) index.set(a.toLowerCase(), entry);
  }
  for (const [alias, canonical] of Object.entries(extra)) {
    const target = index.get(canonical.toLowerCase()) ?? {
      canonical,
      kind: 'other' as const,
      aliases: [],
      note: 'configured',
    };
    index.set(alias.toLowerCase(), target);
  }
  return index;
}

/** The canonical entry for a tool name; unknown tools keep their own name (MCP tools in one spelling) with kind `other`. */
export function canonicalTool(name: string, index: AliasIndex): ToolAlias {
  return (
    index.get(name.toLowerCase()) ?? { canonical: mcpToolName(name), kind: 'other', aliases: [], note: 'unknown tool' }
  );
}

/**
 * An MCP tool's name in the `mcp__<server>__<tool>` spelling (Claude Code's and Codex's, toolgate's canonical one).
 * Gemini CLI names the same tool `mcp_<server>_<tool>` (its `formatMcpToolName`), and splits such a name back
 * (`parseMcpToolName`) at the first underscore after `mcp_`: the server is `[^_]+`, the tool is the rest. That is the
 * rule here too, so a name is read the way Gemini itself reads it: `mcp_desktop-commander_execute_command` is server
 * `desktop-commander`, tool `execute_command`; `mcp_my_server_read` is server `my`, tool `server_read` (a server
 * whose name has an underscore is ambiguous in Gemini's spelling; a hook input's `mcp_context` names it exactly).
 * Tool-name globs are read the same way (`mcp_github_*` → `mcp__github__*`, `mcp_*` → `mcp__*`). Names already
 * in the `mcp__` spelling (Gemini never makes a server name empty) and every other name are returned unchanged.
 */
export function mcpToolName(name: string): string {
  if (!/^mcp_/i.test(name) || /^mcp__/i.test(name)) return name;
  const rest = name.slice(4);
  const m = /^([^_]+)_(.+)$/.exec(rest);
  if (m) return `mcp__${m[1]}__${m[2]}`;
  // `mcp_*` (every MCP tool) and `mcp_<server>` without a tool.
  return rest === '*' ? 'mcp__*' : `mcp__${rest}`;
}
