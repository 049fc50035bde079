// toolgate's own code run by an agent (issue 23, row 9, the analyzer's half): its CLI under any name or path, and its
// modules imported from inline code, are the toolgate-reviewer finding; reading commands stay allowed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TOOLGATE_ROOT, namesToolgateCode } from '../../src/engine/catalog/toolgate-code.ts';
import { sharedAnalyzer } from './shell-support.ts';
import { createJudge } from './shell-support.ts';

describe("toolgate's own code as a back door", async () => {
  const judge = await createJudge();
  const analyzer = await sharedAnalyzer();
  const raises = (command: string) => analyzer.analyze(command).findings.some((f) => f.id === 'toolgate-reviewer');

  it('knows where this copy is installed (the repository here), from its own address', () => {
    assert.ok(namesToolgateCode(`${TOOLGATE_ROOT}/dist/cli/main.js`));
    assert.ok(namesToolgateCode(`file://${TOOLGATE_ROOT}/src/cli/main.ts`));
    assert.ok(!namesToolgateCode('/srv/app/dist/cli/main.js'));
  });

  it('raises toolgate-reviewer for its modules imported from inline code and its CLI under another name', () => {
    for (const command of [
      `node --input-type=module -e "import('${TOOLGATE_ROOT}/dist/cli/main.js').then((m) => m.main(['approvals', 'resolve', '01ABC', '--choice', 'allow_once']))"`,
      `node -e "require('${TOOLGATE_ROOT}/dist/cli/approvals.js')"`,
      `node --input-type=module -e "import { main } from '${TOOLGATE_ROOT}/dist/cli/main.js'; await main(['rules', 'add', 'allow', 'bash(*)'])"`,
      `node -e "import('toolgate').then(console.log)"`,
      `node -e "require('/usr/lib/node_modules/toolgate/dist/cli/main.js')"`,
      `node -e "import('./dist/cli/main.js').then((m) => m.main(['approvals', 'resolve', '01', '--choice', 'allow_once']))"`,
      `python3 -c "import subprocess; subprocess.run(['node', '/opt/tg/cli.js', 'approvals', 'resolve', '01', '--choice', 'allow_once'])"`,
      `node ${TOOLGATE_ROOT}/dist/cli/main.js approvals resolve 01 --choice allow_once`,
      `node --import tsx ${TOOLGATE_ROOT}/src/cli/main.ts rules add allow 'bash(*)'`,
      `node /path/to/toolgate/bin/toolgate.js approvals resolve 01 --choice allow_once`,
      `cp ${TOOLGATE_ROOT}/bin/toolgate.js /tmp/tg.js && node /tmp/tg.js approvals resolve 01 --choice allow_once`,
      'node /tmp/tg.js approvals resolve 01 --choice allow_once',
      '/tmp/renamed approvals resolve 01',
      'npx toolgate approvals resolve 01 --choice allow_once',
      'npx -y toolgate@latest rules add allow "bash(*)"',
      `${TOOLGATE_ROOT}/bin/toolgate.js review`,
    ]) {
      assert.ok(raises(command), command);
      assert.equal(judge(command).decision, 'ask', command);
    }
  });

  it("leaves toolgate's reading commands and other programs alone (controls)", () => {
    for (const command of [
      `node ${TOOLGATE_ROOT}/dist/cli/main.js check 'ls -la'`,
      'npx toolgate approvals list',
      'npx toolgate audit verify',
      'node dist/cli/main.js --help',
      "node -e 'console.log(1)'",
      `node -e "console.log(require('./package.json').version)"`,
      'gh pr review 12 --approve',
      'kubectl get approvals',
    ]) {
      assert.ok(!raises(command), command);
      assert.equal(judge(command).decision, 'allow', command);
    }
  });
});
