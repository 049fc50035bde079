// The shape of one danger catalogue entry.
import type { Risk } from '../types.ts';
import type { CommandView } from '../shell/view.ts';

/** One danger pattern: data a person can read (id, risk, reason, examples) plus the matcher over a command. */
export interface DangerEntry {
  id: string;
  risk: Risk;
  reason: string;
  /** Commands that must raise this entry (the catalogue test runs every one). */
  examples: string[];
  /** The programs this entry can match, when it only looks at those (lets the catalogue skip it cheaply). */
  programs?: readonly string[];
  match(view: CommandView): boolean;
  /**
   * The matcher looks only at the files the command writes (its write targets): a command that writes nothing
   * skips it without a call. Most commands write nothing, and every command is offered to the entries that name no
   * `programs`.
   */
  onlyWhenWriting?: boolean;
  /**
   * A path this entry flags when it is written, for entries about what a write does (a start-up file, a git hook,
   * a system file): the shell matcher tests a command's write targets with it, and a file tool's write (`Write`,
   * `Edit`, `apply_patch`) is judged by it too (`fileWriteFindings`).
   */
  written?(path: string, home: string): boolean;
  /** A URL this entry flags when it is fetched: `curl` in the shell and a fetch tool alike (`fetchFindings`). */
  fetched?(url: string): boolean;
  /**
   * A shell variable this entry flags when it is set to `value` (undefined: unset), for entries about what a
   * variable changes (`HISTFILE=/dev/null`, `unset HISTFILE`): the analyzer tests every assignment, `export`,
   * `declare` and `unset` of a script with it (`assignmentFindings`).
   */
  assigned?(name: string, value: string | undefined): boolean;
}
