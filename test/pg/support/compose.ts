// Reading examples/compose/ and the Dockerfile the way docker compose and docker build read them, for
// test/pg/compose.test.ts: compose's variable interpolation, a Dockerfile's stages and instructions, nginx's
// upstreams, and nginx.conf rewritten for this machine (local ports, a temporary prefix) and started.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Compose's interpolation (compose-spec, "Interpolation"), applied to every string of the parsed file:
 * `$$` is a `$`; `${VAR}` / `$VAR`; `${VAR:-default}` / `${VAR-default}`; `${VAR:?error}` / `${VAR?error}` refuse
 * the file when VAR is unset (or, with the colon, empty); `${VAR:+alt}` / `${VAR+alt}`.
 */
export function interpolate<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === 'string') return interpolateString(value, env) as T;
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)])) as T;
  return value;
}

function interpolateString(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_all, dollar: string | undefined, braced: string | undefined, op: string | undefined, arg: string | undefined, bare: string | undefined) => {
    if (dollar) return '$';
    const name = (braced ?? bare)!;
    const set = env[name] !== undefined;
    const nonEmpty = set && env[name] !== '';
    const present = op?.startsWith(':') ? nonEmpty : set;
    switch (op?.replace(':', '')) {
      case undefined:
        return env[name] ?? '';
      case '-':
        return present ? env[name]! : arg!;
      case '?':
        if (!present) throw new Error(`required variable ${name} is missing a value: ${arg}`);
        return env[name]!;
      case '+':
        return present ? arg! : '';
      default:
        throw new Error(`unsupported interpolation in ${text}`);
    }
  });
}

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
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not an exec-form array: ${args}`);
  return parsed;
}

/** nginx's `upstream NAME { server HOST:PORT …; }` blocks: name → the servers' addresses. */
export function nginxUpstreams(conf: string): Map<string, string[]> {
  const upstreams = new Map<string, string[]>();
  for (const [, name, body] of conf.matchAll(/^\s*upstream\s+(\S+)\s*\{([^}]*)\}/gm)) {
    const code = body!.replace(/#.*$/gm, '');
    upstreams.set(name!, [...code.matchAll(/^\s*server\s+([^\s;]+)/gm)].map((m) => m[1]!));
  }
  return upstreams;
}

/** A running nginx and the upstream address of every request it proxied (its access log). */
export interface Nginx {
  url: string;
  /** `METHOD URI STATUS UPSTREAM_ADDR` lines, oldest first. */
  accessLog(): string[];
  stop(): Promise<void>;
}

/**
 * Starts nginx with `conf` after rewriting only what this machine changes: each `HOST:PORT` upstream address
 * named in `upstreams` becomes the local address given, `listen PORT` becomes `listen 127.0.0.1:<listen>`, and the
 * pid file, logs and temporary directories go to a temporary prefix (the access log names the upstream used).
 */
export async function startNginx(conf: string, options: { upstreams: Record<string, string>; containerPort: number; listen: number }): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-nginx-'));
  chmodSync(dir, 0o755); // run as root, nginx's workers are `nobody`: they write the temporary directories here
  let rewritten = conf;
  for (const [from, to] of Object.entries(options.upstreams)) {
    if (!rewritten.includes(from)) throw new Error(`nginx.conf does not name ${from}`);
    rewritten = rewritten.replaceAll(from, to);
  }
  const listen = new RegExp(`^(\\s*)listen\\s+${options.containerPort};`, 'gm');
  if ((rewritten.match(listen) ?? []).length !== 1) throw new Error(`nginx.conf has not exactly one "listen ${options.containerPort};"`);
  rewritten = rewritten.replace(listen, `$1listen 127.0.0.1:${options.listen};`);
  const local = [
    `log_format upstreams '$request_method $uri $status $upstream_addr';`,
    `access_log ${dir}/access.log upstreams;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`),
  ];
  if (!/^http\s*\{/m.test(rewritten)) throw new Error('nginx.conf has no http block');
  rewritten = rewritten.replace(/^http\s*\{/m, (open) => `${open}\n  ${local.join('\n  ')}`);
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, rewritten);
  const child: ChildProcess = spawn('nginx', ['-p', dir, '-c', file, '-e', join(dir, 'error.log'), '-g', `daemon off; pid ${dir}/nginx.pid;`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.listen}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${stderr}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM'); // the master stops its workers
      throw new Error(`nginx not listening in 10 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    accessLog() {
      return readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
