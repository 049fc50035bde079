// toolgate check: explains the decision for a command (or any call) offline, with the rules in the data directory.
import { homedir } from 'node:os';
import { extraProtectedPaths, loadConfig } from '../config.ts';
import { buildAliasIndex } from '../engine/catalog/tool-aliases.ts';
import { decide } from '../engine/decide.ts';
import { MODES } from '../engine/modes.ts';
import { compilePolicy } from '../engine/rules/policy.ts';
import type { Mode } from '../engine/types.ts';
import { loadShellAnalyzer } from '../service/bash-language.ts';
import { realpathIfExists } from '../service/toolgate.ts';
import { openStore } from '../store/open-store.ts';
import { parseFlags, UsageError, type Command } from './command.ts';

const HELP = `Usage: toolgate check [options] '<command>'
       toolgate check --tool read_file --args '{"path":"~/.ssh/id_rsa"}'

Explains, without a server, what toolgate would answer — every stage of the pipeline and why.

Options:
  --tool NAME        tool name (default bash)
  --args JSON        the tool's arguments as JSON (instead of a command)
  --cwd DIR          working directory of the call (default: the current one)
  --mode MODE        mode to decide in (default: the configured one)
  --data-dir DIR     where the rules are (default ~/.toolgate)
  --config FILE      config file
  --json             print the verdict as JSON
  -h, --help         this help

Exit code: 0 allow, 1 deny, 3 ask.`;

export const checkCommand: Command = {
  name: 'check',
  summary: 'explain the decision for a command, offline',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      tool: { type: 'string' },
      args: { type: 'string' },
      cwd: { type: 'string' },
      mode: { type: 'string' },
      'data-dir': { type: 'string' },
      config: { type: 'string' },
      database: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    const config = loadConfig(
      { 'data-dir': values['data-dir'], config: values.config, mode: values.mode, database: values.database },
      io.env,
    );
    if (values.mode && !MODES.includes(values.mode as Mode)) throw new UsageError(`unknown mode ${values.mode}`);
    let args: unknown;
    if (values.args !== undefined) {
      try {
        args = JSON.parse(values.args);
      } catch (error) {
        throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
      }
    } else {
      if (positionals.length === 0) throw new UsageError("give a command to check, e.g. toolgate check 'git status'");
      args = { command: positionals.join(' ') };
    }
    const tool = values.tool ?? 'bash';
    const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, { allowMissing: true });
    const home = config.agentHome ?? homedir();
    try {
      const aliases = buildAliasIndex(config.aliases);
      const policy = compilePolicy(await store.listRules(), aliases, home);
      const analyzer = await loadShellAnalyzer({ home });
      const verdict = decide({ call: { tool, args, cwd: values.cwd ?? process.cwd() }, explain: true }, policy, {
        operatorMode: config.mode,
        askFallback: config.askFallback,
        home,
        dataDir: config.dataDir,
        extraProtected: extraProtectedPaths(config),
        aliases,
        analyzer,
        realpath: realpathIfExists,
        readOnlyTools: config.readOnlyTools,
      });
      if (values.json) {
        io.out(
          JSON.stringify(
            {
              decision: verdict.decision,
              reason: verdict.reason,
              risk: verdict.risk,
              source: verdict.source,
              rule: verdict.rule ?? null,
              findings: verdict.findings,
              mode: verdict.mode,
              tool: verdict.call.tool,
              commands: verdict.analysis?.commands.map((c) => c.words) ?? [],
              trace: verdict.trace ?? [],
            },
            null,
            2,
          ),
        );
      } else {
        io.out(
          `${verdict.decision.toUpperCase()}${verdict.risk ? ` (${verdict.risk} risk)` : ''} — ${verdict.source}: ${verdict.reason}`,
        );
        for (const step of verdict.trace ?? [])
          io.out(
            `  ${step.outcome === 'decided' ? '→' : ' '} ${step.stage.padEnd(15)} ${step.outcome.padEnd(8)} ${step.detail}`,
          );
        for (const f of verdict.findings)
          io.out(`  finding ${f.id} (${f.risk}): ${f.reason}${f.command ? ` — \`${f.command}\`` : ''}`);
      }
      return verdict.decision === 'allow' ? 0 : verdict.decision === 'deny' ? 1 : 3;
    } finally {
      await store.close();
    }
  },
};
