// What a package manager will run that the command line made: scripts it set or wrote, settings that run code.
import type { NestedCode } from './nested.ts';
import { atBase, writtenContents, type CommandView } from './view.ts';
import { literalWord, unknownWord, type Word } from './word.ts';
import { variableCode } from './code-variables.ts';
import { optionValue } from '../catalog/flags.ts';

/** Package managers that run package.json's scripts. */
export const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/**
 * What a package manager will run of the command line's own making: `npm pkg set scripts.test='…'` (the script's
 * command line), `npm config set node-options '--require /tmp/x.js'` (loaded by every node npm starts), and, when the
 * command line wrote package.json earlier with known contents, that file's scripts once npm runs any (install, test,
 * run, start, …).
 */
export function packageScripts(out: NestedCode[], view: CommandView, args: Word[]): void {
  const words = args.filter((w) => !w.value.startsWith('-'));
  const [sub, action] = [words[0]?.value, words[1]?.value];
  if (sub === 'pkg' && action === 'set') {
    for (const w of words.slice(2)) {
      if (w.dynamic) continue;
      const m = /^scripts\.[^=]+=(.+)$/s.exec(w.value);
      if (m) text(out, m[1]!);
      // `npm pkg set scripts='{"test":"…"}' --json`: the whole scripts object.
      const json = /^scripts=(\{.*\})$/s.exec(w.value);
      if (json) for (const script of scriptsOf(json[1]!)) text(out, script);
    }
    return;
  }
  // `npm config set node-options '--require …'`, `npm set browser '…'`, `npm c set editor …`: settings npm acts on.
  if (((sub === 'config' || sub === 'c') && action === 'set') || sub === 'set') {
    const from = args.indexOf(words[sub === 'set' ? 0 : 1]!) + 1;
    npmSetting(
      out,
      args
        .slice(from)
        .filter((w) => !/^(-g|--global|--location(=.*)?|-L|project|user|global)$/.test(w.value))
        .map((w) => w.value)
        .join(' '),
    );
    return;
  }
  if (
    sub === undefined ||
    /^(pkg|config|c|set|get|view|info|ls|list|outdated|search|help|version|whoami|why|explain)$/.test(sub)
  )
    return;
  // A package.json or .npmrc this command line wrote: the scripts npm runs, the settings it loads — in the directory
  // npm works in (after `cd sub`, or `--prefix sub` / `-C sub`).
  const prefix = optionValue(
    args.map((w) => w.value),
    ['--prefix', '-C', '--dir'],
  );
  const dir = prefix !== undefined ? atBase(prefix, view.base) : view.base;
  const at = (name: string) => (dir === undefined || dir === '.' ? name : `${dir.replace(/\/+$/, '')}/${name}`);
  const contents = writtenContents(view.written, at('package.json'));
  if (contents !== undefined) for (const script of scriptsOf(contents)) text(out, script);
  const npmrc = writtenContents(view.written, at('.npmrc'));
  if (npmrc !== undefined) for (const line of npmrc.split('\n')) npmSetting(out, line.trim());
}

/** The script command lines of a package.json text (or of its scripts object). */
function scriptsOf(json: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const scripts =
    parsed && typeof parsed === 'object' && 'scripts' in parsed ? (parsed as { scripts: unknown }).scripts : parsed;
  return scripts && typeof scripts === 'object'
    ? Object.values(scripts).filter((v): v is string => typeof v === 'string')
    : [];
}

/** An npm setting (`key value` or `key=value`) that runs code: node-options, browser, editor, script-shell, onload-script. */
function npmSetting(out: NestedCode[], setting: string): void {
  const m = /^([\w-]+)\s*[= ]\s*(.+)$/s.exec(setting);
  if (!m) return;
  const key = m[1]!.toLowerCase().replace(/_/g, '-');
  const value = m[2]!.trim().replace(/^(["'])(.*)\1$/s, '$2');
  if (key === 'node-options') {
    const code = variableCode('NODE_OPTIONS', value);
    for (const c of code.scripts) text(out, c);
    if (code.unknown) out.push({ kind: 'script', word: unknownWord('node-options') });
  } else if (key === 'browser' || key === 'editor' || key === 'script-shell' || key === 'shell') text(out, value);
  else if (key === 'onload-script') out.push({ kind: 'script', word: unknownWord('onload-script') });
}

/** A command line to walk. */
function text(out: NestedCode[], s: string): void {
  out.push({ kind: 'script', word: literalWord(s) });
}
