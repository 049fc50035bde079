// A ShellPath record built from a word or a template: what one command (or a loop, or an assignment) touches.
import type { ShellPath } from './types.ts';
import type { CommandView } from './view.ts';
import type { Word } from './word.ts';
import { DEEP, templateHasGlob, templateIsDynamic, templateValue } from './template.ts';

/** A path of a command: a word's own template, or `template` (an option's value, a path inside the word). */
export function shellPath(
  word: Word | string,
  kind: ShellPath['kind'],
  view: CommandView,
  base: string | undefined,
  template?: string,
): ShellPath {
  const t = template ?? (typeof word === 'string' ? word : word.template);
  const p: ShellPath = {
    path: templateValue(t).replace(DEEP, '**'),
    kind,
    glob: templateHasGlob(t) || t.includes(DEEP),
    dynamic: templateIsDynamic(t),
    command: view.text,
    template: t,
  };
  if (base !== undefined) p.base = base;
  return p;
}

/** A word a loop or a glob reads as paths outside any command (`for f in ~/.ssh/*`). */
export function wordPath(word: Word, command: string, base: string | undefined): ShellPath {
  const p: ShellPath = {
    path: templateValue(word.template),
    kind: 'argument',
    glob: word.glob,
    dynamic: word.dynamic,
    command,
    template: word.template,
  };
  if (base !== undefined) p.base = base;
  return p;
}

/** Everything below a directory a word names (`GIT_WORK_TREE=~`, a find's root listed to xargs). */
export function treePath(word: Word, command: string, base: string | undefined, template: string): ShellPath {
  const t = below(template);
  return { ...wordPath(word, command, base), path: templateValue(t).replace(DEEP, '**'), glob: true, template: t };
}

/** A template for everything below a directory's template (`~/src/` → `~/src/**`). */
export function below(template: string): string {
  return `${template.replace(/\/+$/, '')}/${DEEP}`;
}
