// The service reads <cwd>/.gitignore for the engine: bounded, cached by mtime, used end to end by the decider.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { projectGitignore } from '../../src/service/project-gitignore.ts';
import { createToolgate } from '../../src/service/toolgate.ts';
import { TEST_HOME, testAnalyzer } from '../support/harness.ts';

const root = mkdtempSync(join(tmpdir(), 'toolgate-gitignore-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('projectGitignore', () => {
  it('reads the lines of a project .gitignore, and again only when it changes', () => {
    const dir = join(root, 'a');
    mkdirSync(dir);
    writeFileSync(join(dir, '.gitignore'), 'generated/\n*.log\n');
    const read = projectGitignore();
    assert.deepEqual(read(dir, 'rm -rf generated')?.slice(0, 2), ['generated/', '*.log']);
    writeFileSync(join(dir, '.gitignore'), 'other/\n');
    utimesSync(join(dir, '.gitignore'), new Date(), new Date(Date.now() + 5_000));
    assert.deepEqual(read(dir, 'rm -rf other')?.[0], 'other/');
  });

  it('reads nothing for a command that deletes nothing, a missing or oversized file, or a relative cwd', () => {
    const dir = join(root, 'b');
    mkdirSync(dir);
    const read = projectGitignore({ maxBytes: 64 });
    assert.equal(read(dir, 'rm -rf x'), undefined, 'no .gitignore');
    writeFileSync(join(dir, '.gitignore'), 'x/\n');
    assert.equal(read(dir, 'ls -la'), undefined);
    assert.equal(read('relative/dir', 'rm -rf x'), undefined);
    writeFileSync(join(dir, '.gitignore'), 'y/\n'.repeat(100));
    assert.equal(read(dir, 'rm -rf y'), undefined, 'over maxBytes');
  });
});

describe('the decider with a real project directory', () => {
  it('allows deleting build output and ignored directories, asks for the rest and for a symlink out', async () => {
    const project = join(root, 'project');
    const outside = join(root, 'outside');
    mkdirSync(join(project, 'generated'), { recursive: true });
    mkdirSync(join(project, 'dist'));
    mkdirSync(outside);
    symlinkSync(outside, join(project, 'node_modules'));
    writeFileSync(join(project, '.gitignore'), 'generated/\ndata/\n');
    const config = loadConfig({ 'data-dir': join(root, 'data') }, {});
    const toolgate = await createToolgate(config, {
      dbPath: ':memory:',
      home: TEST_HOME,
      analyzer: await testAnalyzer(),
    });
    try {
      const decide = async (command: string) =>
        (
          await toolgate.decider.decide({
            tool: 'bash',
            args: { command },
            agentId: 'a',
            cwd: project,
            delegateAsk: true,
          })
        ).verdict;
      assert.equal((await decide('rm -rf dist generated')).decision, 'allow');
      assert.equal((await decide('rm -rf data')).decision, 'ask', 'data is never disposable');
      assert.equal((await decide('rm -rf src')).decision, 'ask');
      assert.equal(
        (await decide('rm -rf node_modules/')).decision,
        'ask',
        'node_modules is a symlink out of the project',
      );
    } finally {
      await toolgate.close();
    }
  });
});
