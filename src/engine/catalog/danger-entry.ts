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
  /** The matcher over one simple command (besides `written`, which the catalogue tests on its write targets). */
  match?(view: CommandView): boolean;
  /**
   * For deletes: the paths the command removes when every one is known (undefined otherwise). A finding whose paths
   * are all disposable build output inside the working directory is dropped by decide() (disposable-deletes.ts).
   */
  deletes?(view: CommandView): readonly string[] | undefined;
  /**
   * For changes that only matter outside the project (`chmod +x`): the files changed when every one is known. The
   * finding is dropped by decide() when all of them lie inside the working directory.
   */
  inProject?(view: CommandView): readonly string[] | undefined;
  /**
   * For writes that only matter when the file is there (`dd of=`): the files written. decide() drops the finding when
   * the service can tell that none of them exists yet (its `realpath` finds none).
   */
  overwrites?(view: CommandView): readonly string[] | undefined;
  /**
   * Whether a file of `overwrites` is taken to be new when the service cannot tell (no `realpath`, or a directory this
   * host does not have): by its name. Without it every file is taken to be there.
   */
  presumedNew?(path: string, view: CommandView): boolean;
  /**
   * A fact the service must have found for the finding to count (the engine reads no file): `remote-credentials` —
   * a remote URL in the project's git config holds a credential. decide() drops the finding without it.
   */
  when?: 'remote-credentials';
  /**
   * A path this entry flags when it is written, for entries about what a write does (a start-up file, a git hook,
   * a system file): the catalogue tests every write target of a shell command with it (`matchDanger`), and a file
   * tool's write (`Write`, `Edit`, `apply_patch`) is judged by it too (`fileWriteFindings`).
   */
  written?(path: string, home: string): boolean;
  /** Programs whose writes `written` leaves to another entry or to nothing (`dd` onto a device is `dd-to-device`). */
  writtenExcept?: readonly string[];
  /**
   * The entry is about the host's own system files and processes (a system directory, pid 1): a command run inside a
   * container (`docker exec web kill -HUP 1`, `docker exec web chmod 644 /etc/nginx/nginx.conf`) is not judged by it.
   */
  hostOnly?: boolean;
  /** A URL this entry flags when it is fetched: `curl` in the shell and a fetch tool alike (`fetchFindings`). */
  fetched?(url: string): boolean;
  /**
   * A shell variable this entry flags when it is set to `value` (undefined: unset), for entries about what a
   * variable changes (`HISTFILE=/dev/null`, `unset HISTFILE`): the analyzer tests every assignment, `export`,
   * `declare` and `unset` of a script with it (`assignmentFindings`).
   */
  assigned?(name: string, value: string | undefined): boolean;
}
