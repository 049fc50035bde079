// Loads the tree-sitter-bash grammar from the installed package and builds the shell analyzer (the only I/O it needs).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { createShellAnalyzer, type ShellAnalyzer, type ShellAnalyzerOptions } from '../engine/shell/analyzer.ts';

let language: Promise<Language> | undefined;

/** The bash Language, loaded once per process (Parser.init and the wasm read are not repeated). */
export function loadBashLanguage(): Promise<Language> {
  language ??= (async () => {
    await Parser.init();
    // Resolved through the package system, so it works from any cwd and with hoisted node_modules.
    const wasm = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    return Language.load(await readFile(wasm));
  })();
  return language;
}

/** Loads the grammar and returns a ready analyzer. */
export async function loadShellAnalyzer(options: ShellAnalyzerOptions): Promise<ShellAnalyzer> {
  return createShellAnalyzer(await loadBashLanguage(), options);
}
