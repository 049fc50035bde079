// The deployment check (toolgate doctor, and serve at start): warns when the sidecar runs where its agents reach it.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { agentProcessesOf, deploymentWarnings, type DeploymentFacts } from '../../src/service/deployment-check.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const service: DeploymentFacts = {
  uid: 61234,
  user: 'toolgate',
  home: '/',
  dataDir: '/var/lib/toolgate',
  dataDirOwner: 61234,
  dataDirMode: 0o40700,
  agentProcesses: [],
  tokenVariables: [],
};

describe('deploymentWarnings', () => {
  it('a service account with its data in /var/lib (systemd DynamicUser=, StateDirectory=) gives no warning', () => {
    assert.deepEqual(deploymentWarnings(service), []);
  });
  it('a login user serving from a data dir in its own home is warned, naming the remedy', () => {
    const [warning, ...rest] = deploymentWarnings({
      ...service,
      uid: 1000,
      user: 'me',
      home: '/home/me',
      dataDir: '/home/me/.toolgate',
      dataDirOwner: 1000,
    });
    assert.match(
      warning ?? '',
      /login user me \(uid 1000\).*inside that user's home.*Running toolgate as its own user/,
    );
    assert.deepEqual(rest, []);
  });
  it('root, agents under the same uid, a widened data dir, a foreign owner and token variables are each warned', () => {
    assert.match(deploymentWarnings({ ...service, uid: 0 }).join('\n'), /runs as root/);
    assert.match(
      deploymentWarnings({ ...service, agentProcesses: ['claude (pid 42)'] }).join('\n'),
      /agents run under the same uid as toolgate \(claude \(pid 42\)\)/,
    );
    assert.match(deploymentWarnings({ ...service, dataDirMode: 0o40755 }).join('\n'), /chmod 700/);
    assert.match(deploymentWarnings({ ...service, dataDirOwner: 1000 }).join('\n'), /belongs to uid 1000/);
    assert.match(
      deploymentWarnings({ ...service, tokenVariables: ['TOOLGATE_REVIEWER_TOKEN'] }).join('\n'),
      /\/proc\/<pid>\/environ/,
    );
  });
  it('a neighbouring directory whose name starts like the home is not "in the home"', () => {
    assert.deepEqual(
      deploymentWarnings({
        ...service,
        uid: 1000,
        home: '/home/me',
        dataDir: '/home/me2/.toolgate',
        dataDirOwner: 1000,
      }),
      [],
    );
  });
});

describe('agentProcessesOf (Linux /proc)', () => {
  it('finds agents of the same uid by program or package name, and leaves other uids and programs alone', () => {
    const proc = mkdtempSync(join(tmpdir(), 'toolgate-proc-'));
    dirs.push(proc);
    const add = (pid: number, uid: number, argv: string[]) => {
      mkdirSync(join(proc, String(pid)));
      writeFileSync(join(proc, String(pid), 'status'), `Name:\tx\nUid:\t${uid}\t${uid}\t${uid}\t${uid}\n`);
      writeFileSync(join(proc, String(pid), 'cmdline'), argv.join('\0') + '\0');
    };
    add(10, 1000, ['/usr/bin/claude', '--resume']);
    add(11, 1000, ['node', '/usr/lib/node_modules/@openai/codex/bin/codex.js']);
    add(12, 1001, ['/usr/bin/gemini']);
    add(13, 1000, ['/usr/bin/vim', 'claude.txt']);
    const found = agentProcessesOf(1000, proc).sort();
    assert.deepEqual(found, ['claude (pid 10)', 'codex (pid 11)']);
  });
});

describe('toolgate doctor', () => {
  it('reports a tokens file others can read, with the fix, and exits 1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-doctor-'));
    dirs.push(dataDir);
    chmodSync(dataDir, 0o700);
    writeFileSync(join(dataDir, 'tokens.json'), '{}');
    chmodSync(join(dataDir, 'tokens.json'), 0o644);
    const out: string[] = [];
    const code = await main(['doctor', '--data-dir', dataDir], {
      out: (t) => out.push(t),
      err: () => {},
      env: { HOME: '/nonexistent-home' },
    });
    assert.equal(code, 1);
    assert.match(out.join('\n'), new RegExp(`tokens\\.json is readable by other users \\(mode 644\\): chmod 600`));
  });
});
