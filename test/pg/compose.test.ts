// examples/compose/ without docker: the compose file parsed as compose parses it, each replica's command run as
// the Dockerfile's ENTRYPOINT runs it (a local process from a directory holding what the Dockerfile copies and
// builds), on a real PostgreSQL, with nginx.conf in front when nginx is installed.
//
// What the container network changes is substituted, and nothing else:
//   - the database host:port in TOOLGATE_DATABASE_URL (`postgres:5432`) becomes the test cluster's 127.0.0.1:<port>;
//     the user, password and database are the postgres service's (created on the cluster as that service would);
//   - `--data-dir /data` and TOOLGATE_DATA_DIR=/data (the volume) become a temporary directory per replica (0700);
//   - `--host 0.0.0.0` (the container's own interface) becomes 127.0.0.1, and `--port <free port>` is added: in its
//     container each replica has port 7411 to itself, here both share one machine;
//   - `node` is this Node (20, as node:20-slim), WORKDIR /app is a temporary copy of what the Dockerfile copies
//     (and builds there), with this checkout's node_modules linked in place of `npm ci`'s, then, in place of
//     `npm prune --omit=dev`, only the packages package-lock.json does not mark dev;
//   - the environment is the image's (PATH, HOME, the Dockerfile's ENV) plus the service's, nothing of the test's;
//   - USER node: run as root (CI), the replicas run as `nobody`, owning their data directory and nothing in /app;
//   - healthchecks run as given with 127.0.0.1:7411 pointed at the replica's port, pg_isready with PGHOST/PGPORT;
//   - nginx: upstream addresses toolgate-a:7411 / toolgate-b:7411 become the replicas' local ports, `listen 7411`
//     a free local port, and the pid file, logs and temporary directories a temporary prefix.
// Not tested here: the docker layer itself (building the image: `npm ci` in node:20-slim, whose npm 10 runs the
// install scripts npm 11 leaves to allowScripts; the compose network and its DNS, volumes, docker acting on the
// healthchecks).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.ts';
import { findPgBin, inCi, type Cluster } from './support/cluster.ts';
import {
  durationMs,
  interpolate,
  runHealthcheck,
  serviceEnvironment as environment,
  type Service,
} from './support/compose.ts';
import { buildImageApp, dockerfileStages, execForm, files, only, stageEnv } from './support/dockerfile.ts';
import { nginxUnavailable, nginxUpstreams, startNginx, type Nginx } from './support/nginx.ts';
import { call, freePort, sleep } from './support/replicas.ts';
import { destroyClusterAfterAll, pgSkipReason, sharedCluster } from './support/shared.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMPOSE_DIR = join(ROOT, 'examples/compose');
/** The port a replica listens on in its container (toolgate's default; the Dockerfile EXPOSEs it). */
const CONTAINER_PORT = 7411;
// The tokens as the compose file's comment makes them: `openssl rand -hex 24`.
const AGENT_TOKEN = randomBytes(24).toString('hex');
const REVIEWER_TOKEN = randomBytes(24).toString('hex');
const TOKENS = { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN, TOOLGATE_REVIEWER_TOKEN: REVIEWER_TOKEN };
/** The user the replicas run as when the test runs as root (the image's `node`, uid 1000, is not on this machine). */
const NOBODY = 65534;

const rawCompose = parse(readFileSync(join(COMPOSE_DIR, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
};
const compose = interpolate(rawCompose, TOKENS);
const replicaNames = Object.entries(compose.services)
  .filter(([, s]) => (typeof s.build === 'string' ? s.build : s.build?.context) === '../..')
  .map(([name]) => name);
const stages = dockerfileStages(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const [buildStage, runtimeStage] = [stages[0]!, stages.at(-1)!];
const entrypoint = execForm(only(runtimeStage, 'ENTRYPOINT'));
const imageEnv = stageEnv(runtimeStage);
/** PATH inside node:20-slim has `node` on it: this Node's directory first. */
const PATH = `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`;

let built: string | undefined;
/** The image's /app (support/dockerfile.ts), made once. */
function imageApp(): string {
  built ??= buildImageApp(ROOT, buildStage, `${PATH}:${process.env.PATH}`);
  return built;
}

const skip = pgSkipReason();
if (!skip) destroyClusterAfterAll();
after(() => {
  if (built) rmSync(dirname(built), { recursive: true, force: true });
});

describe('examples/compose: the files', () => {
  it('compose refuses the file without the two tokens, and takes it with them', () => {
    assert.throws(
      () => interpolate(rawCompose, {}),
      /required variable TOOLGATE_AGENT_TOKEN is missing a value: set TOOLGATE_AGENT_TOKEN/,
    );
    assert.throws(
      () => interpolate(rawCompose, { TOOLGATE_AGENT_TOKEN: AGENT_TOKEN, TOOLGATE_REVIEWER_TOKEN: '' }),
      /TOOLGATE_REVIEWER_TOKEN/,
    );
    for (const name of replicaNames)
      assert.deepEqual(
        {
          a: compose.services[name]!.environment!.TOOLGATE_AGENT_TOKEN,
          r: compose.services[name]!.environment!.TOOLGATE_REVIEWER_TOKEN,
        },
        { a: AGENT_TOKEN, r: REVIEWER_TOKEN },
      );
  });

  it("two replicas built from the repository run the Dockerfile's CMD, after PostgreSQL is healthy, on its database", () => {
    assert.deepEqual(replicaNames, ['toolgate-a', 'toolgate-b']);
    const pg = compose.services.postgres!;
    assert.ok(pg.healthcheck, 'postgres has a healthcheck for service_healthy');
    const db = environment(pg);
    for (const name of replicaNames) {
      const service = compose.services[name]!;
      assert.deepEqual(service.command, execForm(only(runtimeStage, 'CMD')), `${name}: the command is the image's CMD`);
      assert.deepEqual(service.depends_on, { postgres: { condition: 'service_healthy' } });
      const url = new URL(environment(service).TOOLGATE_DATABASE_URL!);
      assert.deepEqual(
        [
          url.hostname,
          url.port,
          decodeURIComponent(url.username),
          decodeURIComponent(url.password),
          url.pathname.slice(1),
        ],
        ['postgres', '5432', db.POSTGRES_USER, db.POSTGRES_PASSWORD, db.POSTGRES_DB],
      );
    }
    // The command as toolgate reads it, unsubstituted: all interfaces, the default port, the data volume.
    const { values } = parseArgs({
      args: compose.services[replicaNames[0]!]!.command!.slice(1),
      options: { host: { type: 'string' }, 'data-dir': { type: 'string' } },
      strict: true,
    });
    const config = loadConfig(values, { ...imageEnv, ...environment(compose.services[replicaNames[0]!]!) });
    assert.deepEqual(
      [config.host, config.port, config.dataDir, config.databaseUrl],
      ['0.0.0.0', CONTAINER_PORT, '/data', 'postgres://toolgate:toolgate@postgres:5432/toolgate'],
    );
  });

  it("nginx.conf balances exactly the two replica services on the port they listen on, and is the nginx service's config", () => {
    const conf = readFileSync(join(COMPOSE_DIR, 'nginx.conf'), 'utf8');
    const upstreams = nginxUpstreams(conf);
    assert.deepEqual([...upstreams.keys()].sort(), ['toolgate_api', 'toolgate_review']);
    for (const [name, servers] of upstreams)
      assert.deepEqual(
        servers.sort(),
        replicaNames.map((r) => `${r}:${CONTAINER_PORT}`),
        name,
      );
    assert.equal(only(runtimeStage, 'EXPOSE'), String(CONTAINER_PORT));
    assert.match(conf, new RegExp(`^\\s*listen ${CONTAINER_PORT};`, 'm'));
    const nginx = compose.services.nginx!;
    assert.deepEqual(nginx.ports, [`127.0.0.1:${CONTAINER_PORT}:${CONTAINER_PORT}`]);
    assert.ok(nginx.volumes?.includes('./nginx.conf:/etc/nginx/nginx.conf:ro'));
    assert.deepEqual([...(nginx.depends_on as string[])].sort(), replicaNames);
    for (const name of replicaNames)
      assert.match(
        compose.services[name]!.healthcheck!.test.join(' '),
        new RegExp(`127\\.0\\.0\\.1:${CONTAINER_PORT}/readyz`),
      );
  });

  it("the Dockerfile: its entrypoint is `npm start`'s command, its build stage builds what `npm run build` builds", async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.equal(pkg.scripts.start, [...entrypoint, 'serve'].join(' '));
    assert.equal(pkg.scripts.prepare, 'npm run build', '`npm ci` builds dist/ through prepare');
    const run = buildStage
      .filter((i) => i.name === 'RUN')
      .map((i) => i.args)
      .join('\n');
    assert.match(run, /\bnpm ci\b[^\n]*&& npm prune --omit=dev/, 'npm ci, then the devDependencies dropped');
    assert.match(only(runtimeStage, 'COPY'), /^--from=build .*\/app \/app$/);
    assert.equal(only(runtimeStage, 'WORKDIR'), '/app');
    // What the build stage's files build, against this checkout's build (npm run test:pg builds first).
    const app = imageApp();
    const image = files(join(app, 'dist')).filter((f) => !/(^|\/)\.(tsbuildinfo|build-stamp)$/.test(f));
    const sources = files(join(ROOT, 'src'))
      .filter((f) => /\.ts$/.test(f) && !/\.d\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, '.js'));
    for (const needed of [
      ...sources,
      'cli/hook.cjs',
      ...files(join(ROOT, 'src/http/review/assets')).map((f) => `http/review/assets/${f}`),
    ])
      assert.ok(image.includes(needed), `the image has dist/${needed}`);
    // Byte for byte, but for declarations: tsc may order a union's members differently in an incremental build.
    for (const file of image.filter((f) => !f.endsWith('.d.ts')))
      assert.ok(
        readFileSync(join(app, 'dist', file)).equals(readFileSync(join(ROOT, 'dist', file))),
        `dist/${file} is the same as npm run build's`,
      );
    assert.ok(
      existsSync(join(app, 'bin/toolgate.js')) &&
        existsSync(join(app, 'openapi.yaml')) &&
        existsSync(join(app, 'package.json')),
      'what the runtime reads besides dist/',
    );
  });
});

/** A replica started as its container would start it (the substitutions at the top of this file). */
interface Started {
  name: string;
  port: number;
  url: string;
  /** The container's environment, for its healthcheck. */
  env: NodeJS.ProcessEnv;
  child: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

async function startService(name: string, app: string, cluster: Cluster): Promise<Started> {
  const service = compose.services[name]!;
  const port = await freePort();
  const home = mkdtempSync(join(tmpdir(), `toolgate-compose-${name}-`));
  const data = join(home, 'data');
  mkdirSync(data, { mode: 0o700 });
  // USER node: a user who owns its data directory and nothing in /app (root's, read-only to it).
  const user = process.getuid?.() === 0 ? NOBODY : undefined;
  if (user) for (const dir of [home, data]) chownSync(dir, user, user);
  const env: Record<string, string> = { PATH, HOME: home, ...imageEnv, ...environment(service) };
  env.TOOLGATE_DATA_DIR = env.TOOLGATE_DATA_DIR!.replace(/^\/data$/, data);
  const dbUrl = new URL(env.TOOLGATE_DATABASE_URL!);
  dbUrl.hostname = '127.0.0.1';
  dbUrl.port = String(cluster.port);
  env.TOOLGATE_DATABASE_URL = dbUrl.toString();
  const command = service.command!.map((arg, i, all) =>
    all[i - 1] === '--data-dir' && arg === '/data'
      ? data
      : all[i - 1] === '--host' && arg === '0.0.0.0'
        ? '127.0.0.1'
        : arg,
  );
  assert.notDeepEqual(command, service.command, 'the data dir and host were substituted');
  const [node, ...nodeArgs] = entrypoint;
  assert.equal(node, 'node');
  const child = spawn(process.execPath, [...nodeArgs, ...command, '--port', String(port)], {
    cwd: app,
    env,
    uid: user,
    gid: user,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-100_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const failed =
      child.exitCode !== null ? `exited ${child.exitCode}` : Date.now() > deadline ? 'not ready in 30 s' : undefined;
    if (failed) {
      child.kill('SIGKILL');
      rmSync(home, { recursive: true, force: true });
      throw new Error(`${name} ${failed}: ${stderr}`);
    }
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  return {
    name,
    port,
    url,
    env,
    child,
    log: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Runs a replica's compose healthcheck as given, pointed at the replica's port; healthy if one of `retries` tries exits 0. */
function healthcheck(
  replica: Started,
  tries = compose.services[replica.name]!.healthcheck!.retries ?? 3,
): number | null {
  const check = compose.services[replica.name]!.healthcheck!;
  const test = check.test.map((arg) => arg.replaceAll(`127.0.0.1:${CONTAINER_PORT}`, `127.0.0.1:${replica.port}`));
  let status: number | null = null;
  for (let i = 0; i < tries && status !== 0; i++) status = runHealthcheck(test, replica.env, durationMs(check.timeout));
  return status;
}

const decide = (base: string, command: string) =>
  call(base, '/v1/decide', { token: AGENT_TOKEN, body: { tool: 'bash', args: { command } } });
const reviewer = { token: REVIEWER_TOKEN };

describe('examples/compose: the two replicas, as processes, on PostgreSQL', { skip }, () => {
  let cluster: Cluster;
  let a: Started;
  let b: Started;

  before(async () => {
    cluster = await sharedCluster();
    const db = environment(compose.services.postgres!);
    // What the postgres image does with POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB on its first start.
    cluster.psql(`CREATE ROLE "${db.POSTGRES_USER}" LOGIN PASSWORD '${db.POSTGRES_PASSWORD}'`);
    cluster.psql(`CREATE DATABASE "${db.POSTGRES_DB}" OWNER "${db.POSTGRES_USER}"`);
    // depends_on: service_healthy — the postgres service's own healthcheck, as given, against the cluster.
    const pgEnv = { PATH: `${findPgBin()}:${PATH}`, PGHOST: '127.0.0.1', PGPORT: String(cluster.port) };
    assert.equal(
      runHealthcheck(compose.services.postgres!.healthcheck!.test, pgEnv, 10_000),
      0,
      'pg_isready as the postgres healthcheck runs it',
    );
    const app = imageApp();
    // Started together, as compose starts them once postgres is healthy: the migrations run once, under a lock.
    const started = await Promise.allSettled(replicaNames.map((name) => startService(name, app, cluster)));
    const up = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    if (up.length < started.length) {
      await Promise.all(up.map((r) => r.stop())); // no replica left running when the other failed
      throw started.find((r) => r.status === 'rejected')!.reason;
    }
    [a, b] = up as [Started, Started];
  });
  after(async () => {
    await Promise.all([a, b].filter(Boolean).map((r) => r.stop()));
  });

  it("both become ready; their compose healthcheck and the Dockerfile's HEALTHCHECK exit 0", () => {
    const dockerHealthcheck = only(runtimeStage, 'HEALTHCHECK').replace(/^CMD\s+/, '');
    for (const replica of [a, b]) {
      assert.equal(healthcheck(replica), 0, `${replica.name}'s healthcheck`);
      assert.equal(
        runHealthcheck(
          ['CMD-SHELL', dockerHealthcheck.replaceAll(`127.0.0.1:${CONTAINER_PORT}`, `127.0.0.1:${replica.port}`)],
          replica.env,
          10_000,
        ),
        0,
        `${replica.name}: the Dockerfile's HEALTHCHECK`,
      );
      assert.match(replica.log(), /store postgresql/, `${replica.name} uses PostgreSQL`);
      if (process.getuid?.() === 0)
        assert.match(
          readFileSync(`/proc/${replica.child.pid}/status`, 'utf8'),
          new RegExp(`^Uid:\\s+${NOBODY}\\s`, 'm'),
          `${replica.name} runs as a user other than root`,
        );
    }
  });

  it('an approval opened through A is answered through B, and the agent waiting on A gets the answer', async () => {
    const opened = await decide(a.url, 'sudo systemctl restart compose-probe');
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    assert.equal(opened.body.decision, 'ask');
    const id = opened.body.approval.id as string;
    const waiting = call(a.url, `/v1/approvals/${id}?wait=30`, { token: AGENT_TOKEN });
    await sleep(200);
    const answered = await call(b.url, `/v1/approvals/${id}/resolve`, { ...reviewer, body: { choice: 'allow_once' } });
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    const got = await waiting;
    assert.equal(got.status, 200);
    assert.equal(got.body.status, 'approved');
  });

  it('a rule added on B applies on A', async () => {
    const command = 'echo compose-rule-probe';
    assert.notEqual((await decide(a.url, command)).body.decision, 'deny', 'control: not denied before the rule');
    const added = await call(b.url, '/v1/rules', {
      ...reviewer,
      body: { effect: 'deny', pattern: `bash(${command})` },
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    let decision: string | undefined;
    for (const end = Date.now() + 5000; Date.now() < end && decision !== 'deny'; await sleep(20))
      decision = (await decide(a.url, command)).body.decision;
    assert.equal(decision, 'deny');
    assert.notEqual(
      (await decide(a.url, 'echo compose-other-probe')).body.decision,
      'deny',
      'control: another command is not',
    );
  });

  describe('behind nginx.conf', { skip: nginxSkipReason() }, () => {
    let nginx: Nginx;
    const upstreamOf = (replica: Started) => `127.0.0.1:${replica.port}`;
    before(async () => {
      const conf = readFileSync(join(COMPOSE_DIR, 'nginx.conf'), 'utf8');
      nginx = await startNginx(conf, {
        upstreams: { [`toolgate-a:${CONTAINER_PORT}`]: upstreamOf(a), [`toolgate-b:${CONTAINER_PORT}`]: upstreamOf(b) },
        containerPort: CONTAINER_PORT,
        listen: await freePort(),
      });
    });
    after(async () => {
      await nginx?.stop();
    });
    /** The requests nginx proxied since line `start` of its access log, each with the upstreams tried, in order. */
    const logSince = (start: number) =>
      nginx
        .accessLog()
        .slice(start)
        .map((line) => {
          const [method, uri, status, ...rest] = line.split(' ');
          return { method, uri, status, upstreams: rest.join(' ').split(', ') };
        });

    it('decide requests (bearer token) go to both replicas; the review page (no Authorization) sticks to one', async () => {
      const start = nginx.accessLog().length;
      for (let i = 0; i < 10; i++) {
        const res = await decide(nginx.url, `echo through-nginx-${i}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.decision, 'allow');
      }
      for (let i = 0; i < 6; i++) assert.equal((await fetch(`${nginx.url}/healthz`)).status, 200);
      const lines = logSince(start);
      const decides = new Set(
        lines.filter((l) => l.method === 'POST' && l.uri === '/v1/decide').map((l) => l.upstreams.at(-1)),
      );
      assert.deepEqual([...decides].sort(), [upstreamOf(a), upstreamOf(b)].sort());
      const unauthenticated = new Set(
        lines.filter((l) => l.method === 'GET' && l.uri === '/healthz').map((l) => l.upstreams.at(-1)),
      );
      assert.equal(unauthenticated.size, 1, `ip_hash: one replica for one client address (${[...unauthenticated]})`);
    });

    it('an ask through nginx, its long-poll and its answer through nginx: the agent gets the answer', async () => {
      const opened = await decide(nginx.url, 'sudo systemctl restart compose-nginx-probe');
      assert.equal(opened.body.decision, 'ask', JSON.stringify(opened.body));
      const id = opened.body.approval.id as string;
      const waiting = call(nginx.url, `/v1/approvals/${id}?wait=30`, { token: AGENT_TOKEN });
      await sleep(200);
      assert.equal(
        (await call(nginx.url, `/v1/approvals/${id}/resolve`, { ...reviewer, body: { choice: 'deny' } })).status,
        200,
      );
      assert.equal((await waiting).body.status, 'denied');
    });

    it('the live feed (SSE) through nginx shows an approval as it opens (not buffered)', async () => {
      const controller = new AbortController();
      const res = await fetch(`${nginx.url}/v1/events`, {
        headers: { authorization: `Bearer ${REVIEWER_TOKEN}` },
        signal: controller.signal,
      });
      assert.equal(res.status, 200);
      const reader = res.body!.getReader();
      await sleep(200);
      const opened = await decide(nginx.url, 'sudo systemctl restart compose-feed-probe');
      const id = opened.body.approval.id as string;
      let text = '';
      const end = Date.now() + 5000;
      while (!new RegExp(`approval\\.created[\\s\\S]*${id}`).test(text)) {
        assert.ok(Date.now() < end, `not seen in the feed through nginx: ${text.slice(-300)}`);
        const { value, done } = await Promise.race([
          reader.read(),
          sleep(5000).then(() => ({ value: undefined, done: true })),
        ]);
        assert.ok(!done, 'the feed ended or stalled');
        text += new TextDecoder().decode(value);
      }
      controller.abort();
    });

    it("with replica A gone, every decide through nginx is still answered (by B), and A's healthcheck fails", async () => {
      await a.stop();
      assert.notEqual(healthcheck(a, 1), 0, 'control: the healthcheck fails with nothing on the port');
      const start = nginx.accessLog().length;
      for (let i = 0; i < 10; i++) {
        const res = await decide(nginx.url, `echo after-a-stopped-${i}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const answeredBy = logSince(start)
        .filter((l) => l.method === 'POST' && l.uri === '/v1/decide')
        .map((l) => l.upstreams.at(-1));
      assert.deepEqual(new Set(answeredBy), new Set([upstreamOf(b)]));
      assert.equal(healthcheck(b), 0);
    });
  });
});

/** Undefined when nginx can run here; in CI (nginx-light installed by .ci/run) a missing nginx is a failure. */
function nginxSkipReason(): string | undefined {
  const reason = nginxUnavailable();
  if (reason && inCi()) throw new Error(`CI=true but ${reason}`);
  return reason;
}
