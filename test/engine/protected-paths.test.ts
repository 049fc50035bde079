// Protected paths: the credential places of every home, toolgate's data dir and extras, for file tools and bash.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { protectedPathFor, protectedShellPath, type PathContext } from '../../src/engine/protected-paths.ts';
import { HOME, sharedAnalyzer } from './shell-support.ts';

const ctx: PathContext = {
  home: HOME,
  cwd: `${HOME}/work/project`,
  dataDir: `${HOME}/.toolgate`,
  extra: ['~/.private', '/etc/app/*.key'],
};

describe('protectedPathFor (file tools)', () => {
  const protectedPaths = [
    '~/.ssh/id_rsa',
    '~/.ssh',
    `${HOME}/.aws/credentials`,
    '$HOME/.kube/config',
    '${HOME}/.gnupg/pubring.kbx',
    '~/.netrc',
    '~/.config/gcloud/credentials.db',
    '/root/.ssh/authorized_keys',
    '/home/alice/.aws/config',
    '/Users/bob/.ssh/id_ed25519',
    '../../.ssh/id_rsa',
    '~/.ssh/../.ssh/id_rsa',
    '~/.ss?/id_rsa',
    '~/.*/credentials',
    '/home/*/.aws/x',
    '~/.toolgate/toolgate.db',
    '~/.toolgate/toolgate.db-wal',
    '~/.toolgate/tokens.json',
    '~/.private/a.txt',
    '/etc/app/server.key',
  ];
  for (const p of protectedPaths) {
    it(`protects ${p}`, () => {
      const hit = protectedPathFor(p, ctx);
      assert.ok(hit, 'expected a hit');
      assert.equal(hit.certain, true);
      assert.ok(hit.reason.length > 5);
    });
  }
  for (const p of [
    '~/.sshrc',
    './test/fixtures/.aws/credentials',
    'src/.ssh/x',
    '~/.cache/x',
    '~/.config/nvim/init.lua',
    '/home/alice/notes.txt',
    '~/*',
    '/etc/app/config.yml',
    '~/.toolgate-old/x',
  ]) {
    it(`leaves ${p}`, () => assert.equal(protectedPathFor(p, ctx), undefined));
  }
  it('a variable that may reach a protected place is uncertain', () => {
    assert.equal(protectedPathFor('$SOMEHOME/.ssh/id_rsa', ctx)?.certain, false);
    assert.equal(protectedPathFor('/home/$USER/.aws/credentials', ctx)?.certain, false);
    assert.equal(protectedPathFor('$DIR/file.txt', ctx), undefined, 'an unknown directory alone is not a hit');
  });
  it('follows symlinks through the injected realpath, also for files that do not exist yet', () => {
    const links: Record<string, string> = {
      [`${HOME}/work/project/key`]: `${HOME}/.ssh/id_rsa`,
      [`${HOME}/work/project/cfg`]: `${HOME}/.aws`,
    };
    const existing = new Set([HOME, `${HOME}/work`, `${HOME}/work/project`, `${HOME}/work/project/README.md`]);
    const withLinks: PathContext = { ...ctx, realpath: (p) => links[p] ?? (existing.has(p) ? p : undefined) };
    assert.equal(protectedPathFor('key', withLinks)?.protectedBy, '~/.ssh');
    assert.equal(protectedPathFor('cfg/new-file', withLinks)?.protectedBy, '~/.aws');
    assert.equal(protectedPathFor('README.md', withLinks), undefined);
  });
});

describe('protectedShellPath (bash)', async () => {
  const analyzer = await sharedAnalyzer();
  const hit = (cmd: string) => protectedShellPath(analyzer.analyze(cmd), ctx);
  for (const cmd of [
    'cat ~/.ssh/id_rsa',
    'cd ~/.ssh && cat id_rsa',
    'cat < ~/.netrc',
    'echo x >> ~/.ssh/authorized_keys',
    'cat ~/.ss?/id_rsa',
    'cat ~/.*/credentials',
    'find ~/.ssh -type f',
    'find ~ -name id_rsa -exec cat {} \\;',
    'cat /home/*/.aws/credentials',
    'cat $(echo ~/.netrc)',
    "bash -c 'cat ~/.kube/config'",
    'tar czf x.tgz ~/.gnupg',
    'cp ~/.toolgate/tokens.json /tmp/',
    'cd ~ && cd .aws && cat config',
    'ssh -i ~/.ssh/prod.pem host',
    'openssl x --in=~/.ssh/id_rsa',
    'dd if=~/.ssh/id_rsa of=/tmp/k',
  ]) {
    it(`denies ${cmd}`, () => assert.equal(hit(cmd)?.certain, true));
  }
  for (const cmd of [
    'cat ~/.sshrc',
    'cat ./test/fixtures/.aws/credentials',
    "echo 'key in ~/.ssh/id_rsa'",
    'ls ~',
    'du -sh ~/*',
    'find ~ -name "*.ts"',
    'grep -r ssh src/',
    'git log -- .aws',
  ]) {
    it(`allows ${cmd}`, () => assert.equal(hit(cmd), undefined));
  }
  it('asks when a variable may reach a protected place', () => {
    assert.equal(hit('cat "$BACKUP_HOME/.ssh/id_rsa"')?.certain, false);
    assert.equal(hit('cat "$f"'), undefined);
  });
  it('prefers a certain hit over an uncertain one', () => {
    assert.equal(hit('cat $X/.aws/credentials ~/.netrc')?.protectedBy, '~/.netrc');
  });
});

describe('protected roots across contexts', () => {
  it('a relative extra follows the cwd of each call', () => {
    const relative: PathContext = { home: HOME, cwd: '/srv/a', extra: ['secrets'] };
    assert.equal(protectedPathFor('/srv/a/secrets/k', relative)?.protectedBy, 'secrets');
    assert.equal(protectedPathFor('/srv/a/secrets/k', { ...relative, cwd: '/srv/b' }), undefined);
    assert.equal(protectedPathFor('/srv/b/secrets/k', { ...relative, cwd: '/srv/b' })?.protectedBy, 'secrets');
    assert.equal(protectedPathFor('/srv/b/secrets/k', relative), undefined);
  });
  it('sees a change of the extras, the data dir or the home', () => {
    const base: PathContext = { home: HOME, cwd: '/srv', extra: ['/opt/one'] };
    assert.ok(protectedPathFor('/opt/one/x', base));
    assert.equal(protectedPathFor('/opt/two/x', base), undefined);
    assert.ok(protectedPathFor('/opt/two/x', { ...base, extra: ['/opt/two'] }));
    assert.equal(protectedPathFor('/opt/one/x', { ...base, extra: ['/opt/two'] }), undefined);
    const extra = ['/opt/one'];
    const mutable: PathContext = { ...base, extra };
    assert.equal(protectedPathFor('/opt/three/x', mutable), undefined);
    extra.push('/opt/three');
    assert.ok(protectedPathFor('/opt/three/x', mutable), 'an extra added to the same list counts');
    assert.equal(protectedPathFor('/var/data/db', base), undefined);
    assert.equal(protectedPathFor('/var/data/db', { ...base, dataDir: '/var/data' })?.protectedBy, '/var/data');
    assert.equal(
      protectedPathFor('/home/tester2/.ssh/id_rsa', { ...base, home: '/home/tester2' })?.protectedBy,
      '~/.ssh',
    );
  });
  it('extras that start with a pattern or ** are checked for every path, in declaration order', () => {
    const patterned: PathContext = { home: HOME, cwd: '/srv', extra: ['/*/vault', '/**/.env', '/opt/keys'] };
    assert.equal(protectedPathFor('/opt/vault/a', patterned)?.protectedBy, '/*/vault');
    assert.equal(protectedPathFor('/srv/app/.env', patterned)?.protectedBy, '/**/.env');
    assert.equal(
      protectedPathFor('/opt/keys/.env', patterned)?.protectedBy,
      '/**/.env',
      'the earlier extra is reported',
    );
    assert.equal(protectedPathFor('/opt/keys/a', patterned)?.protectedBy, '/opt/keys');
    assert.equal(
      protectedPathFor('/root/.aws/x', patterned)?.protectedBy,
      '/root/.aws',
      'a home entry comes before the extras',
    );
    assert.equal(protectedPathFor('/', patterned), undefined);
    assert.equal(
      protectedPathFor('/*/.ssh', patterned)?.protectedBy,
      '/root/.ssh',
      'a glob as the first name is compared with every root',
    );
  });
  it('a path without symlinks, and one whose parent is a symlink into a home', () => {
    const links: Record<string, string> = { '/srv/link': `${HOME}/.ssh`, '/srv/plain': '/srv/plain' };
    const withLinks: PathContext = { home: HOME, cwd: '/srv', realpath: (p) => links[p] };
    assert.equal(protectedPathFor('/srv/plain/id_rsa', withLinks), undefined);
    assert.equal(protectedPathFor('/srv/link/id_rsa', withLinks)?.protectedBy, '~/.ssh');
    assert.equal(
      protectedPathFor('/proc/self/root/srv/link/k', withLinks)?.protectedBy,
      undefined,
      'the proc root is followed literally, not through the link',
    );
    assert.equal(protectedPathFor(`/proc/self/root${HOME}/.aws/x`, withLinks)?.protectedBy, '~/.aws');
  });
});
