// The Dockerfile read and its image's /app made without docker, for test/pg/compose.test.ts: its stages and
// instructions, the build stage's COPY list carried out and built, and `npm prune --omit=dev`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** One Dockerfile instruction: its name (upper case) and the rest of the line, continuations joined. */
export interface Instruction {
  name: string;
  args: string;
}

/** A Dockerfile's build stages, each starting at its FROM. */
export function dockerfileStages(text: string): Instruction[][] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    if (/^\s*#/.test(raw)) continue; // comments and parser directives
    const line = pending + raw;
    if (line.endsWith('\\')) pending = line.slice(0, -1);
    else {
      pending = '';
      if (line.trim()) lines.push(line.trim());
    }
  }
  const stages: Instruction[][] = [];
  for (const line of lines) {
    const [, name, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    const instruction = { name: name!.toUpperCase(), args: args! };
    if (instruction.name === 'FROM') stages.push([]);
    stages.at(-1)!.push(instruction);
  }
  return stages;
}

/** An exec-form (JSON array) argument, as ENTRYPOINT ["node", …] or CMD ["serve", …]. */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string'))
    throw new Error(`not an exec-form array: ${args}`);
  return parsed;
}

/** The one `name` instruction of a stage (its arguments); fails when there is none or more than one. */
export function only(stage: Instruction[], name: string): string {
  const found = stage.filter((i) => i.name === name);
  assert.equal(found.length, 1, `one ${name} in the stage`);
  return found[0]!.args;
}

/** A stage's ENV (KEY=VALUE pairs). */
export function stageEnv(stage: Instruction[]): Record<string, string> {
  return Object.fromEntries(
    stage
      .filter((i) => i.name === 'ENV')
      .flatMap((i) => i.args.split(/\s+/).map((pair) => pair.split('=') as [string, string])),
  );
}

/**
 * /app as a Dockerfile's build stage leaves it, in a new temporary directory: its COPY instructions carried out
 * from `root` (the build context), then what its `npm ci` runs after installing (the prepare script) with root's
 * node_modules linked, then `npm prune --omit=dev`. Readable by every user (the image runs as another user).
 */
export function buildImageApp(root: string, buildStage: Instruction[], path: string): string {
  const app = join(mkdtempSync(join(tmpdir(), 'toolgate-image-')), 'app');
  mkdirSync(app);
  assert.equal(only(buildStage, 'WORKDIR'), '/app');
  for (const copy of buildStage.filter((i) => i.name === 'COPY')) {
    const words = copy.args.split(/\s+/).filter((w) => !w.startsWith('--'));
    const dest = join(app, words.pop()!);
    for (const source of words)
      cpSync(join(root, source), words.length > 1 ? join(dest, source) : dest, { recursive: true });
  }
  chmodSync(dirname(app), 0o755);
  symlinkSync(join(root, 'node_modules'), join(app, 'node_modules'));
  const built = spawnSync('npm', ['run', 'prepare'], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, PATH: path },
  });
  assert.equal(built.status, 0, `npm run prepare in the image's /app: ${built.stderr}${built.stdout}`);
  pruneDevDependencies(root, app);
  return app;
}

/**
 * `npm prune --omit=dev`, from package-lock.json: node_modules becomes only the packages the lock file does not mark
 * `dev` (linked from root's), so dist/ finds nothing else at the top of node_modules.
 */
function pruneDevDependencies(root: string, app: string): void {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const modules = join(app, 'node_modules');
  rmSync(modules);
  mkdirSync(modules);
  for (const [key, entry] of Object.entries(lock.packages)) {
    const name = key.replace(/^node_modules\//, '');
    if (!key.startsWith('node_modules/') || name.includes('node_modules/') || entry.dev || !existsSync(join(root, key)))
      continue;
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(root, key), join(modules, name));
  }
  assert.ok(
    existsSync(join(modules, 'hono')) &&
      !existsSync(join(modules, 'typescript')) &&
      !existsSync(join(modules, 'esbuild')),
    'production dependencies only',
  );
}

/** The files under dir, relative, sorted. */
export function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort();
}
