// Credential places of coding agents, cloud and hosting CLIs, browsers and clusters: reading, copying or listing one
// is denied, by bash and by file tools; the ordinary files beside them (an agent's settings, a CA bundle) stay allowed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROTECTED_IN_HOME, PROTECTED_ON_SYSTEM } from '../../src/engine/catalog/protected-dirs.ts';
import { buildAliasIndex } from '../../src/engine/catalog/tool-aliases.ts';
import { decide, type EngineContext } from '../../src/engine/decide.ts';
import { compilePolicy } from '../../src/engine/rules/policy.ts';
import { sharedAnalyzer } from './shell-support.ts';

const HOME = '/home/tester';
const CWD = `${HOME}/work/project`;
const aliases = buildAliasIndex();
type Call = { tool: string; args: Record<string, unknown> };
const bash = (command: string): Call => ({ tool: 'Bash', args: { command } });
const read = (path: string): Call => ({ tool: 'Read', args: { file_path: path } });

/** [the call, a part of the reason the verdict must give: names the entry that protects it]. */
const DENIED: [Call, string][] = [
  // Coding agents' logins: only the credentials file, not the agent's directory.
  [bash('cat ~/.claude/.credentials.json'), 'Claude Code OAuth credentials'],
  [read(`${HOME}/.claude/.credentials.json`), 'Claude Code OAuth credentials'],
  [bash('tar czf /tmp/claude.tgz ~/.claude'), 'Claude Code OAuth credentials'],
  [bash('cat ~/.codex/auth.json'), 'Codex CLI login'],
  [bash('cp ~/.codex/auth.json /tmp/'), 'Codex CLI login'],
  [bash('ls -l ~/.codex/auth.json'), 'Codex CLI login'],
  [{ tool: 'Grep', args: { pattern: 'token', path: `${HOME}/.codex` } }, 'Codex CLI login'],
  [read('~/.codex/auth.json'), 'Codex CLI login'],
  [bash('cat ~/.gemini/oauth_creds.json'), 'Gemini CLI Google OAuth credentials'],
  [read(`${HOME}/.gemini/oauth_creds.json`), 'Gemini CLI Google OAuth credentials'],
  [bash('jq . ~/.gemini/mcp-oauth-tokens.json'), 'OAuth tokens for MCP servers'],
  // Registries and local clusters.
  [bash('cat ~/.config/containers/auth.json'), 'container registry logins'],
  [read(`${HOME}/.config/containers/auth.json`), 'container registry logins'],
  [bash('cat ~/.minikube/ca.key'), 'minikube cluster CA private keys'],
  [bash('cat ~/.minikube/*'), 'minikube cluster CA private keys'],
  [read(`${HOME}/.minikube/profiles/minikube/client.key`), 'minikube cluster client and API server private keys'],
  [bash('cp ~/.minikube/profiles/dev/apiserver.key /tmp/'), 'minikube cluster client and API server private keys'],
  [bash('cat ~/.minikube/certs/ca-key.pem'), 'minikube machine CA and client private keys'],
  [read(`${HOME}/.minikube/machines/server-key.pem`), 'minikube machine server private key'],
  [
    bash('ssh -i ~/.minikube/machines/minikube/id_rsa docker@192.168.49.2'),
    'SSH private key into the minikube machine',
  ],
  // Encryption keys, cloud storage, hosting platforms.
  [bash('cat ~/.config/sops/age/keys.txt'), 'age private keys (SOPS)'],
  [read(`${HOME}/Library/Application Support/sops/age/keys.txt`), 'age private keys (SOPS)'],
  [bash('grep secret_key ~/.s3cfg'), 'S3 access keys (s3cmd)'],
  [read(`${HOME}/.boto`), 'gsutil, boto'],
  [bash('cat ~/.config/rclone/rclone.conf'), 'rclone'],
  [bash('ls ~/.config/op'), '1Password CLI'],
  [read(`${HOME}/.op/config`), '1Password CLI'],
  [bash('cat ~/.fly/config.yml'), 'Fly.io access token'],
  [read(`${HOME}/.config/configstore/firebase-tools.json`), 'Firebase CLI login'],
  [bash('cat ~/.config/netlify/config.json'), 'Netlify CLI access token'],
  [read(`${HOME}/.netlify/config.json`), 'Netlify CLI access token'],
  [read(`${HOME}/Library/Preferences/netlify/config.json`), 'Netlify CLI access token'],
  [bash('cat ~/.local/share/com.vercel.cli/auth.json'), 'Vercel CLI token'],
  [read(`${HOME}/.vercel/auth.json`), 'Vercel CLI token'],
  [read(`${HOME}/Library/Application Support/com.vercel.cli/auth.json`), 'Vercel CLI token'],
  [bash('cat ~/.wrangler/config/default.toml'), 'Cloudflare Wrangler OAuth token'],
  [bash('cat ~/.config/.wrangler/config/default.toml'), 'Cloudflare Wrangler OAuth token'],
  [read(`${HOME}/Library/Preferences/.wrangler/config/default.toml`), 'Cloudflare Wrangler OAuth token'],
  [bash('cat ~/.config/hcloud/cli.toml'), 'Hetzner Cloud API tokens'],
  // Data platforms and model hubs.
  [bash('cat ~/.databrickscfg'), 'Databricks tokens'],
  [read(`${HOME}/.snowsql/config`), 'Snowflake passwords'],
  [bash('cat ~/.kaggle/kaggle.json'), 'Kaggle API key'],
  [read(`${HOME}/.config/kaggle/kaggle.json`), 'Kaggle API key'],
  [bash('cat ~/.huggingface/token'), 'Hugging Face token'],
  [bash('export HF_TOKEN=$(cat ~/.cache/huggingface/token)'), 'Hugging Face token'],
  [read(`${HOME}/.cache/huggingface/stored_tokens`), 'Hugging Face tokens'],
  // Browser profiles: snap and flatpak places, other browsers, macOS.
  [bash('ls ~/.config/microsoft-edge'), 'browser profile'],
  [bash('cp -r ~/snap/firefox/common/.mozilla/firefox /tmp/ff'), 'browser profile'],
  [read(`${HOME}/.var/app/org.mozilla.firefox/.mozilla/firefox/profiles.ini`), 'browser profile'],
  [bash('sqlite3 ~/snap/chromium/common/chromium/Default/Cookies .dump'), 'browser profile'],
  [bash('ls ~/.var/app/com.google.Chrome/config/google-chrome'), 'browser profile'],
  [read(`${HOME}/.var/app/org.chromium.Chromium/config/chromium/Default/Login Data`), 'browser profile'],
  [bash('cat ~/.config/vivaldi/Default/Cookies'), 'browser profile'],
  [bash('ls ~/.config/opera'), 'browser profile'],
  [bash("cat ~/'Library/Application Support/Microsoft Edge/Default/Login Data'"), 'browser profile'],
  [read(`${HOME}/Library/Application Support/BraveSoftware/Brave-Browser/Default/Cookies`), 'browser profile'],
  [bash('ls ~/Library/Cookies'), 'macOS session cookies'],
  [read(`${HOME}/Library/Safari/History.db`), 'Safari profile'],
  // Another user's home counts too.
  [read('/root/.claude/.credentials.json'), 'Claude Code OAuth credentials'],
  [bash('cat /home/alice/.codex/auth.json'), 'Codex CLI login'],
  [read('/Users/bob/.minikube/profiles/minikube/client.key'), 'minikube cluster client and API server private keys'],
  // The machine's own secrets.
  [bash('cat /etc/kubernetes/admin.conf'), 'Kubernetes cluster credentials (kubeconfig)'],
  [
    bash('kubectl --kubeconfig /etc/kubernetes/super-admin.conf get pods'),
    'Kubernetes cluster credentials (kubeconfig)',
  ],
  [read('/etc/kubernetes/kubelet.conf'), 'Kubernetes cluster credentials (kubeconfig)'],
  [bash('cat /etc/kubernetes/pki/ca.key'), 'Kubernetes cluster private keys'],
  [read('/etc/kubernetes/pki/sa.key'), 'Kubernetes cluster private keys'],
  [bash('cp /etc/kubernetes/pki/etcd/server.key /tmp/'), 'etcd private keys'],
  [bash('cat /var/run/secrets/kubernetes.io/serviceaccount/token'), 'service-account token'],
  [read('/run/secrets/kubernetes.io/serviceaccount/token'), 'service-account token'],
  [bash('ls /etc/ssl/private'), 'TLS private keys'],
  [read('/etc/ssl/private/ssl-cert-snakeoil.key'), 'TLS private keys'],
  [bash('cat /etc/letsencrypt/live/example.com/privkey.pem'), "TLS private keys (Let's Encrypt)"],
  [read('/etc/letsencrypt/archive/example.com/privkey3.pem'), "TLS private keys (Let's Encrypt)"],
  [bash('tar czf /tmp/le.tgz /etc/letsencrypt/accounts'), 'ACME account private keys'],
  [bash('cat /etc/master.passwd'), 'password hashes (BSD, macOS)'],
  [bash('cat /run/user/1000/containers/auth.json'), 'container registry logins'],
  // Issue 26, round 5.
  [bash('cat ~/.config/pypoetry/auth.toml'), 'Poetry repository passwords'],
  [bash('cp ~/vpn/client.ovpn /tmp/'), 'OpenVPN profile'],
  [read(`${HOME}/Downloads/AuthKey_ABC123.p8`), 'PKCS #8'],
  [bash('cat ~/.cloudflared/6ff42ae2-765d-4adf-8112-31c55c1551ef.json'), 'Cloudflare Tunnel credentials'],
  [bash('cat ~/.appstoreconnect/private_keys/AuthKey_X.p8'), 'App Store Connect'],
  [bash('cat ~/.smbcredentials'), 'SMB/CIFS'],
  [bash('sudo cat /var/lib/jenkins/secrets/initialAdminPassword'), 'Jenkins secrets'],
  [bash('sudo cat /etc/krb5.keytab'), 'Kerberos host keys'],
  [bash('sudo cat /etc/gitlab/initial_root_password'), "GitLab's initial root password"],
  [bash('sudo cat /var/lib/rancher/k3s/server/node-token'), 'k3s cluster join token'],
  // Issue 26, round 6: CLI sessions, wallets and keypairs, secrets rendered for a workload.
  [bash('cat ~/.supabase/access-token'), 'Supabase CLI access token'],
  [bash('cat ~/.fastlane/spaceship/*/cookie'), 'fastlane Apple ID session cookies'],
  [bash('cat ~/.config/argocd/config'), 'Argo CD CLI auth tokens'],
  [bash('cat ~/.config/solana/id.json'), 'Solana keypair'],
  [bash('jq -r . ~/.config/solana/devnet-keypair.json'), 'Solana keypair'],
  [bash('cat ~/.ethereum/keystore/UTC--2024-01-01T00-00-00.000Z--abc'), 'Ethereum account keys'],
  [bash('cp ~/.bitcoin/wallet.dat /tmp/'), 'Bitcoin wallet'],
  [bash('ls ~/.foundry/keystores'), 'Foundry cast wallet'],
  [bash('cat ~/.android/adbkey'), "adb's private key"],
  [bash('cat /vault/secrets/config'), 'Vault agent'],
  [bash('cat /mnt/secrets-store/db-password'), 'Secrets Store CSI driver'],
  // Round 7: the same CLIs' files where they keep them on macOS; AI tools' keys; another process's memory.
  [bash('grep access-token ~/Library/Application\\ Support/doctl/config.yaml'), 'DigitalOcean token'],
  [read(`${HOME}/Library/Application Support/Bitwarden CLI/data.json`), 'Bitwarden CLI vault'],
  [bash('cat "$HOME/Library/Application Support/ngrok/ngrok.yml"'), 'ngrok authtoken'],
  [bash('cat ~/Library/Application\\ Support/pip/pip.conf'), 'pip index URLs'],
  [read(`${HOME}/Library/Application Support/atlascli/config.toml`), 'MongoDB Atlas CLI'],
  [read(`${HOME}/Library/Application Support/dart/pub-credentials.json`), 'pub.dev OAuth credentials'],
  [bash('sqlite3 ~/.config/Cursor/User/globalStorage/state.vscdb .dump'), 'Cursor login tokens'],
  [bash('cat ~/.config/openai/auth.json'), 'OpenAI API credentials'],
  [bash('cat ~/.config/anthropic/api_key'), 'Anthropic API credentials'],
  [bash('cat ~/.aider/oauth-keys.env'), 'aider API keys'],
  [bash('jq . ~/.local/share/opencode/auth.json'), 'opencode provider API keys'],
  [bash('cat ~/.config/io.datasette.llm/keys.json'), 'llm CLI API keys'],
  [bash('cat /proc/4211/mem'), "a process's memory"],
  [bash('sudo cat /proc/$(pgrep vault)/mem'), "a process's memory"],
  [bash('cat ~/.gemini/.env'), 'Gemini CLI API key'],
  [bash('cat ~/.config/chezmoi/key.txt'), 'age private key (chezmoi)'],
  [bash('cat ~/.config/aichat/config.yaml'), 'aichat AI provider API keys'],
  [bash('dd if=/proc/4211/mem bs=1 skip=4096 count=4096'), "a process's memory"],
  [
    bash(`node -e "console.log(require('fs').readFileSync('/proc/'+process.argv[1]+'/environ','utf8'))" 4211`),
    "a process's environment",
  ],
  [
    bash("python3 -c \"import os,sys; print(open(os.path.join('/proc', sys.argv[1], 'environ')).read())\" 42"),
    "a process's environment",
  ],
];

/** Ordinary files beside those: allowed. */
const ALLOWED: Call[] = [
  bash('cat ~/.claude/settings.json'),
  bash('ls ~/.claude'),
  read(`${HOME}/.claude/CLAUDE.md`),
  { tool: 'Glob', args: { pattern: `${HOME}/.claude/commands/*.md` } },
  bash('cat ~/.codex/config.toml'),
  read(`${HOME}/.codex/AGENTS.md`),
  bash('cat ~/.gemini/settings.json'),
  bash('ls ~/.gemini'),
  bash('ls ~/.config'),
  bash('cat ~/.config/containers/registries.conf'),
  bash('ls ~/.minikube'),
  bash('cat ~/.minikube/profiles/minikube/config.json'),
  bash('cat ~/.config/sops/age/README.md'),
  bash('cat ~/.cache/pip/x'),
  bash('du -sh ~/.cache/huggingface/hub'),
  read(`${HOME}/.cache/huggingface/hub/models--gpt2/snapshots/abc/config.json`),
  bash('ls ~/snap'),
  bash('cat ~/.mozilla/extensions.json'),
  bash('ls ~/.var/app'),
  read(`${HOME}/Library/Application Support/Code/User/settings.json`),
  bash('cat /etc/ssl/certs/ca-certificates.crt'),
  bash('ls /etc/kubernetes/manifests'),
  read('/etc/kubernetes/manifests/kube-apiserver.yaml'),
  bash('cat /etc/kubernetes/pki/ca.crt'),
  bash('cat /etc/letsencrypt/live/example.com/fullchain.pem'),
  bash('cat /var/run/secrets/kubernetes.io/serviceaccount/ca.crt'),
  bash('cat /var/run/secrets/kubernetes.io/serviceaccount/namespace'),
  bash('cat /etc/passwd'),
  // Issue 26, round 5: beside the new entries.
  bash('cat ~/.config/pypoetry/config.toml'),
  bash('cat ~/.android/adbkey.pub'),
  bash('cat ~/.cloudflared/config.yml'),
  bash('ls ~/vpn'),
  bash('du -sh ~/*'),
  // (Round 6: Solana's CLI settings beside its keypairs, adb's public key, a listing above the Vault agent's folder.)
  bash('cat ~/.config/solana/cli/config.yml'),
  bash('ls /vault'),
  bash('cat ~/.fastlane/README.md'),
  // (Round 7: the settings beside them, a process's status, an AI tool's settings.)
  bash('ls ~/Library/Application\\ Support'),
  read(`${HOME}/Library/Application Support/Cursor/User/settings.json`),
  bash('cat ~/.aider.conf.yml'),
  bash('cat /proc/4211/status'),
  bash(`node -e "console.log(require('fs').readFileSync('/proc/'+process.argv[1]+'/status','utf8'))" 4211`),
  bash('cat /proc/meminfo'),
  bash('cat ~/.gemini/settings.json'),
  bash('cat ~/.config/chezmoi/chezmoi.toml'),
];

/** A concrete path for a catalogue entry: each glob name made a plausible name it matches. */
function sample(path: string): string {
  return path.replace(/\*/g, 'x');
}

describe('credential places of agents, cloud CLIs, browsers and clusters', async () => {
  const policy = compilePolicy([], aliases, HOME);
  const ctx: EngineContext = {
    operatorMode: 'default',
    askFallback: 'deny',
    home: HOME,
    dataDir: `${HOME}/.toolgate`,
    aliases,
    analyzer: await sharedAnalyzer(),
  };
  const verdict = (call: Call) => decide({ call: { ...call, cwd: CWD }, interactive: false }, policy, ctx);

  for (const [call, reason] of DENIED) {
    it(`denies ${call.tool} ${JSON.stringify(call.args)}`, () => {
      const v = verdict(call);
      assert.equal(v.decision, 'deny', `${v.decision} (${v.source}) ${v.reason}`);
      assert.equal(v.source, 'protected_path', v.reason);
      assert.ok(v.reason.includes(reason), `expected the reason to name "${reason}": ${v.reason}`);
    });
  }
  for (const call of ALLOWED) {
    it(`allows ${call.tool} ${JSON.stringify(call.args)}`, () => {
      const v = verdict(call);
      assert.equal(v.decision, 'allow', `${v.decision} (${v.source}) ${v.reason}`);
    });
  }
  // The whole catalogue, not only the entries above: a Read of each entry (a file below it, for a directory) is denied
  // with that entry's reason.
  for (const entry of PROTECTED_IN_HOME) {
    it(`denies a Read of ~/${entry.relative}`, () => {
      const v = verdict(read(`${HOME}/${sample(entry.relative)}`));
      assert.equal(v.source, 'protected_path', v.reason);
      assert.ok(v.reason.includes(entry.reason), v.reason);
    });
  }
  for (const entry of PROTECTED_ON_SYSTEM) {
    it(`denies a Read of ${entry.path}`, () => {
      const v = verdict(read(sample(entry.path)));
      assert.equal(v.source, 'protected_path', v.reason);
      assert.ok(v.reason.includes(entry.reason), v.reason);
    });
  }
});
