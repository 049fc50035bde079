// Issue 26: the service reads the project's git config for the engine, so that printing a remote URL with a
// credential in it (`git remote -v`) is denied as reading a credential file is; elsewhere it stays allowed. And the
// service tells dd/truncate whether the file they write over is there.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { configHasRemoteCredential, projectRemoteCredentials } from '../../src/service/project-git-remotes.ts';
import { createToolgate } from '../../src/service/toolgate.ts';
import { TEST_HOME, testAnalyzer } from '../support/harness.ts';

const root = mkdtempSync(join(tmpdir(), 'toolgate-git-remotes-'));
after(() => rmSync(root, { recursive: true, force: true }));

const remote = (url: string) =>
  `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`;

/** A repository at `dir` whose origin is `url`. */
function repo(dir: string, url: string): string {
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(join(dir, '.git', 'config'), remote(url));
  return dir;
}

describe('configHasRemoteCredential', () => {
  for (const url of [
    'https://alice:s3cret@github.com/o/r.git',
    'https://ghp_0123456789abcdefghijABCDEFGHIJ012345@github.com/o/r.git',
    'https://x-access-token:ghs_abc@github.com/o/r',
    'https://oauth2:glpat-xyz@gitlab.com/o/r.git',
  ]) {
    it(`finds one in ${url}`, () => assert.equal(configHasRemoteCredential(remote(url)), true));
  }
  for (const url of [
    'git@github.com:o/r.git',
    'https://github.com/o/r.git',
    'ssh://git@github.com/o/r.git',
    'https://alice@bitbucket.org/o/r.git',
  ]) {
    it(`finds none in ${url}`, () => assert.equal(configHasRemoteCredential(remote(url)), false));
  }
});

describe('projectRemoteCredentials', () => {
  it("reads the repository's config from a subdirectory and through a worktree's .git file", () => {
    const main = repo(join(root, 'main'), 'https://alice:s3cret@github.com/o/r.git');
    mkdirSync(join(main, 'src', 'lib'), { recursive: true });
    const read = projectRemoteCredentials();
    assert.equal(read(join(main, 'src', 'lib'), 'git remote -v'), true);
    // A linked worktree: `.git` is a file naming its git dir, whose commondir is the main repository's.
    const wtGit = join(main, '.git', 'worktrees', 'wt');
    mkdirSync(wtGit, { recursive: true });
    writeFileSync(join(wtGit, 'commondir'), '../..\n');
    const wt = join(root, 'wt');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${wtGit}\n`);
    assert.equal(read(wt, 'git remote -v'), true);
  });

  it('answers false for a clean URL, no repository, a relative cwd or a command that prints no remote', () => {
    const clean = repo(join(root, 'clean'), 'git@github.com:o/r.git');
    const read = projectRemoteCredentials();
    assert.equal(read(clean, 'git remote -v'), false);
    const dirty = repo(join(root, 'dirty'), 'https://alice:s3cret@github.com/o/r.git');
    assert.equal(read(dirty, 'npm test'), false, 'not read for a command that cannot print it');
    assert.equal(read('relative', 'git remote -v'), false);
    assert.equal(read('/', 'git remote -v'), false);
  });
});

describe('the decider with a real repository', () => {
  it('denies printing a remote URL with a token, allows it without one, and judges overwrites by what is there', async () => {
    const dirty = repo(
      join(root, 'p-dirty'),
      'https://alice:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r.git',
    );
    const clean = repo(join(root, 'p-clean'), 'git@github.com:o/r.git');
    mkdirSync(join(clean, 'data'));
    writeFileSync(join(clean, 'README.md'), '# x\n');
    writeFileSync(join(clean, 'data', 'users.csv'), 'id,name\n');
    const config = loadConfig({ 'data-dir': join(root, 'data-dir') }, {});
    const toolgate = await createToolgate(config, {
      dbPath: ':memory:',
      home: TEST_HOME,
      analyzer: await testAnalyzer(),
    });
    try {
      const decide = async (command: string, cwd: string) =>
        (await toolgate.decider.decide({ tool: 'bash', args: { command }, agentId: 'a', cwd, delegateAsk: true }))
          .verdict;
      for (const command of [
        'git remote -v',
        'git remote get-url origin',
        'git config --get remote.origin.url',
        'cat .git/config',
        'git remote -v | grep origin',
      ]) {
        const v = await decide(command, dirty);
        assert.equal(v.decision, 'deny', command);
        assert.equal(v.source, 'protected_path', command);
      }
      // Names only, other settings, and the same commands in a repository with no credential in its URLs.
      for (const command of ['git remote', 'git config user.name', 'git status', 'git push origin main'])
        assert.equal((await decide(command, dirty)).decision, 'allow', command);
      for (const command of ['git remote -v', 'cat .git/config'])
        assert.equal((await decide(command, clean)).decision, 'allow', command);

      // dd and truncate over files that are there are asked; over files that are not (their directory is), allowed.
      assert.equal((await decide('dd if=/dev/urandom of=README.md bs=4k count=1', clean)).decision, 'ask');
      assert.equal((await decide('truncate -s 0 data/users.csv', clean)).decision, 'ask');
      assert.equal((await decide('dd if=/dev/urandom of=notes.md bs=4k count=1', clean)).decision, 'allow');
      assert.equal((await decide('truncate -s 0 data/new.csv', clean)).decision, 'allow');
    } finally {
      await toolgate.close();
    }
  });
});
