// Copies into a directory (issue 23, row 12): a file copied, moved, linked or unpacked into an agent's settings
// directory is judged under the name it lands as, and a tree landing on such a directory by what it may hold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudge } from './shell-support.ts';

describe('copies into a directory are judged where the files land', async () => {
  const judge = await createJudge();

  it("asks about copies that land on an agent's settings or git's config", () => {
    for (const command of [
      'cp x/settings.json .claude/',
      'cp x/settings.json .claude',
      'cp x/settings.json .claude/./',
      'cp -t .claude x/settings.json',
      'cp --target-directory=.claude x/settings.local.json',
      'rsync -a d/ .claude/',
      'rsync -av /tmp/d/ ~/.codex',
      'tar xf x -C .claude',
      'tar -xzf x.tgz --directory ~/.gemini',
      'unzip x.zip -d .claude',
      'mv /tmp/dotclaude .claude',
      'mv /tmp/dotclaude ~/.claude',
      'cp /tmp/stage/config.toml ~/.codex/',
      'cp -r /tmp/x/.claude .',
      'cp x/* .claude/',
      'install -m 644 x/settings.json .claude/',
      'ln -s /tmp/x/settings.json .claude/',
      'cp a/config .git/',
      'mv /tmp/h .git/hooks',
      'cp -r /tmp/hooks .git/',
    ]) {
      const j = judge(command);
      assert.equal(j.decision, 'ask', `${command}: ${j.reason}`);
      assert.equal(j.risk, 'high', command);
      assert.match(j.reason, /agent's own settings|git hook/, command);
    }
  });

  it('keeps ordinary copies, moves and unpacking allowed (controls)', () => {
    for (const command of [
      'cp x/settings.json backup/',
      'cp -r src/ build/',
      'rsync -a src/ dist/',
      'mv a.txt b.txt',
      'mv build dist',
      'cp -r x ~',
      'tar xzf x.tgz',
      'tar xf x -C /tmp/out',
      'tar xzf site.tgz -C ~',
      'cp .claude/settings.json /tmp/settings.backup.json',
      'cp -r docs /tmp/site',
      'unzip x.zip -d vendor',
    ])
      assert.equal(judge(command).decision, 'allow', command);
  });
});
