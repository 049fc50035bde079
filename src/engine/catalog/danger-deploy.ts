// Deploying, and changing shared infrastructure: what serves users changes the moment the command runs (issue 26).
//
// One entry per tool in DEPLOYERS, with the commands that deploy or change infrastructure and the read-only twins
// that do not (test/engine/danger-deploy.test.ts runs every example and every control). Adding a tool is one line
// here. What other entries already judge is left to them: deletes and teardowns (`cloud-destroy`), `-auto-approve`
// (`infra-apply-unprompted`), a namespace or context named for production (`production-cluster-change`), and the
// deploys the publishing table knows (`fly deploy`, `vercel --prod`, `gcloud run deploy`: `publish-package`).
// A dry run, a plan, a diff, `--check` and `--help` change nothing.
import type { DangerEntry } from './danger-entry.ts';
import type { CommandView } from '../shell/view.ts';
import { operands, optionValue, SSH_WITH_ARG } from './flags.ts';
import { LOCAL_HOST } from './danger-infra.ts';

/** One deploying tool: its program names, which of its command lines deploy (`words`: its operands), and controls. */
export interface Deployer {
  programs: readonly string[];
  deploys(words: readonly string[], args: readonly string[]): boolean;
  example: string;
  /** The same tool's commands that change nothing shared (allowed). */
  controls: readonly string[];
}

/** A name that says production: `prod`, `production`, `prd`, `live` as a part of a word or path (`overlays/production`, `api-prod`, `values-prod.yaml`). */
const PRODUCTION = /(^|[-_/.:=@])(prod|production|prd|live)($|[-_/.:\d])/i;
const namesProduction = (args: readonly string[]) => args.some((a) => PRODUCTION.test(a));

/** Options before a cloud CLI's command words that take a value (`aws --profile prod ecs …`). */
const CLOUD_WITH_ARG = [
  '--profile',
  '--region',
  '--output',
  '--endpoint-url',
  '--query',
  '--project',
  '--account',
  '--configuration',
  '--format',
  '--subscription',
  '-o',
  '--context',
  '-t',
  '--access-token',
];
/** kubectl's and helm's options that take a value, so that the first operand is the verb. */
const KUBE_WITH_ARG = [
  '-e',
  '--environment',
  '-n',
  '--namespace',
  '--context',
  '--kube-context',
  '--cluster',
  '--user',
  '--kubeconfig',
  '-s',
  '--server',
  '-l',
  '--selector',
  '-o',
  '--output',
  '-f',
  '--filename',
  '-k',
  '--kustomize',
  '--values',
  '--set',
  '--set-string',
  '--version',
  '--timeout',
];
/** docker's options before its command that take a value. */
const DOCKER_WITH_ARG = ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level'];

/** kubectl's verbs that change what runs in the cluster (reading ones, `get`/`describe`/`logs`/`diff`, do not). */
const KUBE_CHANGE =
  /^(apply|create|replace|patch|scale|rollout|set|edit|annotate|label|taint|cordon|expose|autoscale)$/;
/** `rollout` commands that change (`restart`, `undo`, `pause`, `resume`); `status` and `history` read. */
const ROLLOUT_CHANGE = /^(restart|undo|pause|resume)$/;

/**
 * kubectl: a change whose target is named for production other than by namespace or context (those are
 * `production-cluster-change`'s): `kubectl apply -k overlays/production`, `kubectl set image deploy/api-prod …`.
 * Cordoning or tainting a node takes capacity from every workload of the cluster, whatever it is named.
 * (`kubectl apply -f k8s/` on its own is the everyday loop against a development cluster: not asked.)
 */
function kubectlDeploys(words: readonly string[], args: readonly string[]): boolean {
  const [verb, object] = operands([...args], KUBE_WITH_ARG);
  if (!KUBE_CHANGE.test(verb ?? '') || (verb === 'rollout' && !ROLLOUT_CHANGE.test(object ?? ''))) return false;
  // A namespace or context named for production is production-cluster-change's, for every verb here.
  if (['-n', '--namespace', '--context', '--cluster'].some((o) => PRODUCTION.test(optionValue([...args], [o]) ?? '')))
    return false;
  // A node cordoned or tainted takes capacity from every workload; an undone rollout is an incident's step.
  if (
    verb === 'cordon' ||
    (verb === 'taint' && /^(nodes?|no)$/.test(object ?? '')) ||
    (verb === 'rollout' && object === 'undo')
  )
    return true;
  // `--prune` deletes what the files no longer name; `--replicas=0` takes the workload down.
  if (
    (verb === 'apply' && args.some((a) => a === '--prune' || a.startsWith('--prune='))) ||
    (verb === 'scale' && optionValue([...args], ['--replicas']) === '0')
  )
    return true;
  // Imperative changes to live objects (issue 26): `patch`, `replace`, `scale`, `set`, `edit`, `autoscale` change what
  // runs out of step with the manifests, on whatever cluster the context points at, so they are asked about whatever
  // the namespace; `label`/`annotate` only tag objects and stay quiet (a label a Service selects on is the exception
  // not worth the noise). `apply --server-side` or `--force-conflicts` takes fields over from other managers, and CRDs
  // are cluster-wide: every namespace's objects of that kind change with them.
  if (/^(patch|replace|scale|set|edit|autoscale)$/.test(verb ?? '')) return true;
  if (
    verb === 'apply' &&
    (args.some((a) => /^--(server-side|force-conflicts|force)(=true)?$/.test(a)) ||
      args.some((a) => /(^|[/_.-])crds?([/_.-]|$)|customresourcedefinition/i.test(a)))
  )
    return true;
  return namesProduction(args.filter((a) => !/^--?(n|namespace|context|cluster)(=|$)/.test(a)));
}

/** helm and helmfile: installing or upgrading a release named for production (or with its values), any rollback. */
function helmDeploys(words: readonly string[], args: readonly string[]): boolean {
  const [verb] = operands([...args], KUBE_WITH_ARG);
  if (!/^(install|upgrade|rollback|apply|sync|deploy)$/.test(verb ?? '')) return false;
  // Rolling a release back is what an incident does to a live cluster, whatever the release is named.
  if (verb === 'rollback') return true;
  // `-n prod` and `--kube-context prod` are production-cluster-change's.
  if (['-n', '--namespace', '--kube-context'].some((o) => PRODUCTION.test(optionValue([...args], [o]) ?? '')))
    return false;
  return namesProduction(args.filter((a) => !/^--?(n|namespace|kube-context)(=|$)/.test(a)));
}

/** terraform, tofu, terragrunt: apply (a saved plan applies with no prompt), import, state surgery, taint. */
function terraformDeploys(words: readonly string[], args: readonly string[]): boolean {
  // `-auto-approve` is infra-apply-unprompted's, `-destroy` cloud-destroy's.
  if (args.some((a) => /^--?(auto-approve|destroy)(=true)?$/.test(a) || a === '--terragrunt-non-interactive'))
    return false;
  const at = words[0] === 'run-all' || words[0] === 'run' ? 1 : 0;
  const [command, sub] = [words[at], words[at + 1]];
  return (
    /^(apply|apply-all|import|taint|untaint|force-unlock)$/.test(command ?? '') ||
    (command === 'state' && /^(mv|push|replace-provider)$/.test(sub ?? ''))
  );
}

/** aws: an operation that creates, changes, starts or stops a resource (`ecs update-service`, `lambda update-function-code`, `cloudformation deploy`). */
function awsDeploys(words: readonly string[], args: readonly string[]): boolean {
  const [service, operation = ''] = operands([...args], CLOUD_WITH_ARG);
  // `aws s3 …` copies and syncs are the upload and delete entries'; `aws configure set` is local settings.
  if (service === undefined || service === 's3' || service === 'configure' || service === 'sts' || service === 'sso')
    return false;
  if (
    /^(start-query|start-query-execution|start-live-tail|start-session|create-access-key|update-kubeconfig|get-.*|describe-.*|list-.*|validate-.*|estimate-.*|simulate-.*|test-.*|lookup-.*|search-.*|filter-.*|tail|wait)$/.test(
      operation,
    )
  )
    return false;
  // `aws cloudformation deploy --no-execute-changeset`, `create-change-set`: a change set made for review, the stack
  // unchanged (`execute-change-set` changes it).
  if (
    service === 'cloudformation' &&
    ((operation === 'deploy' && args.includes('--no-execute-changeset')) || operation === 'create-change-set')
  )
    return false;
  return /^(deploy|package-and-deploy|update-.+|put-.+|modify-.+|create-.+|execute-.+|publish-.+|start-.+|stop-.+|reboot-.+|set-.+|attach-.+|detach-.+|register-.+|associate-.+|disassociate-.+|change-.+|run-instances|run-task|restore-.+|promote-.+|failover-.+|reset-.+|revoke-.+|authorize-.+|enable-.+|disable-.+|cancel-update-stack|continue-update-rollback|rollback-.+|import-.+|send-.+|invoke)$/.test(
    operation,
  );
}

/** gcloud: a command that deploys, creates or changes a resource (`gcloud deploy releases promote`, `compute instances stop`). */
function gcloudDeploys(words: readonly string[], args: readonly string[]): boolean {
  const ops = operands([...args], CLOUD_WITH_ARG).filter((w) => w !== 'alpha' && w !== 'beta');
  // Local settings and logins change nothing shared; `run`/`app`/`functions deploy` are publish-package's.
  if (
    /^(config|auth|components|init|info|help|topic|emulators)$/.test(ops[0] ?? '') ||
    (/^(run|app|functions)$/.test(ops[0] ?? '') && ops[1] === 'deploy')
  )
    return false;
  return changingWord(ops, GCLOUD_CHANGE);
}
const GCLOUD_CHANGE =
  /^(deploy|create|update|patch|replace|resize|upgrade|rollback|promote|restart|reset|start|stop|suspend|resume|submit|import|update-traffic|set-traffic|set-iam-policy|add-iam-policy-binding|enable|disable|set-machine-type|add-metadata|apply)$/;

/** Words after which a cloud CLI's words are names, not more commands (`gcloud compute instances describe update-vm`). */
const READING_WORD =
  /^(list|ls|describe|show|get|get-.+|logs?|tail|read|browse|ssh|connect|call|status|diff|explain|history|wait)$/;

/** Whether one of the first command words (before a word that reads) is a changing one. */
function changingWord(ops: readonly string[], change: RegExp): boolean {
  for (const w of ops.slice(0, 5)) {
    if (change.test(w)) return true;
    if (READING_WORD.test(w)) return false;
  }
  return false;
}

/** az: a command that deploys, creates or changes a resource (`az webapp deploy`, `az aks scale`, `az deployment group create`). */
function azDeploys(words: readonly string[], args: readonly string[]): boolean {
  const ops = operands([...args], CLOUD_WITH_ARG);
  if (/^(config|account|login|logout|extension|configure|version|upgrade|bicep|find|interactive)$/.test(ops[0] ?? ''))
    return false;
  return changingWord(ops, AZ_CHANGE);
}

const AZ_CHANGE =
  /^(deploy|up|create|update|set|scale|upgrade|restart|start|stop|deallocate|resize|swap|config-zip|import|rollback|assign|redeploy|promote)$/;

/** ansible-playbook runs its plays on every host of the inventory; `--check`, a listing, or this machine alone change nothing shared. */
function playbookDeploys(words: readonly string[], args: readonly string[]): boolean {
  if (args.some((a) => /^(-C|--check|--syntax-check|--list-tasks|--list-hosts|--list-tags|--help|-h)$/.test(a)))
    return false;
  const connection = optionValue([...args], ['-c', '--connection']);
  const inventory = optionValue([...args], ['-i', '--inventory', '--inventory-file']);
  return connection !== 'local' && !/^(localhost|127\.0\.0\.1),?$/.test(inventory ?? '');
}

/** docker: a swarm stack or service changed, or compose run against a remote engine (`--context prod`, `-H ssh://…`). */
function dockerDeploys(words: readonly string[], args: readonly string[]): boolean {
  const [object, verb] = operands([...args], DOCKER_WITH_ARG);
  if (object === 'stack' && (verb === 'deploy' || verb === 'up')) return true;
  if (object === 'service' && /^(create|update|scale|rollback)$/.test(verb ?? '')) return true;
  const engine = optionValue([...args], ['-H', '--host', '-c', '--context']);
  const remote =
    engine !== undefined &&
    engine !== 'default' &&
    !/^(unix|npipe):\/\/|^(tcp:\/\/)?(localhost|127\.0\.0\.1)(:|$)/.test(engine);
  return (
    remote &&
    (object === 'compose'
      ? /^(up|run|restart|pull|create|start|stop|down)$/.test(verb ?? '')
      : /^(run|start|stop|restart|update|kill|load|import)$/.test(object ?? ''))
  );
}

/**
 * A make or just target, or a package script, that deploys (`make deploy`, `just deploy-prod`, `npm run deploy:prod`);
 * a package script named `release` publishes (`npm run release`), where `make release` is as often an optimised build.
 */
const DEPLOY_TARGET =
  /^(deploy|rollout|promote|ship|rollback)([:_-][\w:.-]*)?$|^[\w.-]+[:_-](deploy|rollout|promote|rollback)$/;
const RELEASE_SCRIPT = /^release([:_-](?!notes?$)[\w:.-]*)?$/;
function targetDeploys(words: readonly string[], args: readonly string[]): boolean {
  return (
    words.some((w) => DEPLOY_TARGET.test(w)) &&
    !args.some((a) => a === '-n' || a === '--dry-run' || a === '--just-print')
  );
}
function scriptDeploys(words: readonly string[]): boolean {
  const script = words[0] === 'run' || words[0] === 'run-script' ? words[1] : words[0];
  return script !== undefined && (DEPLOY_TARGET.test(script) || RELEASE_SCRIPT.test(script));
}

const first =
  (...names: string[]) =>
  (w: readonly string[]) =>
    names.includes(w[0] ?? '');
const pair =
  (a: string, ...b: string[]) =>
  (w: readonly string[]) =>
    w[0] === a && b.includes(w[1] ?? '');

// One line per entry: the table is read down its rows, so the formatter leaves it as written.
// prettier-ignore
export const DEPLOYERS: readonly Deployer[] = [
  { programs: ['terraform', 'tofu', 'terragrunt'], deploys: terraformDeploys, example: 'terraform apply tfplan', controls: ['terraform plan -out tfplan', 'terraform validate', 'terraform fmt -check', 'terraform show tfplan', 'tofu init', 'terraform state list', 'terraform apply -help'] },
  { programs: ['pulumi'], deploys: (w, a) => /^(up|update|refresh|import)$/.test(w[0] ?? '') && !a.some((x) => /^(--yes|-y|--skip-preview|--preview-only)$/.test(x)), example: 'pulumi up -s prod', controls: ['pulumi preview', 'pulumi stack ls', 'pulumi up --preview-only'] },
  // (`--no-execute`, `--method=prepare-change-set`: a change set made for review, nothing changed.)
  { programs: ['cdk', 'cdktf', 'aws-cdk'], deploys: (w, a) => w[0] === 'deploy' && optionValue([...a], ['--require-approval']) !== 'never' && !a.includes('--require-approval=never') && !a.includes('--auto-approve') && !a.some((x) => /^(--no-execute|--execute=false|--method=prepare-change-set)$/.test(x)) && optionValue([...a], ['--method', '-m']) !== 'prepare-change-set', example: 'npx cdk deploy ApiStack', controls: ['cdk synth', 'cdk diff', 'cdktf plan', 'cdk deploy ApiStack --no-execute'] },
  { programs: ['sam'], deploys: (w, a) => (w[0] === 'deploy' && !a.includes('--no-execute-changeset')) || w[0] === 'sync', example: 'sam deploy --stack-name api-prod', controls: ['sam build', 'sam validate', 'sam local invoke Fn', 'sam deploy --stack-name api-prod --no-execute-changeset'] },
  { programs: ['kubectl', 'k', 'oc'], deploys: kubectlDeploys, example: 'kubectl apply -k overlays/production', controls: ['kubectl apply -k overlays/dev', 'kubectl get deploy -n production', 'kubectl diff -k overlays/production', 'kubectl rollout status deploy/api-prod', 'kubectl apply -k overlays/production --dry-run=server'] },
  { programs: ['helm', 'helmfile'], deploys: helmDeploys, example: 'helm upgrade --install api ./chart -f values-prod.yaml', controls: ['helm template api ./chart -f values-prod.yaml', 'helm lint ./chart', 'helm list -A', 'helm upgrade --install api ./chart -f values-dev.yaml', 'helmfile -e production diff'] },
  { programs: ['argocd'], deploys: (w) => w[0] === 'app' && /^(sync|rollback|set|unset|patch|create|actions)$/.test(w[1] ?? ''), example: 'argocd app sync api-prod', controls: ['argocd app get api-prod', 'argocd app diff api-prod', 'argocd app list', 'argocd app history api-prod'] },
  { programs: ['flux'], deploys: first('reconcile', 'suspend', 'resume', 'create', 'bootstrap'), example: 'flux reconcile kustomization apps --with-source', controls: ['flux get kustomizations', 'flux logs', 'flux check', 'flux diff kustomization apps --path ./clusters/prod'] },
  { programs: ['aws'], deploys: awsDeploys, example: 'aws ecs update-service --cluster prod --service api --force-new-deployment', controls: ['aws eks update-kubeconfig --name prod', 'aws ecs describe-services --cluster prod --services api', 'aws lambda list-functions', 'aws cloudformation validate-template --template-body file://t.yaml', 'aws logs tail /ecs/api --follow', 'aws sts get-caller-identity', 'aws cloudformation deploy --template-file t.yaml --stack-name api-prod --no-execute-changeset'] },
  { programs: ['gcloud'], deploys: gcloudDeploys, example: 'gcloud deploy releases promote --release=r1 --delivery-pipeline=api', controls: ['gcloud beta emulators datastore start', 'gcloud run services list', 'gcloud config set project acme-dev', 'gcloud compute instances list', 'gcloud app describe', 'gcloud builds log abc'] },
  { programs: ['az'], deploys: azDeploys, example: 'az webapp deploy --resource-group rg-prod --name acme-api --src-path dist/app.zip', controls: ['az webapp show --name acme-api --resource-group rg-prod', 'az group list', 'az account set --subscription dev', 'az aks get-credentials -g rg -n aks1'] },
  { programs: ['doctl', 'hcloud', 'linode-cli'], deploys: (_, a) => operands([...a], CLOUD_WITH_ARG).slice(0, 4).some((w) => /^(create|create-deployment|update|resize|power-off|power-on|poweroff|poweron|reboot|rebuild|shutdown|restore)$/.test(w)), example: 'doctl apps create-deployment 1234', controls: ['doctl apps list', 'hcloud server list'] },
  { programs: ['fly', 'flyctl'], deploys: (w) => (w[0] === 'scale' && w[1] !== 'show') || (w[0] === 'secrets' && /^(set|unset|import|deploy)$/.test(w[1] ?? '')) || (/^(machine|machines|m|apps)$/.test(w[0] ?? '') && /^(stop|restart|update|start|suspend|clone|run)$/.test(w[1] ?? '')) || (w[0] === 'releases' && w[1] === 'rollback'), example: 'fly scale count 0 -a acme-prod', controls: ['fly status', 'fly logs -a acme-prod', 'fly scale show', 'fly releases'] },
  { programs: ['heroku'], deploys: (w) => /^(ps:scale|ps:restart|ps:stop|ps:resize|ps:type|config:set|config:unset|config:add|config:remove|maintenance:on|pipelines:promote|rollback|restart|scale|features:enable|features:disable|stack:set)$/.test(w[0] ?? ''), example: 'heroku ps:scale web=0 -a acme-prod', controls: ['heroku ps -a acme-prod', 'heroku releases -a acme-prod', 'heroku logs --tail'] },
  { programs: ['vercel', 'vc'], deploys: (w) => /^(rollback|redeploy)$/.test(w[0] ?? '') || (w[0] === 'alias' && w[1] !== 'ls' && w[1] !== 'list' && w[1] !== undefined), example: 'vercel rollback', controls: ['vercel ls', 'vercel alias ls', 'vercel dev'] },
  { programs: ['serverless', 'sls'], deploys: first('rollback'), example: 'sls rollback --timestamp 1700000000', controls: ['sls package', 'sls info'] },
  { programs: ['eb'], deploys: first('swap', 'scale', 'setenv', 'restore', 'upgrade'), example: 'eb swap acme-prod', controls: ['eb status', 'eb logs', 'eb health'] },
  { programs: ['kamal'], deploys: (w) => /^(redeploy|rollback|setup)$/.test(w[0] ?? '') || (w[0] === 'app' && /^(boot|start|stop|remove)$/.test(w[1] ?? '')), example: 'kamal rollback abc123', controls: ['kamal app details', 'kamal app logs'] },
  { programs: ['wrangler'], deploys: (w) => w[0] === 'rollback' || pair('versions', 'deploy')(w) || pair('pages', 'deploy', 'publish')(w) || pair('secret', 'put', 'bulk')(w), example: 'wrangler rollback', controls: ['wrangler dev', 'wrangler tail', 'wrangler deployments list'] },
  { programs: ['supabase'], deploys: (w, a) => (pair('db', 'push')(w) || pair('functions', 'deploy')(w) || pair('secrets', 'set')(w) || pair('config', 'push')(w)) && !a.includes('--local'), example: 'supabase db push', controls: ['supabase db diff', 'supabase start', 'supabase functions serve'] },
  { programs: ['ansible-playbook'], deploys: playbookDeploys, example: 'ansible-playbook -i inventories/prod site.yml', controls: ['ansible-playbook -i inventories/prod site.yml --check', 'ansible-playbook site.yml --syntax-check', 'ansible-playbook -i localhost, -c local setup.yml'] },
  { programs: ['docker', 'podman'], deploys: dockerDeploys, example: 'docker stack deploy -c docker-compose.prod.yml acme', controls: ['docker compose up -d', 'docker stack ls', 'docker service ls', 'docker --context default compose up -d'] },
  { programs: ['nomad'], deploys: (w) => w[0] === 'run' || (w[0] === 'job' && /^(run|revert|scale|dispatch|promote)$/.test(w[1] ?? '')) || pair('deployment', 'promote', 'resume')(w), example: 'nomad job run api.nomad.hcl', controls: ['nomad job status api', 'nomad job plan api.nomad.hcl', 'nomad job validate api.nomad.hcl'] },
  { programs: ['skaffold'], deploys: first('run', 'deploy', 'apply'), example: 'skaffold run -p prod', controls: ['skaffold build', 'skaffold render', 'skaffold diagnose', 'skaffold dev'] },
  { programs: ['waypoint'], deploys: first('up', 'deploy', 'release'), example: 'waypoint up', controls: ['waypoint status'] },
  // (`cap production deploy` is publish-package's.)
  { programs: ['cap'], deploys: (w) => w.some((x) => /^deploy(:rollback)?$/.test(x)) && (w.includes('deploy:rollback') || !w.some((x) => /^(prod|production|live)$/.test(x))), example: 'cap staging deploy', controls: ['cap -T'] },
  { programs: ['cf'], deploys: first('push', 'restage', 'restart', 'scale', 'start', 'stop', 'set-env', 'unset-env', 'rollback', 'bind-service', 'map-route'), example: 'cf push acme-api -f manifest.yml', controls: ['cf apps', 'cf logs acme-api --recent', 'cf env acme-api --help'] },
  { programs: ['copilot'], deploys: (w) => w.includes('deploy') && /^(svc|job|env|pipeline|task|deploy)$/.test(w[0] ?? ''), example: 'copilot svc deploy --name api --env prod', controls: ['copilot svc status --name api', 'copilot svc logs'] },
  { programs: ['amplify'], deploys: first('push', 'publish'), example: 'amplify publish', controls: ['amplify status', 'amplify pull'] },
  { programs: ['swa'], deploys: first('deploy'), example: 'swa deploy ./dist --env production', controls: ['swa start ./dist', 'swa build'] },
  { programs: ['mina', 'dep', 'fab'], deploys: (w) => w.some((x) => /^deploy(:[\w:-]+)?$/.test(x)), example: 'dep deploy production', controls: ['dep list', 'fab --list'] },
  { programs: ['gh'], deploys: (w, a) => w[0] === 'workflow' && w[1] === 'run' && /deploy|release|rollout|promote|prod/i.test(a.join(' ')), example: 'gh workflow run deploy.yml -f environment=production', controls: ['gh workflow list', 'gh workflow run ci.yml', 'gh run list'] },
  { programs: ['make', 'gmake', 'just'], deploys: targetDeploys, example: 'make deploy ENV=production', controls: ['make build', 'make -n deploy', 'just test'] },
  { programs: ['npm', 'pnpm', 'yarn', 'bun'], deploys: scriptDeploys, example: 'npm run deploy:prod', controls: ['npm run build', 'yarn test', 'pnpm run dev'] },
];

const BY_PROGRAM = new Map<string, Deployer[]>();
for (const d of DEPLOYERS) for (const name of d.programs) BY_PROGRAM.set(name, [...(BY_PROGRAM.get(name) ?? []), d]);

/** A deploy, or a change of shared infrastructure, by a tool of the table; a dry run or `--help` is not. */
function deploys(v: CommandView): boolean {
  if (v.args.some((a) => /^--?(dry-?run|dryrun|help|h)(=(client|server|true))?$/.test(a))) return false;
  const words = v.args.filter((a) => !a.startsWith('-'));
  return (BY_PROGRAM.get(v.program) ?? []).some((d) => d.deploys(words, v.args));
}

/**
 * Hosting services' deploy and build hooks: a request to one deploys, whatever its method (Render's and Vercel's
 * hooks take a GET too): `api.render.com/deploy/srv-…`, Netlify's `build_hooks`, Vercel's `integrations/deploy`,
 * Cloudflare Pages' `deploy_hooks`.
 */
const DEPLOY_HOOK_URL =
  /^(https?:\/\/)?(api\.render\.com\/deploy\/|api\.netlify\.com\/build_hooks\/|api\.vercel\.com\/v\d+\/integrations\/deploy\/|api\.cloudflare\.com\/client\/v4\/pages\/webhooks\/deploy_hooks\/|[\w.-]+\/(api\/v\d+\/)?deploy\?(uuid|tag)=)/i;
/**
 * API calls that start a build, a deploy or a pipeline when POSTed: Heroku `apps/X/builds|releases`, DigitalOcean
 * `apps/X/deployments`, Netlify `sites/X/builds|deploys`, Vercel `deployments`, GitLab's pipeline triggers, CircleCI's
 * `pipeline`, Jenkins' `job/NAME/build` for a job named for a deploy, and any path with a `deploy`/`deployments`/
 * `redeploy`/`rollback` segment.
 */
const DEPLOY_API_PATH =
  /^(https?:\/\/)?[^/\s]+\/(.*\/)?(apps\/[^/]+\/(builds|releases|deployments)|sites\/[^/]+\/(builds|deploys)|v\d+\/deployments|trigger\/pipeline|project\/[^/]+\/[^/]+\/[^/]+\/pipeline|job\/[^/]*(deploy|release|prod)[^/]*\/(build|buildWithParameters)|deploy|deploys|deployments|redeploy|rollback|deploy_hooks|build_hooks)\/?([?#].*)?(\/|$)/i;
/** A variable named for a deploy or build hook (`$RENDER_DEPLOY_HOOK_URL`, `${NETLIFY_BUILD_HOOK}`). */
const HOOK_VARIABLE = /\$\{?\w*((DEPLOY|RELEASE)\w*(HOOK|URL)|BUILD_?(WEB)?HOOK)\w*/i;
/** GitHub's dispatch endpoints: a workflow or repository event started, judged like `gh workflow run` by its words. */
const DISPATCH_URL = /^(https?:\/\/)?api\.github\.com\/repos\/.*\/dispatches\/?$/i;

/** Whether a curl, wget or HTTPie command sends a body or names a method that changes (POST, PUT, PATCH). */
function posts(v: CommandView): boolean {
  if (v.program === 'http' || v.program === 'https' || v.program === 'xh')
    return (
      /^(POST|PUT|PATCH)$/i.test(v.args.find((a) => !a.startsWith('-')) ?? '') ||
      v.args.some((a) => /^[\w.-]+:?=/.test(a))
    );
  const method =
    optionValue(v.args, ['-X', '--request', '--method']) ?? v.args.find((a) => /^-X\w+$/.test(a))?.slice(2);
  return (
    /^(post|put|patch)$/i.test(method ?? '') ||
    v.args.some((a) =>
      /^(-[a-zA-Z]*[dF]|--data(-\w+)?|--json|--form|--post-data|--post-file|--body-data|--body-file)(=|$)/.test(a),
    )
  );
}

/** `curl -X POST https://api.render.com/deploy/srv-…?key=…`, a Netlify build hook, `curl -X POST "$DEPLOY_HOOK_URL"`. */
function triggersDeploy(v: CommandView): boolean {
  if (!['curl', 'wget', 'http', 'https', 'xh'].includes(v.program)) return false;
  const urls = v.args.filter((a) => /^https?:\/\//i.test(a) || /^[\w-]+(\.[\w-]+)+(:\d+)?\//.test(a));
  if (urls.some((u) => LOCAL_HOST.test(u) || /^(https?:\/\/)?localhost\b/i.test(u))) return false;
  if (urls.some((u) => DEPLOY_HOOK_URL.test(u))) return true;
  if (!posts(v)) return false;
  if (urls.some((u) => DISPATCH_URL.test(u))) return /deploy|release|rollout|promote|prod/i.test(v.args.join(' '));
  return urls.some((u) => DEPLOY_API_PATH.test(u)) || (urls.length === 0 && HOOK_VARIABLE.test(v.text));
}

/**
 * What a remote command on a production host changes: the code it runs (`git pull`, `docker compose pull|up`), the
 * services (`systemctl restart`, `pm2 reload`), the schema (`db:migrate`, `manage.py migrate`) — a deploy by hand.
 */
const REMOTE_CHANGE =
  /\b(git\s+(pull|checkout|reset|merge|rebase)|docker(-compose|\s+compose)?\s+(up|pull|restart|run|stop|start|rm|service\s+update|stack\s+deploy)|systemctl\s+(restart|reload|start|stop)|service\s+\S+\s+(restart|reload|start|stop)|pm2\s+(reload|restart|start|stop|delete)|supervisorctl\s+(restart|start|stop|reload|update)|nginx\s+-s\s+(reload|stop)|kubectl\s+(apply|rollout|set|scale|delete|patch)|helm\s+(upgrade|install|rollback)|npm\s+(ci|install)|yarn\s+install|bundle\s+install|pip\s+install|(rails|rake)\s+db:\w+|manage\.py\s+migrate|artisan\s+migrate|deploy)\b/;

/** `ssh deploy@prod 'cd /srv/app && git pull && pm2 reload all'`: a host named for production changed by hand. */
function changesProductionHost(v: CommandView): boolean {
  if (v.program !== 'ssh') return false;
  const [host, ...command] = operands(v.args, SSH_WITH_ARG);
  return host !== undefined && command.length > 0 && PRODUCTION.test(host) && REMOTE_CHANGE.test(command.join(' '));
}

export const DEPLOY_DANGERS: DangerEntry[] = [
  {
    id: 'deploy',
    risk: 'high',
    reason:
      'deploys, or changes shared infrastructure (cloud resources, a cluster, a service, the hosts of an inventory): what serves users changes when it runs',
    programs: [...BY_PROGRAM.keys()],
    examples: [
      ...DEPLOYERS.map((d) => d.example),
      'terraform apply',
      'cd infra/prod && terraform apply -var-file=prod.tfvars',
      'argocd app sync api-prod',
      'aws lambda update-function-code --function-name api --zip-file fileb://f.zip',
      'aws cloudformation deploy --template-file t.yaml --stack-name api',
      'gcloud compute instances stop vm-1',
      'az aks scale -g rg -n aks1 --node-count 0',
      'kubectl set image deploy/api-prod api=acme/api:2',
      'kubectl cordon node-1',
      'kubectl scale deploy/api --replicas=0',
      'kubectl apply -f k8s/ --prune -l app=api',
      'kubectl patch deployment api -p \'{"spec":{"replicas":5}}\'',
      'kubectl apply --server-side -f k8s/crds.yaml',
      'kubectl scale deployment api --replicas=3',
      'kubectl set env deploy/api LOG_LEVEL=debug',
      'kubectl edit cm api-config',
      'npx aws-cdk deploy',
      'wrangler pages deploy dist',
    ],
    match: deploys,
  },
  {
    id: 'deploy-hook',
    risk: 'high',
    reason:
      "calls a hosting service's deploy or build hook, or an API that starts a deploy (Render, Netlify, Vercel, Heroku builds, a CI pipeline trigger): what serves users changes when it runs",
    programs: ['curl', 'wget', 'http', 'https', 'xh'],
    examples: [
      'curl -X POST "https://api.render.com/deploy/srv-abc123?key=$RENDER_DEPLOY_KEY"',
      'curl -X POST -d {} https://api.netlify.com/build_hooks/5f2b1c3d4e',
      'curl -X POST https://api.vercel.com/v1/integrations/deploy/prj_abc/xyz',
      'curl -fsS -X POST "$RENDER_DEPLOY_HOOK_URL"',
      'curl -n -X POST https://api.heroku.com/apps/acme/builds -d @build.json',
      'http POST https://jenkins.acme.io/job/deploy-prod/build',
    ],
    // (Reading an API, `curl https://api.render.com/v1/services`, and a POST to this machine stay quiet.)
    match: triggersDeploy,
  },
  {
    id: 'production-host-change',
    risk: 'high',
    reason:
      'runs a command that changes a production host (pulls code, restarts services, migrates its database): a deploy by hand',
    programs: ['ssh'],
    examples: [
      "ssh deploy@prod 'cd /srv/app && git pull && pm2 reload all'",
      'ssh deploy@prod.acme.com "cd /srv/app && docker compose pull && docker compose up -d"',
      "ssh api-prod-1 'cd /srv/api && bundle exec rails db:migrate'",
    ],
    // (Reading one, `ssh prod 'tail -n 50 /var/log/app.log'`, `ssh prod docker ps`, and staging hosts stay quiet.)
    match: changesProductionHost,
  },
];
