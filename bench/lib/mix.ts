// The realistic request mix an agent sends: git, npm, reads, edits, a dangerous command, a protected read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Placeholder the unique-command runs replace with a fresh counter in every request. */
export const UNIQUE = '@N@';

/**
 * The project directory the calls run in. It exists, with the files an agent would find there, because an agent
 * works in a real checkout: a path that does not exist makes every protected-path check walk up its missing
 * ancestors, which no real workload does.
 */
export const PROJECT = join(tmpdir(), 'toolgate-bench-project');
mkdirSync(join(PROJECT, 'src'), { recursive: true });
mkdirSync(join(PROJECT, 'test'), { recursive: true });
writeFileSync(join(PROJECT, 'package.json'), '{ "name": "bench-project", "version": "1.0.0" }\n');
writeFileSync(join(PROJECT, 'src', 'index-x.ts'), 'export const retries = 3;\n');
writeFileSync(join(PROJECT, 'src', 'app-x.ts'), 'const retries = 3;\n');

/** One decide body template; `UNIQUE` marks where a unique run puts its counter. */
export type DecideBody = Record<string, unknown>;

const bash = (command: string): DecideBody => ({ tool: 'Bash', args: { command, description: 'run a command' } });

/**
 * Sixteen calls in the proportions a coding agent produces: mostly git and npm and file reads/edits,
 * one dangerous command (non-interactive, so the fallback denies it) and one read of ~/.ssh (protected).
 */
export const MIX: readonly DecideBody[] = [
  bash(`git status --short @N@`),
  bash(`git log --oneline -n 20 -- src/module-@N@.ts`),
  bash(`git diff HEAD~1 -- src/app-@N@.ts`),
  bash(`git add src/app-@N@.ts && git commit -m "fix: handle empty input @N@"`),
  bash(`npm test -- --grep case-@N@`),
  bash(`npm run build -- --filter pkg-@N@`),
  bash(`npm install lodash-@N@ --save-dev`),
  bash(`ls -la src/dir-@N@ | head -n 40`),
  bash(`rg -n "TODO @N@" src | head -n 20`),
  bash(`rm -rf /tmp/build-@N@ ~/`),
  { tool: 'Read', args: { file_path: `${PROJECT}/src/index-@N@.ts` } },
  { tool: 'Read', args: { file_path: `${PROJECT}/package.json`, offset: '@N@' } },
  { tool: 'Read', args: { file_path: '~/.ssh/id_ed25519-@N@' } },
  {
    tool: 'Edit',
    args: {
      file_path: `${PROJECT}/src/app-@N@.ts`,
      old_string: 'const retries = 3;',
      new_string: 'const retries = 5;',
    },
  },
  {
    tool: 'Write',
    args: {
      file_path: `${PROJECT}/test/app-@N@.test.ts`,
      content: "import { test } from 'node:test';\n\ntest('retries', () => {});\n",
    },
  },
  { tool: 'Grep', args: { pattern: 'retries @N@', path: `${PROJECT}/src` } },
];

/**
 * A realistic 2 KB script sent as one Bash call (the shell bench's deployment script: functions, loops, a here-doc,
 * substitutions, pipelines), with a comment line that makes each one unique: an agent sends a script once.
 */
export function scriptCall(script: string): DecideBody {
  return { tool: 'Bash', args: { command: `# deploy run @N@\n${script}`, description: 'deploy the app' } };
}

/** The rules the benchmark server starts with: a small, typical policy. */
export const BENCH_RULES: readonly {
  effect: 'allow' | 'deny' | 'ask';
  pattern: string;
  risk?: 'high' | 'medium' | 'low';
}[] = [
  { effect: 'deny', pattern: 'bash(git push --force *)' },
  { effect: 'ask', pattern: 'bash(npm publish *)', risk: 'high' },
  { effect: 'allow', pattern: 'bash(git status *)' },
  { effect: 'allow', pattern: 'bash(git log *)' },
  { effect: 'allow', pattern: 'bash(git diff *)' },
  { effect: 'allow', pattern: 'bash(npm test *)' },
  { effect: 'allow', pattern: 'bash(npm run build *)' },
  { effect: 'allow', pattern: 'read_file(src/**)' },
  { effect: 'allow', pattern: 'edit_file(src/**)' },
];

/** A decide body with the common fields, the placeholder replaced by `n` (or left in place when `n` is undefined). */
export function decideBody(template: DecideBody, n?: number | string): string {
  const full = { ...template, agent_id: 'bench-agent', session_id: 'bench-session', cwd: PROJECT, interactive: false };
  const json = JSON.stringify(full);
  return n === undefined ? json : json.split(UNIQUE).join(String(n));
}
