// Protected paths: the credential places of every home, toolgate's data dir and extras, for file tools and bash.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { protectedPathFor, protectedShellPath, type PathContext } from '../../src/engine/protected-paths.ts';
import { HOME, sharedAnalyzer } from './shell-support.ts';

const ctx: PathContext = { home: HOME, cwd: `${HOME}/work/project`, dataDir: `${HOME}/.toolgate`, extra: ['~/.private', '/etc/app/*.key'] };

describe('protectedPathFor (file tools)', () => {
  const protectedPaths = [
    '~/.ssh/id_rsa', '~/.ssh', `${HOME}/.aws/credentials`, '$HOME/.kube/config', '${HOME}/.gnupg/pubring.kbx', '~/.netrc',
    '~/.config/gcloud/credentials.db', '/root/.ssh/authorized_keys', '/home/alice/.aws/config', '/Users/bob/.ssh/id_ed25519',
    '../../.ssh/id_rsa', '~/.ssh/../.ssh/id_rsa', '~/.ss?/id_rsa', '~/.*/credentials', '/home/*/.aws/x', '~/.toolgate/toolgate.db',
    '~/.toolgate/toolgate.db-wal', '~/.toolgate/tokens.json', '~/.private/a.txt', '/etc/app/server.key',
  ];
  for (const p of protectedPaths) {
    it(`protects ${p}`, () => {
      const hit = protectedPathFor(p, ctx);
      assert.ok(hit, 'expected a hit');
      assert.equal(hit.certain, true);
      assert.ok(hit.reason.length > 5);
    });
  }
  for (const p of ['~/.sshrc', './test/fixtures/.aws/credentials', 'src/.ssh/x', '~/.cache/x', '~/.config/nvim/init.lua', '/home/alice/notes.txt', '~/*', '/etc/app/config.yml', '~/.toolgate-old/x']) {
    it(`leaves ${p}`, () => assert.equal(protectedPathFor(p, ctx), undefined));
  }
  it('a variable that may reach a protected place is uncertain', () => {
    assert.equal(protectedPathFor('$SOMEHOME/.ssh/id_rsa', ctx)?.certain, false);
    assert.equal(protectedPathFor('/home/$USER/.aws/credentials', ctx)?.certain, false);
    assert.equal(protectedPathFor('$DIR/file.txt', ctx), undefined, 'an unknown directory alone is not a hit');
  });
  it('follows symlinks through the injected realpath, also for files that do not exist yet', () => {
    const links: Record<string, string> = { [`${HOME}/work/project/key`]: `${HOME}/.ssh/id_rsa`, [`${HOME}/work/project/cfg`]: `${HOME}/.aws` };
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
    'cat ~/.ssh/id_rsa', 'cd ~/.ssh && cat id_rsa', 'cat < ~/.netrc', 'echo x >> ~/.ssh/authorized_keys', 'cat ~/.ss?/id_rsa',
    'cat ~/.*/credentials', 'find ~/.ssh -type f', 'find ~ -name id_rsa -exec cat {} \\;', 'cat /home/*/.aws/credentials',
    'cat $(echo ~/.netrc)', "bash -c 'cat ~/.kube/config'", 'tar czf x.tgz ~/.gnupg', 'cp ~/.toolgate/tokens.json /tmp/',
    'cd ~ && cd .aws && cat config', 'ssh -i ~/.ssh/prod.pem host', 'openssl x --in=~/.ssh/id_rsa', 'dd if=~/.ssh/id_rsa of=/tmp/k',
  ]) {
    it(`denies ${cmd}`, () => assert.equal(hit(cmd)?.certain, true));
  }
  for (const cmd of ['cat ~/.sshrc', 'cat ./test/fixtures/.aws/credentials', "echo 'key in ~/.ssh/id_rsa'", 'ls ~', 'du -sh ~/*', 'find ~ -name "*.ts"', 'grep -r ssh src/', 'git log -- .aws']) {
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
