// Settings files: the seed's `{"permissions": {"allow", "deny", "ask"}}` and Claude Code's settings.json, to and from rules.
import type { Effect } from '../types.ts';
import { isPatternError, parsePattern, type Rule } from './rule.ts';

/** A rule read from a settings file, in load order. */
export interface SettingsRule {
  effect: Effect;
  pattern: string;
}

/** The result of reading a settings file: what translated, and every entry that did not (returned, not thrown). */
export interface SettingsImport {
  rules: SettingsRule[];
  errors: string[];
}

/**
 * The order rules are stored in (deny, allow, ask lists; within each, declaration order). Which effect wins does not
 * depend on it: the pipeline checks deny, then ask, then allow rules (docs/rules.md "Order"), as Claude Code does.
 */
const LOAD_ORDER: readonly Effect[] = ['deny', 'allow', 'ask'];

/** Reads either format; Claude Code keys other than `permissions.allow|deny|ask` are ignored. */
export function rulesFromSettings(json: unknown): SettingsImport {
  const rules: SettingsRule[] = [];
  const errors: string[] = [];
  const permissions = (json as { permissions?: unknown } | null)?.permissions;
  if (!permissions || typeof permissions !== 'object')
    return {
      rules,
      errors: ['no "permissions" object: expected {"permissions": {"allow": [], "deny": [], "ask": []}}'],
    };
  for (const effect of LOAD_ORDER) {
    const list = (permissions as Record<string, unknown>)[effect];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.push(`permissions.${effect}: expected an array of patterns`);
      continue;
    }
    list.forEach((entry, i) => {
      if (typeof entry !== 'string')
        return errors.push(`permissions.${effect}[${i}]: expected a string, got ${JSON.stringify(entry)}`);
      const translated = translateClaudePattern(entry);
      const parsed = parsePattern(translated);
      if (isPatternError(parsed)) return errors.push(`permissions.${effect}[${i}] ${entry}: ${parsed.message}`);
      rules.push({ effect, pattern: translated });
    });
  }
  for (const key of Object.keys(permissions)) {
    if (!LOAD_ORDER.includes(key as Effect) && key !== 'defaultMode' && key !== 'additionalDirectories')
      errors.push(`permissions.${key}: not a rule list, ignored`);
  }
  return { rules, errors };
}

/** Claude Code spellings toolgate reads differently (a shell spec means the same in both: docs/rules.md). */
function translateClaudePattern(entry: string): string {
  const trimmed = entry.trim();
  // Claude's `Read(/x)` is relative to the settings file; `//x` is absolute. Ours: `/x` absolute, `./x` relative.
  const m = /^(Read|Edit|Write|MultiEdit|NotebookEdit)\(\/([^/].*)\)$/.exec(trimmed);
  if (m) return `${m[1]}(./${m[2]})`;
  return trimmed;
}

/** The seed format for a list of rules (deny, allow and ask lists, each in rule order). */
export function settingsFromRules(rules: readonly Rule[]): { permissions: Record<Effect, string[]> } {
  const permissions: Record<Effect, string[]> = { allow: [], deny: [], ask: [] };
  for (const r of [...rules].sort((a, b) => a.position - b.position)) permissions[r.effect].push(r.pattern);
  return { permissions };
}
