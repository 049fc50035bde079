// Which operands of a program are paths, and how it reads them: one table entry per program (or family of aliases)
// in operands/*.ts, looked up by name. paths.ts applies the entries to a command's words.
import type { Word } from './word.ts';
import { plainOperands, type OperandEntry } from './operands/support.ts';
import { SEARCH_ENTRIES } from './operands/searches.ts';
import { COPY_ENTRIES } from './operands/copies.ts';
import { TOOL_ENTRIES, VERSIONED_PYTHON, VERSIONED_PYTHON_ENTRY } from './operands/tools.ts';

export type { OperandEntry, TreeRead } from './operands/support.ts';

/** Every program's entry, family by family (a program is in one entry only). */
export const OPERAND_ENTRIES: readonly OperandEntry[] = [...SEARCH_ENTRIES, ...COPY_ENTRIES, ...TOOL_ENTRIES];

/** The entries by program name; a name in two entries is a mistake caught when the module loads. */
const ENTRY_OF = new Map<string, OperandEntry>();
for (const entry of OPERAND_ENTRIES) {
  for (const program of entry.programs) {
    if (ENTRY_OF.has(program)) throw new Error(`path operands: ${program} has two entries`);
    ENTRY_OF.set(program, entry);
  }
}

/** The entry that knows a program's operands, if one does. */
export function operandEntryFor(program: string): OperandEntry | undefined {
  return ENTRY_OF.get(program) ?? (VERSIONED_PYTHON.test(program) ? VERSIONED_PYTHON_ENTRY : undefined);
}

/**
 * The operands a whole-tree reader reads below, among the words after its name: its non-option words, less the
 * values of its options that name no input (`tar czf "$OUT" dist`: the archive written; `zip -r out.zip dist`: the
 * zip file; `docker build -t "$IMAGE" .`: the tag).
 */
export function treeOperands(program: string, rest: Word[]): Word[] {
  return operandEntryFor(program)?.treeOperands?.(rest) ?? plainOperands(rest);
}
