// What a script has done so far that changes how its later commands are read: files written, programs copied under
// other names, links, arrays, downloads, git remotes, functions and secrets. Changed only through the named operations.
import type { ShellPath } from './types.ts';
import type { Word } from './word.ts';
import { DEEP, escapeLiteral, templateValue } from './template.ts';
import { FunctionTable } from './functions.ts';
import { SecretTracker } from './secrets.ts';

/** Paths as a later command names them: no leading `./`. */
function plain(path: string): string {
  return path.replace(/^\.\//, '');
}

export class ScriptState {
  /** Files written with known contents so far (`echo … > f`, `cat > f <<'EOF'`): running one runs its contents. */
  readonly written = new Map<string, string>();
  /** Files the script downloaded (downloads.ts adds them): running one runs code from the network. */
  readonly downloads = new Set<string>();
  /** Git remotes the script pointed at a URL (`git remote add x URL`): a later `git push x` is judged by it. */
  readonly addedRemotes = new Set<string>();
  /** The functions the script defines (functions.ts). */
  readonly functions = new FunctionTable();
  /** Variables and files holding a secret, and the printed secrets held until their output is known (secrets.ts). */
  readonly secrets = new SecretTracker();
  /** Programs copied or linked under another name (`cp /bin/rm ./x`, `hash -p /bin/rm ls`): name → program. */
  readonly #aliases = new Map<string, string>();
  /** Symbolic links made so far (`ln -s ~ h`): link path as written (no `./`) → target template. */
  readonly #links = new Map<string, string>();
  /**
   * Arrays assigned with static elements (`cmd=(rm -rf ~)`), and the positional parameters `set -- …` gave (under
   * `@`): what a command named `"${cmd[@]}"` or `"$@"` may run (resolve.ts).
   */
  readonly #arrays = new Map<string, Word[]>();

  /** A file now holds `contents` (undefined: contents no longer known). */
  wrote(path: string, contents: string | undefined): void {
    if (contents === undefined) this.written.delete(plain(path));
    else this.written.set(plain(path), contents);
  }

  /** The program a name was made to run (`./x` after `cp /bin/rm ./x`), if any. */
  aliasOf(name: string): string | undefined {
    return this.#aliases.size > 0 ? this.#aliases.get(plain(name)) : undefined;
  }

  /** `name` now runs `program`. */
  alias(name: string, program: string): void {
    this.#aliases.set(plain(name), program);
  }

  /** A symbolic link at `path` (as written) now leads to `target` (a template). */
  link(path: string, target: string): void {
    this.#links.set(path, target);
  }

  /**
   * The paths again with a link made earlier on the line replaced by its target (`ln -s ~ h && cat h/.ssh/id_rsa`,
   * `ln -s ~ /tmp/h && cd /tmp/h && cat .ssh/id_rsa`): a path is matched as it is reached, from where the command runs.
   */
  throughLinks(paths: ShellPath[]): ShellPath[] {
    if (this.#links.size === 0) return [];
    const out: ShellPath[] = [];
    for (const p of paths) {
      const template = plain(p.template ?? escapeLiteral(p.path));
      const relative = p.base !== undefined && !/^[/~]/.test(template);
      const full = relative ? `${escapeLiteral(p.base!.replace(/\/+$/, ''))}/${template}` : template;
      for (const [link, target] of this.#links) {
        const key = escapeLiteral(link);
        if (full !== key && !full.startsWith(`${key}/`)) continue;
        const t = `${target.replace(/\/+$/, '')}${full.slice(key.length)}`;
        const through: ShellPath = { ...p, template: t, path: templateValue(t).replace(DEEP, '**') };
        if (/^[/~]/.test(t)) delete through.base;
        out.push(through);
      }
    }
    return out;
  }

  /** True once any array (or `set --`) is known: only then are words looked up as arrays. */
  get hasArrays(): boolean {
    return this.#arrays.size > 0;
  }

  /** The elements of an array known here (`@` for the positional parameters). */
  array(name: string): Word[] | undefined {
    return this.#arrays.get(name);
  }

  /** An array now holds `elements` (undefined: not known, or no longer an array). */
  setArray(name: string, elements: Word[] | undefined): void {
    if (elements) this.#arrays.set(name, elements);
    else this.#arrays.delete(name);
  }
}
