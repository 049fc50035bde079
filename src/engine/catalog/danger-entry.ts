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
}
