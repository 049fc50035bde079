// nginx.conf read and run for test/pg/compose.test.ts: its upstreams, and the file started by Debian's nginx with
// only what this machine changes rewritten (local upstream ports, a local listen port, a temporary prefix).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Undefined when nginx runs here, else why not. */
export function nginxUnavailable(): string | undefined {
  return spawnSync('nginx', ['-v']).status === 0 ? undefined : 'nginx not installed (apt-get install -y nginx-light)';
}

/** nginx's `upstream NAME { server HOST:PORT …; }` blocks: name → the servers' addresses. */
export function nginxUpstreams(conf: string): Map<string, string[]> {
  const upstreams = new Map<string, string[]>();
  for (const [, name, body] of conf.matchAll(/^\s*upstream\s+(\S+)\s*\{([^}]*)\}/gm)) {
    const code = body!.replace(/#.*$/gm, '');
    upstreams.set(
      name!,
      [...code.matchAll(/^\s*server\s+([^\s;]+)/gm)].map((m) => m[1]!),
    );
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
export async function startNginx(
  conf: string,
  options: { upstreams: Record<string, string>; containerPort: number; listen: number },
): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-nginx-'));
  chmodSync(dir, 0o755); // run as root, nginx's workers are `nobody`: they write the temporary directories here
  let rewritten = conf;
  for (const [from, to] of Object.entries(options.upstreams)) {
    if (!rewritten.includes(from)) throw new Error(`nginx.conf does not name ${from}`);
    rewritten = rewritten.replaceAll(from, to);
  }
  const listen = new RegExp(`^(\\s*)listen\\s+${options.containerPort};`, 'gm');
  if ((rewritten.match(listen) ?? []).length !== 1)
    throw new Error(`nginx.conf has not exactly one "listen ${options.containerPort};"`);
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
  const child: ChildProcess = spawn(
    'nginx',
    ['-p', dir, '-c', file, '-e', join(dir, 'error.log'), '-g', `daemon off; pid ${dir}/nginx.pid;`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
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
