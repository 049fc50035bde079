// Issue 28: deploying and changing shared infrastructure is asked about; the read-only twins of the same tools are not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEPLOYERS } from '../../src/engine/catalog/danger-deploy.ts';
import { createJudge } from './shell-support.ts';

describe('deploying tools', async () => {
  const judge = await createJudge();
  for (const deployer of DEPLOYERS) {
    describe(deployer.programs.join('/'), () => {
      it(`asks (high): ${deployer.example}`, () => {
        const j = judge(deployer.example);
        assert.equal(j.decision, 'ask', j.reason);
        assert.equal(j.risk, 'high');
      });
      for (const control of deployer.controls) {
        it(`allows: ${control}`, () => assert.equal(judge(control).decision, 'allow', judge(control).reason));
      }
    });
  }

  it('leaves to their own entries what they already judge (one reason, not two)', () => {
    for (const command of [
      'terraform apply -auto-approve',
      'fly deploy',
      'gcloud run deploy api --source .',
      'kubectl apply -f k8s/ -n production',
      'terraform destroy',
    ]) {
      assert.ok(!judge(command).reason.includes('shared infrastructure'), command);
    }
  });
});
