// The danger catalogue: every entry is data (id, risk, reason, examples) with a matcher over one simple command.
import type { Finding } from '../types.ts';
import type { CommandView } from '../shell/view.ts';
import type { DangerEntry } from './danger-entry.ts';
import { FILE_DANGERS } from './danger-files.ts';
import { GIT_DANGERS } from './danger-git.ts';
import { SYSTEM_DANGERS } from './danger-system.ts';
import { MACHINE_DANGERS } from './danger-machine.ts';
import { SECRET_DANGERS } from './danger-secrets.ts';
import { EXEC_DANGERS } from './danger-exec.ts';
import { URL_RUN_DANGERS } from './danger-url-run.ts';
import { INFRA_DANGERS } from './danger-infra.ts';
import { UPLOAD_DANGERS } from './danger-upload.ts';
import { PUBLISH_DANGERS } from './danger-publish.ts';
import { DEPLOY_DANGERS } from './danger-deploy.ts';
import { DATA_DANGERS } from './danger-data.ts';
import { MOVE_DANGERS } from './danger-moves.ts';
import { writeTargets } from './write-targets.ts';
import { unversioned } from './programs.ts';
import { CONTAINER_WRAPPERS } from '../shell/unwrap.ts';

export type { DangerEntry } from './danger-entry.ts';

/**
 * Every danger pattern, grouped by family. Risks: `high` = data loss or code from the network;
 * `medium` = privilege, process or service control. Order only matters for the order of findings.
 */
export const DANGER_CATALOG: readonly DangerEntry[] = [
  ...FILE_DANGERS,
  ...MOVE_DANGERS,
  ...EXEC_DANGERS,
  ...URL_RUN_DANGERS,
  ...GIT_DANGERS,
  ...INFRA_DANGERS,
  ...UPLOAD_DANGERS,
  ...PUBLISH_DANGERS,
  ...DEPLOY_DANGERS,
  ...SECRET_DANGERS,
  ...DATA_DANGERS,
  ...SYSTEM_DANGERS,
  ...MACHINE_DANGERS,
];

/** Entries that look at any program, and entries indexed by the programs they are limited to. */
const ANY_PROGRAM = DANGER_CATALOG.filter((e) => !e.programs);
const BY_PROGRAM = new Map<string, DangerEntry[]>();
for (const p of new Set(DANGER_CATALOG.flatMap((e) => e.programs ?? []))) {
  BY_PROGRAM.set(
    p,
    DANGER_CATALOG.filter((e) => !e.programs || e.programs.includes(p)),
  );
}

/** The findings of every catalogue entry that matches the command (in catalogue order), appended to `out`. */
export function matchDanger(view: CommandView, out: Finding[] = []): Finding[] {
  const entries =
    BY_PROGRAM.get(view.program) ??
    (/\d$/.test(view.program) ? BY_PROGRAM.get(unversioned(view.program)) : undefined) ??
    ANY_PROGRAM;
  const contained = view.wrappers.length > 0 && view.wrappers.some((w) => CONTAINER_WRAPPERS.has(w));
  for (const entry of entries) {
    if (contained && entry.hostOnly) continue;
    if (!writesFlagged(entry, view) && !entry.match?.(view)) continue;
    const finding: Finding = { id: entry.id, risk: entry.risk, reason: entry.reason, command: view.text };
    if (entry.when) finding.when = entry.when;
    const deletes = entry.deletes?.(view);
    if (deletes) finding.deletes = deletes;
    const inProject = entry.inProject?.(view);
    if (inProject) finding.inProject = inProject;
    const overwrites = entry.overwrites?.(view);
    if (overwrites) {
      finding.overwrites = overwrites;
      const presumedNew = overwrites.filter((p) => entry.presumedNew?.(p, view));
      if (presumedNew.length) finding.presumedNew = presumedNew;
    }
    out.push(finding);
  }
  return out;
}

/** Whether the command writes a path the entry's `written` flags (write targets are computed once per command). */
function writesFlagged(entry: DangerEntry, view: CommandView): boolean {
  if (!entry.written || entry.writtenExcept?.includes(view.program)) return false;
  for (const path of writeTargets(view)) if (entry.written(path, view.home)) return true;
  return false;
}

/** Entries that judge a path written, and a URL fetched, whatever tool does it, and a shell variable set. */
const WRITTEN = DANGER_CATALOG.filter((e) => e.written);
const FETCHED = DANGER_CATALOG.filter((e) => e.fetched);
const ASSIGNED = DANGER_CATALOG.filter((e) => e.assigned);

/**
 * The findings of a file tool writing these absolute paths (Write, Edit, MultiEdit, apply_patch): the entries a
 * shell command writing there raises, so `Write ~/.bashrc` is asked about as `echo … >> ~/.bashrc` is.
 */
export function fileWriteFindings(paths: readonly string[], home: string): Finding[] {
  const out: Finding[] = [];
  for (const entry of WRITTEN) {
    const path = paths.find((p) => entry.written!(p, home));
    if (path !== undefined) out.push({ id: entry.id, risk: entry.risk, reason: entry.reason, command: path });
  }
  return out;
}

/** The findings of a fetch tool asking for this URL: the entries `curl` of it raises (`cloud-metadata`). */
export function fetchFindings(url: string): Finding[] {
  const out: Finding[] = [];
  for (const entry of FETCHED)
    if (entry.fetched!(url.trim())) out.push({ id: entry.id, risk: entry.risk, reason: entry.reason, command: url });
  return out;
}

/**
 * The findings of a shell variable set to `value` (undefined: unset) by `text` (`export HISTFILE=/dev/null`,
 * `unset HISTFILE`), appended to `out`.
 */
export function assignmentFindings(name: string, value: string | undefined, text: string, out: Finding[]): void {
  for (const entry of ASSIGNED)
    if (entry.assigned!(name, value)) out.push({ id: entry.id, risk: entry.risk, reason: entry.reason, command: text });
}
