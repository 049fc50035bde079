// Whether the sidecar runs where the agents it serves cannot reach it: as its own user, its data out of their home.
//
// toolgate's analysis stops an agent from *asking* to read its tokens or database, stop it, or edit its files; it
// cannot stop a process of the same user that does those things some way the analysis does not see. Running the
// sidecar as another user closes that class: its data dir (0700), tokens, database and /proc/<pid>/environ are then
// out of reach of the agents' user (docs/security.md, "Running toolgate as its own user").
//
// The agents' uid is not visible portably (a loopback TCP peer carries no uid), so this is a heuristic from facts
// about the sidecar itself: running as root; running as a login user (uid >= 1000) with the data dir inside that
// user's own home — how one runs it by hand next to one's agents; and, on Linux, processes of agents (claude, codex,
// gemini, aider, …) running under the same uid right now. A service account (systemd DynamicUser=/StateDirectory=,
// a container's user) with its data elsewhere gives no warning.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { sep } from 'node:path';

/** What the check looks at; `inspectDeployment` gathers them from this process. */
export interface DeploymentFacts {
  uid: number | undefined;
  user: string | undefined;
  home: string;
  dataDir: string;
  /** Owner uid and permission bits of the data dir, when it exists. */
  dataDirOwner?: number;
  dataDirMode?: number;
  /** Names of agent programs running under the same uid (Linux /proc), at most a few. */
  agentProcesses: string[];
  /** Token variables present in the environment. */
  tokenVariables: string[];
}

/** Programs that are coding agents (their process name, or their script's name under node/python). */
const AGENT_PROGRAMS = /^(?:claude|codex|gemini|aider|cursor-agent|opencode|goose|amp|qwen|crush)$/;

/** An agent's npm package in a script path (`node …/@anthropic-ai/claude-code/cli.js`). */
const AGENT_PACKAGES = /\/(claude-code|codex|gemini-cli|aider-chat)\//;

/** The warnings for a deployment; empty when it looks like a sidecar of its own. */
export function deploymentWarnings(f: DeploymentFacts): string[] {
  const warnings: string[] = [];
  const who = `${f.user ?? 'this user'}${f.uid === undefined ? '' : ` (uid ${f.uid})`}`;
  if (f.uid === 0)
    warnings.push(
      "toolgate runs as root: run it as its own unprivileged user (systemd DynamicUser=, or the container image's user)",
    );
  const inHome =
    f.home !== '/' && (f.dataDir === f.home || f.dataDir.startsWith(f.home.endsWith(sep) ? f.home : f.home + sep));
  if (f.uid !== undefined && f.uid >= 1000 && inHome) {
    warnings.push(
      `toolgate runs as the login user ${who} with its data in ${f.dataDir}, inside that user's home: agents running as ${f.user ?? 'the same user'} can read its tokens and database and stop it by means its analysis does not see. Run it as its own user (docs/security.md, "Running toolgate as its own user")`,
    );
  }
  if (f.agentProcesses.length > 0) {
    warnings.push(
      `agents run under the same uid as toolgate (${f.agentProcesses.join(', ')}): they can reach toolgate's files and process directly. Run toolgate as its own user (docs/security.md)`,
    );
  }
  if (f.dataDirMode !== undefined && (f.dataDirMode & 0o077) !== 0)
    warnings.push(
      `${f.dataDir} is readable by other users (mode ${(f.dataDirMode & 0o777).toString(8)}): chmod 700 ${f.dataDir}`,
    );
  if (f.uid !== undefined && f.dataDirOwner !== undefined && f.dataDirOwner !== f.uid)
    warnings.push(`${f.dataDir} belongs to uid ${f.dataDirOwner}, not to toolgate's uid ${f.uid}`);
  if (f.tokenVariables.length > 0) {
    warnings.push(
      `${f.tokenVariables.join(' and ')} set in the environment: Linux shows a process's starting environment in /proc/<pid>/environ to its own user for its whole life; prefer the config file's "tokens" (mode 0600) or tokens.json`,
    );
  }
  return warnings;
}

/** Gathers the facts about this process (and, on Linux, the agents of its uid). */
export function inspectDeployment(dataDir: string, env: NodeJS.ProcessEnv, home: string): DeploymentFacts {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  let dataDirOwner: number | undefined;
  let dataDirMode: number | undefined;
  try {
    const st = statSync(dataDir);
    dataDirOwner = st.uid;
    dataDirMode = st.mode;
  } catch {
    // Not created yet.
  }
  return {
    uid,
    user: env.USER ?? env.LOGNAME,
    home,
    dataDir,
    dataDirOwner,
    dataDirMode,
    agentProcesses: uid === undefined ? [] : agentProcessesOf(uid),
    tokenVariables: ['TOOLGATE_AGENT_TOKEN', 'TOOLGATE_REVIEWER_TOKEN'].filter((n) => env[n]),
  };
}

/** Agent programs running under `uid` (Linux only; empty elsewhere). Bounded: the first 8192 processes. */
export function agentProcessesOf(uid: number, proc = '/proc'): string[] {
  let pids: string[];
  try {
    pids = readdirSync(proc)
      .filter((n) => /^\d+$/.test(n))
      .slice(0, 8192);
  } catch {
    return [];
  }
  const found = new Set<string>();
  for (const pid of pids) {
    if (pid === String(process.pid)) continue;
    try {
      const status = readFileSync(`${proc}/${pid}/status`, 'utf8');
      const real = /^Uid:\s+(\d+)/m.exec(status)?.[1];
      if (real === undefined || Number(real) !== uid) continue;
      const argv = readFileSync(`${proc}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 3);
      for (const word of argv) {
        const name = word
          .split('/')
          .pop()!
          .replace(/\.(?:js|mjs|cjs|py)$/, '');
        const packaged = AGENT_PACKAGES.exec(word)?.[1];
        if (AGENT_PROGRAMS.test(name) || packaged) found.add(`${packaged ?? name} (pid ${pid})`);
      }
    } catch {
      // Gone, or not ours to read.
    }
    if (found.size >= 5) break;
  }
  return [...found];
}
