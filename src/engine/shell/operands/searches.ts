// Operands of searches and text tools: grep and its kin (the pattern first, a recursive search reads a tree), sed,
// awk, jq, perl (their program first), find and locate (the secret files a name pattern lists).
import type { Word } from '../word.ts';
import { sedReadFiles, sedScripts, sedWriteFiles } from '../../catalog/sed-script.ts';
import { findRootRange, findSecretPaths, locateSecretPaths } from '../find-paths.ts';
import { hasShort, type OperandEntry } from './support.ts';

/** A search given only its pattern (`cd ~ && grep -r BEGIN`) reads the directory it runs in. */
export function patternOnly(operands: Word[], args: string[]): boolean {
  return operands.length <= (args.some((a) => /^(-e|-f|--regexp|--file)/.test(a)) ? 0 : 1);
}

export const SEARCH_ENTRIES: OperandEntry[] = [
  {
    programs: ['grep', 'egrep', 'fgrep'],
    patternFirst: true,
    readsTree: (args) =>
      hasShort(args, /[rR]/) ||
      args.includes('--recursive') ||
      args.includes('--dereference-recursive') ||
      args.includes('--directories=recurse') ||
      args.some((a, i) => a === '-d' && args[i + 1] === 'recurse'),
    searchesCwd: patternOnly,
  },
  {
    programs: ['rg'],
    patternFirst: true,
    // `-u -u` is `-uu`; `--unrestricted` twice likewise.
    readsTree: (args) =>
      args.some((a) => a === '--hidden' || a === '-uu' || a === '-uuu' || a === '-.') ||
      args.filter((a) => a === '-u' || a === '--unrestricted').length >= 2,
    searchesCwd: patternOnly,
  },
  {
    programs: ['ag'],
    patternFirst: true,
    readsTree: (args) =>
      args.some((a) => a === '--hidden' || a === '-u' || a === '--unrestricted' || a === '-a' || a === '--all-types'),
    searchesCwd: patternOnly,
  },
  { programs: ['ack'], patternFirst: true, readsTree: () => true, searchesCwd: patternOnly },
  { programs: ['ugrep', 'ug', 'sift'], readsTree: (args) => hasShort(args, /[rR]/) || args.includes('--recursive') },
  { programs: ['pt'], readsTree: (args) => args.includes('--hidden') },
  {
    programs: ['sed'],
    patternFirst: true,
    // The files sed's `r`/`w` commands read and write.
    textPaths: (view) => sedScripts(view.args).flatMap((script) => [...sedReadFiles(script), ...sedWriteFiles(script)]),
  },
  // awk's `-v name=value`, `-F sep`: an option's value, not its program.
  {
    programs: ['awk', 'gawk', 'mawk'],
    patternFirst: true,
    valuesBeforePattern: /^(-v|-F|--assign|--field-separator)$/,
  },
  { programs: ['jq', 'yq'], patternFirst: true },
  { programs: ['perl'], patternFirst: true, codeGiven: /^-[a-zA-Z0-9]*[eE]/ },
  {
    programs: ['find'],
    listedSecrets: findSecretPaths,
    // `find DIR -exec cat {} +` reads every file below DIR.
    readsTree: (args) => args.some((a) => /^-(exec|execdir|ok|okdir)$/.test(a)),
    // find's paths are the words before its first expression (`find . -name x -exec cat {} +`), after its options.
    treeOperands: (rest) => {
      const { start, end } = findRootRange(rest.map((w) => w.value));
      return rest.slice(start, end);
    },
    // A find given no path reads the directory it runs in.
    searchesCwd: (operands) => operands.length === 0,
  },
  // Programs that list every indexed path containing a pattern (`locate id_rsa | xargs cat`).
  { programs: ['locate', 'plocate', 'mlocate', 'slocate'], listedSecrets: locateSecretPaths },
];
