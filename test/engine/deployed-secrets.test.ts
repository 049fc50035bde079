// Issue 28: printing what a running deployment holds (a container's environment, a release's values, config vars,
// infrastructure state) is asked about; names-only listings and the same tools' other reads are not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEPLOYED_SECRETS } from '../../src/engine/catalog/deployed-secrets.ts';
import { createJudge } from './shell-support.ts';

describe('deployed secrets printed', async () => {
  const judge = await createJudge();
  for (const printer of DEPLOYED_SECRETS) {
    describe(printer.programs.join('/'), () => {
      // (Round 4 of issue 26: chamber and Infisical are secret managers, and their values printed to the terminal are
      // denied as reading a secret is, secret-manager-print; written to a file they stay asked about.)
      const secretManager = printer.programs.some((p) => p === 'chamber' || p === 'infisical');
      it(`${secretManager ? 'denies' : 'asks (high)'}: ${printer.example}`, () => {
        const j = judge(printer.example);
        assert.equal(j.decision, secretManager ? 'deny' : 'ask', j.reason);
        assert.equal(j.risk, 'high');
      });
      for (const control of printer.controls) {
        it(`allows: ${control}`, () => assert.equal(judge(control).decision, 'allow', judge(control).reason));
      }
    });
  }

  it('a value handed to the next command, or thrown away, is not printed; written to a file it stays asked', () => {
    for (const command of [
      'helm get values api -n prod > /dev/null',
      'T=$(terraform output -raw api_token) && curl -H "Authorization: Bearer $T" https://example.com',
    ]) {
      assert.equal(judge(command).decision, 'allow', command);
    }
    // (A production kubeconfig written into the project is one `cat` away from the agent.)
    assert.equal(judge('terraform output -raw kubeconfig > kubeconfig.yaml').decision, 'ask');
  });
});
