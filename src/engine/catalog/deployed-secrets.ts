// Printing what a running deployment holds: the environment of a container or cluster workload, a release's values, a
// platform's config vars, a state file — where the passwords and keys of production are passed (issue 26).
//
// These secrets live in a service, not in a protected file here, so they are asked about (as `kubectl get secret -o
// yaml` is), not denied. One entry per tool in DEPLOYED_SECRETS; test/engine/deployed-secrets.test.ts runs every
// example and control. Names only (`fly secrets list`, `gh secret list`, `vercel env ls`) print no secret.
import type { DangerEntry } from './danger-entry.ts';
import { stdoutToFile, type CommandView } from '../shell/view.ts';
import { operands, optionValue, SSH_WITH_ARG } from './flags.ts';
import { CONTAINER_WRAPPERS } from '../shell/unwrap.ts';

/** Files where a service leaves its first admin password or join token (GitLab, Jenkins, Rancher, k3s). */
const ADMIN_PASSWORD_FILE =
  /(^|\/)(initial_root_password|initialAdminPassword|initial[-_]?admin[-_]?password|bootstrap[-_]?password|node-token)$/i;

/** One tool that prints a deployment's secrets, and which of its command lines do (`words`: its operands). */
export interface DeployedSecretPrinter {
  programs: readonly string[];
  prints(words: readonly string[], args: readonly string[], v: CommandView): boolean;
  example: string;
  /** The same tool's commands that print no secret (allowed). */
  controls: readonly string[];
}

/** Programs that print the whole environment when given no operand. */
const ENVIRONMENT_PRINTERS = new Set(['env', 'printenv']);
/** A command run in a container (`docker exec api env`, `kubectl exec deploy/api -- printenv`). */
const inContainer = (v: CommandView) => v.wrappers.some((w) => CONTAINER_WRAPPERS.has(w));
/** The options before a cloud CLI's command words that take a value. */
const CLOUD_WITH_ARG = ['--profile', '--region', '--output', '--query', '--subscription', '-o'];
/** A program run through a platform's one-off runner (`heroku run env`, `fly ssh console -C printenv`, `eb printenv`). */
const printsEnvironment = (command: string | undefined) =>
  command !== undefined && /^(env|printenv)$/.test(command.trim().split(/\s+/)[0] ?? '');

/** Programs that print a file they are given. */
const FILE_PRINTERS =
  /^(cat|less|more|head|tail|bat|batcat|strings|base64|xxd|od|hexdump|nl|tac|grep|egrep|rg|awk|sed|jq|yq|vi|vim|nano|view)$/;
/** A deployed system's secret files: an env file (not a template), a key or certificate bundle, a credentials or secrets file. */
const SECRET_FILE =
  /(^|\/)(\.env(\.(?!example$|sample$|template$|dist$|defaults?$)[\w.-]+)?|[\w.-]*\.(pem|key|p12|pfx|jks|keystore)|credentials(\.[\w]+)?|secrets?(\.[\w]+)?|master\.key|\.pgpass|\.netrc|\.my\.cnf)$|(^|\/)secrets?\//;
/**
 * `ssh deploy@app1 'cat /srv/app/shared/.env'`: the remote command prints a secret file of the deployed host. The
 * remote words are split into commands at `;`, `&&`, `|`; one whose program (after sudo) prints a file named like a
 * secret counts. (The remote command is also walked as code, src/engine/shell/nested/remote.ts; this reads its words.)
 */
function sshPrintsSecretFile(args: readonly string[]): boolean {
  const remote = operands([...args], SSH_WITH_ARG)
    .slice(1)
    .join(' ');
  return remote.split(/\s*(?:;|&&|\|\||\|)\s*/).some((cmd) => {
    const words = cmd
      .trim()
      .split(/\s+/)
      .filter((w) => w !== 'sudo' && !/^-/.test(w))
      .map((w) => w.replace(/^['"]|['"]$/g, ''));
    return FILE_PRINTERS.test(words[0]?.replace(/^.*\//, '') ?? '') && words.slice(1).some((w) => SECRET_FILE.test(w));
  });
}

/** A variable a deployment keeps a secret in (`printenv DATABASE_URL`, `printenv STRIPE_SECRET_KEY`). */
const SECRET_VARIABLE = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASS$|CREDENTIAL|DATABASE_URL|_DSN$|_URI$|_URL$|AUTH/i;
/** Programs whose JSON describes a deployment: piped into jq, a path to its environment prints it. */
const DEPLOYMENT_READERS = new Set([
  'docker',
  'podman',
  'nerdctl',
  'kubectl',
  'oc',
  'aws',
  'gcloud',
  'az',
  'heroku',
  'fly',
  'flyctl',
  'nomad',
]);
/** A jq path to a container's or service's environment (`.Config.Env`, `.containers[].env`, `.Environment.Variables`). */
const PICKS_ENV_PATH = /\.(Env|env|environment|Environment|environmentVariables)\b/;
/** docker's options before its command that take a value (`docker --context prod inspect …`). */
const DOCKER_GLOBAL_WITH_ARG = [
  '-c',
  '--context',
  '-H',
  '--host',
  '--config',
  '-l',
  '--log-level',
  '--tlscacert',
  '--tlscert',
  '--tlskey',
];
/** A Go template or a jq path that picks a container's environment (`{{json .Config.Env}}`, `.Spec.TaskTemplate.ContainerSpec.Env`). */
const PICKS_ENV = /\.Env\b/;
/** `docker --context prod inspect api --format '{{json .Config.Env}}'`, `docker service inspect api --format …Env…`. */
function dockerInspectsEnv(args: readonly string[]): boolean {
  const [a, b] = operands([...args], DOCKER_GLOBAL_WITH_ARG);
  return (
    (a === 'inspect' || (/^(container|service|image)$/.test(a ?? '') && b === 'inspect')) &&
    args.some((x) => PICKS_ENV.test(x))
  );
}
/** kubectl's output templates: `-o jsonpath='{..env}'`, `-o go-template=…env…`, `--template …`. */
/** kubectl's options before its command that take a value. */
const KUBECTL_WITH_ARG = [
  '-n',
  '--namespace',
  '--context',
  '--cluster',
  '--kubeconfig',
  '-l',
  '--selector',
  '-o',
  '--output',
  '--template',
];
function kubectlPrintsEnv(args: readonly string[]): boolean {
  if (operands([...args], KUBECTL_WITH_ARG)[0] !== 'get') return false;
  const output = args.flatMap((x, i) =>
    /^(-o|--output|--template)$/.test(x)
      ? [args[i + 1] ?? '']
      : /^(-o|--output=|--template=)/.test(x) && x.length > 2
        ? [x]
        : [],
  );
  return output.some((o) =>
    /(jsonpath|go-template|custom-columns|template)/.test(o) || /^\{/.test(o) ? /\benv(From)?\b/.test(o) : false,
  );
}
/** `gcloud run services describe api --format='yaml(…env)'`: a Cloud Run service's or a function's environment. */
function gcloudPrintsEnv(args: readonly string[]): boolean {
  const [group] = operands([...args], ['--region', '--project', '--format', '--zone']);
  const format = optionValue([...args], ['--format']);
  return (
    /^(run|functions)$/.test(group ?? '') && args.includes('describe') && format !== undefined && /env/i.test(format)
  );
}
/** `--query` narrows what an AWS describe prints: one that leaves out the environment prints none. */
function printsAwsEnvironment(args: readonly string[]): boolean {
  const query = optionValue([...args], ['--query']);
  return query === undefined || /env|containerDefinitions|secret|Configuration\b|^\w+$/i.test(query);
}
/** AWS operations whose answer holds a deployed service's environment variables. */
const AWS_ENVIRONMENT =
  /^(ecs describe-task-definition|lambda get-function|lambda get-function-configuration|apprunner describe-service|batch describe-job-definitions|elasticbeanstalk describe-configuration-settings)$/;

/**
 * A platform's API answering with a deployed app's environment (issue 26, round 7): Render's `services/srv-…/env-vars`
 * and `env-groups/…`, Heroku's `apps/X/config-vars`, Vercel's `projects/X/env`, Netlify's `sites|accounts/X/env`,
 * Coolify's `applications/X/envs`, GitLab's CI `projects|groups/X/variables`, Azure's `sites/X/config/appsettings/list`.
 * The app's other resources (`services/srv-…`, `apps/X/releases`, `sites/X/deploys`) are not; nor is a server on this
 * machine (`localhost:3000/api/projects/1/env` is the app being written).
 */
const PLATFORM_ENV_URL =
  /^(?:https?:\/\/)?[^/\s]+\/(?:[^?#\s]*\/)?(?:(?:apps|services|projects|sites|applications|accounts|groups|environments)\/[^/?#\s]+\/(?:env|envs|env-vars|env_vars|envvars|config-vars|config_vars|environment-variables|environment_variables|variables|secrets|config\/appsettings\/list|config\/connectionstrings\/list)|env-groups\/[^/?#\s]+)(?:\/[^?#\s]*)?(?:[?#]\S*)?$/i;
const LOCAL_URL = /^(?:https?:\/\/)?(?:localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)(?:[:/]|$)/i;
/** Railway's GraphQL API asked for a service's `variables(…)`. */
const railwayVariables = (args: readonly string[]) =>
  args.some((x) => /^(?:https?:\/\/)?backboard\.railway\.(?:app|com)\/graphql/i.test(x)) &&
  args.some((x) => /\bvariables\s*\(/.test(x));

// One line per entry: the table is read down its rows, so the formatter leaves it as written.
// prettier-ignore
export const DEPLOYED_SECRETS: readonly DeployedSecretPrinter[] = [
  {
    programs: [...ENVIRONMENT_PRINTERS], prints: (_, args, v) => inContainer(v) && args.filter((a) => !a.startsWith('-')).every((a) => v.program === 'printenv' && SECRET_VARIABLE.test(a)),
    example: 'docker exec myapp-api-1 env', controls: ['env', 'printenv', 'docker exec myapp-api-1 ls /app', 'docker exec api printenv NODE_ENV'],
  },
  { programs: ['jq', 'gojq', 'yq'], prints: (_, a, v) => v.stdin?.kind === 'pipe' && v.stdin.upstream.some((p) => DEPLOYMENT_READERS.has(p)) && a.some((x) => PICKS_ENV_PATH.test(x)), example: "docker inspect api | jq '.[0].Config.Env'", controls: ["docker inspect api | jq '.[0].State.Status'", "kubectl get pods -n prod -o json | jq '.items[].metadata.name'"] },
  { programs: ['systemctl'], prints: (w, a) => w[0] === 'show' && a.some((x, i) => /^(Environment|EnvironmentFiles?)$/.test(x) && /^(-p|--property)$/.test(a[i - 1] ?? '') || /^(--property=|-p)Environment/.test(x)), example: 'systemctl show api.service -p Environment', controls: ['systemctl show api.service -p ActiveState', 'systemctl status api'] },
  { programs: ['helm'], prints: (w) => w[0] === 'get' && /^(values|all|manifest)$/.test(w[1] ?? ''), example: 'helm get values api -n prod --all', controls: ['helm get notes api', 'helm status api', 'helm history api'] },
  {
    programs: ['terraform', 'tofu', 'terragrunt'], prints: (w, a) => (w[0] === 'state' && w[1] === 'pull') || (w[0] === 'output' && a.some((x) => x === '-json' || x === '-raw' || x === '--json' || x === '--raw')),
    example: 'terraform state pull', controls: ['terraform state list', 'terraform output', 'terraform show'],
  },
  {
    programs: ['heroku'], prints: (w, a) => /^(config|config:get|pg:credentials|pg:credentials:url|redis:credentials)$/.test(w[0] ?? '') || (w[0] === 'run' && printsEnvironment(w.slice(1).join(' '))) || (w[0] === 'config' && a.includes('--json')),
    example: 'heroku config -a acme-prod', controls: ['heroku ps -a acme-prod', 'heroku apps:info -a acme-prod', 'heroku releases'],
  },
  { programs: ['dokku'], prints: (w) => /^(config|config:show|config:get|config:export)$/.test(w[0] ?? ''), example: 'dokku config:show api', controls: ['dokku apps:list'] },
  { programs: ['eb'], prints: (w) => w[0] === 'printenv', example: 'eb printenv acme-prod', controls: ['eb status'] },
  { programs: ['fly', 'flyctl'], prints: (w, a) => w[0] === 'ssh' && w[1] === 'console' && printsEnvironment(a[a.findIndex((x) => x === '-C' || x === '--command') + 1]), example: 'fly ssh console -a acme-prod -C env', controls: ['fly secrets list -a acme-prod', 'fly ssh console -a acme-prod'] },
  { programs: ['vercel', 'vc'], prints: (w) => w[0] === 'env' && w[1] === 'pull', example: 'vercel env pull .env.production --environment=production', controls: ['vercel env ls'] },
  { programs: ['netlify'], prints: (w, a) => w[0] === 'env:get' || (w[0] === 'env:list' && a.some((x) => x === '--plain' || x === '--json')), example: 'netlify env:get STRIPE_SECRET_KEY', controls: ['netlify env:list'] },
  { programs: ['railway'], prints: (w, a) => w[0] === 'variables' && !a.some((x) => x === '--set' || x === '-s'), example: 'railway variables', controls: ['railway status'] },
  { programs: ['kamal'], prints: (w) => w[0] === 'secrets' && w[1] === 'print', example: 'kamal secrets print', controls: ['kamal app details'] },
  { programs: ['kubectl', 'k', 'oc'], prints: (w, a) => (w[0] === 'set' && w[1] === 'env' && a.includes('--list')) || w[0] === 'view-secret', example: 'kubectl set env deploy/api --list -n prod', controls: ['kubectl get deploy api -n prod', 'kubectl describe secret db'] },
  { programs: ['infisical'], prints: (w, a) => w[0] === 'export' || (w[0] === 'secrets' && (w[1] === undefined || w[1] === 'get') && !a.includes('--silent')), example: 'infisical export --env=prod', controls: ['infisical login --help'] },
  { programs: ['chamber'], prints: (w) => /^(read|export|env)$/.test(w[0] ?? ''), example: 'chamber export api-prod', controls: ['chamber list api-prod'] },
  {
    programs: ['az'], prints: (_, a) => { const [g, c, x, y] = operands([...a], CLOUD_WITH_ARG); return /^(webapp|functionapp)$/.test(g ?? '') && c === 'config' && x === 'appsettings' && y === 'list' || (g === 'containerapp' && c === 'secret' && (x === 'show' || (x === 'list' && a.includes('--show-values')))); },
    example: 'az webapp config appsettings list -g rg-prod -n acme-api', controls: ['az webapp show -g rg-prod -n acme-api', 'az containerapp secret list -g rg -n api'],
  },
  {
    // `docker compose --env-file .env.production config`: the compose file with every `${VAR}` filled in from that
    // environment file, its passwords and keys printed (`--quiet` only validates; `--services` lists names).
    programs: ['docker', 'docker-compose', 'podman-compose'], prints: (w, a, v) => {
      const at = v.program === 'docker' ? (w[0] === 'compose' ? w.indexOf('config') : -1) : w.indexOf('config');
      const envFile = a[a.indexOf('--env-file') + 1] ?? a.find((x) => x.startsWith('--env-file='))?.slice('--env-file='.length);
      return at >= 0 && a.some((x) => x === '--env-file' || x.startsWith('--env-file=')) && envFile !== undefined && !/\.(example|sample|template|dist)$/.test(envFile)
        && !a.some((x) => /^(-q|--quiet|--services|--volumes|--images|--profiles|--networks|--hash)(=|$)/.test(x));
    },
    example: 'docker compose --env-file .env.production config', controls: ['docker compose config --quiet', 'docker compose --env-file .env.production config --services', 'docker compose --env-file .env.example config', 'docker compose --env-file .env.production up -d'],
  },
  { programs: ['ssh'], prints: (_, a) => sshPrintsSecretFile(a), example: "ssh deploy@app1.acme.com 'cat /srv/app/shared/.env'", controls: ["ssh deploy@app1.acme.com 'cat /srv/app/shared/.env.example'", "ssh deploy@app1.acme.com 'tail -n 50 /var/log/app.log'", 'ssh deploy@app1.acme.com uptime'] },
  // Round 6 (issue 26): a service's admin password, bootstrap or join token printed (`vault operator init`). Argo CD's
  // initial password and tokens are denied as minted credentials (secret-printers.ts).
  { programs: ['vault', 'bao'], prints: (w, a) => w[0] === 'operator' && w[1] === 'init' && !a.some((x) => /^-?-status$/.test(x)), example: 'vault operator init -key-shares=1 -key-threshold=1', controls: ['vault operator init -status', 'vault status'] },
  { programs: ['consul', 'nomad'], prints: (w) => w[0] === 'acl' && w[1] === 'bootstrap', example: 'consul acl bootstrap', controls: ['consul members', 'nomad acl policy list'] },
  { programs: ['kubeadm'], prints: (w) => w[0] === 'token' && /^(create|list|generate)$/.test(w[1] ?? ''), example: 'kubeadm token create --print-join-command', controls: ['kubeadm version'] },
  { programs: ['docker'], prints: (w) => w[0] === 'swarm' && w[1] === 'join-token', example: 'docker swarm join-token manager', controls: ['docker swarm ca --help'] },
  { programs: ['elasticsearch-reset-password', 'elasticsearch-setup-passwords', 'elasticsearch-create-enrollment-token', 'kibana-verification-code'], prints: () => true, example: 'docker exec -it es01 /usr/share/elasticsearch/bin/elasticsearch-reset-password -u elastic', controls: [] },
  { programs: ['cat', 'less', 'more', 'head', 'tail', 'bat', 'grep', 'awk', 'sed'], prints: (_, a) => a.some((x) => ADMIN_PASSWORD_FILE.test(x)) || (a.some((x) => /temporary password/i.test(x)) && a.some((x) => /mysqld?\.log$/.test(x))), example: 'docker exec gitlab cat /srv/gitlab/config/initial_root_password', controls: ['docker exec jenkins cat /var/jenkins_home/config.xml', 'tail -n 50 /var/log/mysqld.log'] },
  // (`glab variable get KEY`, `export`: a GitLab CI variable's value; `list` shows names and flags.)
  { programs: ['glab'], prints: (w) => w[0] === 'variable' && /^(get|export)$/.test(w[1] ?? ''), example: 'glab variable get DB_PASSWORD', controls: ['glab variable list', 'glab ci status'] },
  { programs: ['cf'], prints: (w) => w[0] === 'env', example: 'cf env acme-api', controls: ['cf apps'] },
  { programs: ['microk8s'], prints: (w) => w[0] === 'config', example: 'microk8s config', controls: ['microk8s status'] },
  { programs: ['aws'], prints: (_, a) => { const [s, op] = operands([...a], CLOUD_WITH_ARG); return AWS_ENVIRONMENT.test(`${s} ${op}`) && printsAwsEnvironment(a); }, example: 'aws lambda get-function-configuration --function-name api', controls: ['aws lambda list-functions', "aws ecs describe-task-definition --task-definition api-prod --query 'taskDefinition.revision'", 'aws ecs describe-services --cluster prod --services api'] },
  { programs: ['docker', 'podman', 'nerdctl'], prints: (_, a) => dockerInspectsEnv(a), example: "docker --context prod inspect api --format '{{json .Config.Env}}'", controls: ["docker --context prod inspect api --format '{{.State.Status}}'", 'docker --context prod ps'] },
  { programs: ['kubectl', 'k', 'oc'], prints: (_, a) => kubectlPrintsEnv(a), example: "kubectl get deploy api -n prod -o jsonpath='{..env}'", controls: ["kubectl get deploy api -n prod -o jsonpath='{.spec.replicas}'", 'kubectl get pods -n prod -o wide'] },
  { programs: ['gcloud'], prints: (_, a) => gcloudPrintsEnv(a), example: "gcloud run services describe api --region us-central1 --format='yaml(spec.template.spec.containers[0].env)'", controls: ['gcloud run services describe api --region us-central1 --format="value(status.url)"', 'gcloud run services list'] },
  { programs: ['az'], prints: (_, a) => { const [g, c, x, y] = operands([...a], CLOUD_WITH_ARG); return (/^(webapp|functionapp)$/.test(g ?? '') && c === 'config' && x === 'connection-string' && y === 'list') || (g === 'containerapp' && c === 'show' && /env/i.test(optionValue([...a], ['--query']) ?? '')); }, example: 'az webapp config connection-string list -g rg-prod -n acme-api', controls: ['az webapp list -g rg-prod', 'az containerapp show -n api -g rg-prod --query properties.latestRevisionName'] },
  {
    programs: ['curl', 'wget', 'http', 'https', 'xh', 'xhs'], prints: (_, a) => a.some((x) => PLATFORM_ENV_URL.test(x) && !LOCAL_URL.test(x)) || railwayVariables(a),
    example: 'curl -s -H "Authorization: Bearer $RENDER_API_KEY" https://api.render.com/v1/services/srv-cr4k1/env-vars', controls: ['curl -s -H "Authorization: Bearer $RENDER_API_KEY" https://api.render.com/v1/services/srv-cr4k1', 'curl -n https://api.heroku.com/apps/acme-api/releases', 'curl -s http://localhost:3000/api/projects/1/env'],
  },
];

const BY_PROGRAM = new Map<string, DeployedSecretPrinter[]>();
for (const p of DEPLOYED_SECRETS)
  for (const name of p.programs) BY_PROGRAM.set(name, [...(BY_PROGRAM.get(name) ?? []), p]);

/** Whether the command prints a deployment's secrets (to the terminal: `> file` and `--help` print none). */
function printsDeployedSecrets(v: CommandView): boolean {
  if (
    v.args.some((a) => a === '--help' || a === '-h') ||
    v.redirects.some((r) => stdoutToFile(r) && r.target?.value === '/dev/null')
  )
    return false;
  const words = v.args.filter((a) => !a.startsWith('-'));
  return (BY_PROGRAM.get(v.program) ?? []).some((p) => p.prints(words, v.args, v));
}

export const DEPLOYED_SECRET_DANGERS: DangerEntry[] = [
  {
    id: 'deployed-secrets-print',
    risk: 'high',
    reason:
      "prints what a running deployment holds — a container's or workload's environment, a release's values, a platform's config vars, infrastructure state — where its passwords and keys are",
    programs: [...BY_PROGRAM.keys()],
    examples: [
      ...DEPLOYED_SECRETS.map((p) => p.example),
      'kubectl exec deploy/api -n prod -- printenv',
      'docker compose exec api printenv',
      'heroku run env -a acme-prod',
      'terraform output -json',
    ],
    match: printsDeployedSecrets,
  },
];
