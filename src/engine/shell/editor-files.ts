// The files vim's (and ex's, less's) commands open, read or write: `vim -c 'r ~/.ssh/id_rsa'`, `ex -s <<< 'e F'`.
import type { CommandView } from './view.ts';
import { editorCommands } from '../catalog/danger-exec.ts';

/** An editor command that opens, reads or writes a file (`:r ~/.ssh/id_rsa`, `:e F`, `:sp F`, `:w F`, `:source F`, `:argadd F`). */
const EDITOR_FILE_COMMAND =
  /^[\s:]*(?:(?:sil(?:ent)?!?|vert(?:ical)?|tab|lefta(?:bove)?|abo(?:veleft)?|rightb(?:elow)?|bel(?:owright)?|to(?:pleft)?|bo(?:tright)?|keepalt|keepj(?:umps)?|noa(?:utocmd)?|windo|bufdo|tabdo|argdo|g(?:lobal)?\/[^/]*\/)\s*)*[\d.,$%'<>]*\s*(?:r(?:ead)?|e(?:dit)?|ex|vi(?:sual)?|sp(?:lit)?|spl|vs(?:plit)?|tabe(?:dit)?|tabnew|tab\s+drop|drop|new|vnew|vie(?:w)?|sv(?:iew)?|so(?:urce)?|w(?:rite)?|wq|x(?:it)?|sav(?:eas)?|bad(?:d)?|ar(?:gs)?|arga(?:dd)?|argadd|arge(?:dit)?|fin(?:d)?|sf(?:ind)?|ped(?:it)?|diffs(?:plit)?|n(?:ext)?|ed|luafile|pyf(?:ile)?|rubyf(?:ile)?)!?(?:\s+\+\+\S+)*\s+(?:>>\s*)?(?!!)(\S.*?)\s*$/;
/** `:cd DIR` / `:lcd DIR`: later relative names are below DIR. */
const EDITOR_CD = /^\s*:?\s*(?:sil(?:ent)?!?\s+)?(?:cd|lcd|tcd|chd(?:ir)?)\s+(\S.*?)\s*$/;

/**
 * The files the `-c` / `--cmd` / `+cmd` commands of vim (and less's `+:e F`) open: commands split at `|`, `exe "…"`
 * unwrapped, `~` and `$HOME` expanded as the editor does, relative names after `:cd DIR` below DIR.
 */
export function editorFiles(view: CommandView, home: string): string[] {
  const out: string[] = [];
  let dir: string | undefined;
  const expand = (name: string) => {
    const p = name.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
    return dir !== undefined && !/^[/~$]/.test(p) ? `${dir}/${p}` : p;
  };
  // `ex -s <<'EOF'⏎r ~/.netrc⏎…`: an editor reading its commands from stdin (with -s / -es) runs those lines too.
  const commands = editorCommands(view.args);
  if (
    view.stdin?.text !== undefined &&
    (view.program === 'ex' || view.args.some((a) => /^-[a-zA-Z]*[es][a-zA-Z]*$/.test(a)))
  )
    commands.push(...view.stdin.text.split('\n'));
  for (const written of commands) {
    const exe = /^\s*:?\s*exe(?:cute)?\s+(["'])(.*)\1\s*$/.exec(written);
    const cmd = exe ? exe[2]! : written;
    const cd = EDITOR_CD.exec(cmd);
    if (cd) {
      dir = expand(cd[1]!);
      continue;
    }
    const m = EDITOR_FILE_COMMAND.exec(cmd);
    if (m) out.push(expand(m[1]!));
  }
  return out;
}
