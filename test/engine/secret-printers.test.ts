// Issue 26: printing a secret a tool keeps in a protected file is denied exactly as reading that file is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { SECRET_PRINTERS } from '../../src/engine/catalog/secret-printers.ts';
import { PROTECTED_IN_HOME } from '../../src/engine/catalog/protected-dirs.ts';
import { decide } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import { CWD, HOME, sharedAnalyzer } from './shell-support.ts';

describe('secret printers', async () => {
  const analyzer = await sharedAnalyzer();
  const aliases = buildAliasIndex();
  const ctx = { operatorMode: 'default' as const, askFallback: 'deny' as const, home: HOME, aliases, analyzer };
  const judge = (command: string, rules: Parameters<typeof compilePolicy>[0] = [], mode?: 'bypass_all') =>
    decide(
      { call: { tool: 'bash', args: { command }, cwd: CWD } },
      compilePolicy(rules, aliases, HOME),
      mode ? { ...ctx, operatorMode: mode } : ctx,
    );

  for (const printer of SECRET_PRINTERS) {
    describe(printer.id, () => {
      it('keeps its secret in a protected place', () => {
        // (Only these name none: ansible-vault's vault is a project file and its password has no fixed place; the password
        // managers keep their vaults encrypted, unlocked per session.)
        // (Issue 28 adds home-key-file-print: a key file saved in the home is the secret itself, wherever it lies there.)
        // (Issue 26 adds secrets kept outside a home: other processes' environments (/proc/<pid>/environ, a system
        // protected path), a project's Rails master key, a repository's git-crypt key, a container's /run/secrets, NetworkManager's system connections.)
        if (printer.keptIn === undefined)
          return assert.ok(
            [
              'ansible-vault-view',
              'password-manager-show',
              'home-key-file-print',
              'process-environment',
              'project-master-key',
              'git-crypt-export-key',
              'container-secret-print',
              'nmcli-secrets',
              // (Round 4: a secret manager's values, read with whichever login its CLI keeps; /etc/wireguard; a key
              // file anywhere, known by its name.)
              'secret-manager-print',
              'wireguard-showconf',
              'key-file-print',
              // (Round 5: the shadow database through getent; credentials inline code reads through a library or
              // an application's own secrets.)
              'getent-shadow',
              'inline-credential-print',
              'history-secret-search',
              'database-password-print',
              'decrypted-secret-print',
              // (Round 6: a keystore anywhere, known by its name; a machine's secret files under /etc, /opt, /srv;
              // an application's secrets printed through its framework, kept in the project's .env or settings; a CI token
              // kept as a header in the repository's git config.)
              'keystore-print',
              'system-secret-file-print',
              'framework-secret-print',
              'git-extraheader-print',
              // (Round 7: live credentials a cloud metadata service hands out; another process's memory.)
              'cloud-metadata-credentials',
              'process-memory-dump',
              'kernel-keyring-print',
            ].includes(printer.id),
            printer.id,
          );
        const kept = printer.keptIn;
        assert.ok(
          PROTECTED_IN_HOME.some((p) => kept === p.relative || kept.startsWith(`${p.relative}/`)),
          kept,
        );
      });
      for (const example of printer.examples) {
        it(`denies: ${example}`, () => {
          const v = judge(example);
          assert.equal(v.decision, 'deny', v.reason);
          assert.equal(v.source, 'protected_path');
        });
      }
      for (const control of printer.controls) {
        it(`allows: ${control}`, () => assert.equal(judge(control).decision, 'allow', judge(control).reason));
      }
    });
  }

  it('no allow rule and no mode lets one through, as for the file itself', () => {
    const rules = [
      {
        id: 'r1',
        effect: 'allow',
        pattern: 'bash(aws *)',
        position: 1,
        risk: null,
        scope: 'global',
        expiresAt: null,
        note: null,
        createdBy: null,
        createdAt: '2026-12-03T00:00:00Z',
      },
    ] as never;
    assert.equal(judge('aws configure get region', rules).decision, 'allow', 'the rule is in force');
    assert.equal(judge('aws configure get aws_secret_access_key', rules).decision, 'deny');
    assert.equal(judge('aws configure get aws_secret_access_key', [], 'bypass_all').decision, 'deny');
    assert.equal(judge('cat ~/.aws/credentials', [], 'bypass_all').decision, 'deny');
  });

  it('a secret handed straight to a login that reads stdin, or thrown away, is not printed', () => {
    assert.equal(judge('gh auth token | docker login ghcr.io -u me --password-stdin').decision, 'allow');
    assert.equal(judge('gh auth token >/dev/null && echo logged-in').decision, 'allow');
    assert.equal(
      judge('T=$(gcloud auth print-access-token) && curl -H "Authorization: Bearer $T" https://example.com').decision,
      'allow',
    );
  });

  it('secrets fetched from a service stay asked about, not denied', () => {
    // (Round 2 of issue 26 moved `vault kv get` and `sops -d` to the denied table: printing a secret is reading it, and
    // their tokens and keys live in protected files, ~/.vault-token and ~/.config/sops/age/keys.txt.)
    // (Round 4 of issue 26 denies a secret manager's values printed to the terminal, secret-manager-print: asked
    // here now is the same secret written to a file, and a cluster's workload secrets.)
    for (const command of [
      'kubectl get secret db -o yaml',
      'aws secretsmanager get-secret-value --secret-id prod/db > secret.json',
      'gcloud secrets versions access latest --secret x --out-file=pw.txt',
      'doppler secrets download secrets.json',
    ]) {
      assert.equal(judge(command).decision, 'ask', command);
    }
  });
});
