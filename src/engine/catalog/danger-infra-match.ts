// The tests the infrastructure entries (danger-infra.ts) use: which command of a cloud, cluster, VM or data-store CLI
// destroys, which applies a plan with no one looking, and which changes a cluster named for production.
import type { CommandView } from '../shell/view.ts';
import { operands, optionValue } from './flags.ts';

/** CLIs that manage remote infrastructure or data stores (`k` is the common alias of kubectl). */
const INFRA_CLIS =
  /^(aws|gcloud|gsutil|az|doctl|linode-cli|hcloud|oci|ibmcloud|kubectl|k|oc|helm|eksctl|kind|minikube|k3d|argocd|flux|terraform|tofu|terragrunt|pulumi|cdk|cdktf|sam|amplify|eb|serverless|sls|wrangler|vercel|netlify|heroku|fly|flyctl|railway|firebase|supabase|rclone|s3cmd|mc|vault|consul|nomad|etcdctl|influx|kafka-topics|kafka-topics\.sh|kafka-consumer-groups|redis-cli|gh|glab|npm|dropdb|dropuser)$/;

/** Subcommand words that destroy: `kubectl delete`, `aws s3 rb`, `helm uninstall`, `supabase db reset`, `aws kms schedule-key-deletion`, … */
const DESTROY_VERB =
  /^(delete|destroy|rm|rb|rmdir|purge|remove|drop|drain|terminate|uninstall|disable|deletefile|flushall|flushdb|prune|wipe|erase|nuke|unpublish|reset|schedule-key-deletion|leave-organization|delete-.+|terminate-.+|remove-.+|deregister-.+)$/i;
/** Destroying words some CLIs spell their own way: `pulumi down` is `pulumi destroy`, `etcdctl del` deletes keys. */
const OWN_DESTROY_VERB = new Map<string, RegExp>([
  ['pulumi', /^down$/],
  ['etcdctl', /^del$/],
]);
const DESTROY_FLAG = /^--?(delete|destroy|purge|force-delete)$/;
/** Subcommand words that read, create or run: the words after one are what it acts on, not more subcommands (`aws ssm get-parameter --name reset`). */
const KEEPING_VERB =
  /^(get|describe|view|list|ls|show|status|logs?|tail|checkout|create|invoke|info|inspect|top|explain|diff|plan|validate|whoami|search|browse|watch|clone|fork|comment|review|port-forward|open|download|cat|history|events|trace|(get|describe|list)-.+)$/;
/** kubectl and the CLIs that take its commands. */
const KUBE_CLIS = new Set(['kubectl', 'k', 'oc']);

/** CLIs whose commands are topic:command words (`heroku pg:reset`); elsewhere a colon is in a name (a Redis key `job:reset`). */
const TOPIC_COMMAND_CLIS = new Set(['heroku', 'netlify', 'firebase']);

/** `heroku pg:reset`, `netlify sites:delete`, `firebase firestore:delete`: a topic:command word whose command destroys. */
function destroysAfterColon(word: string): boolean {
  const command = /^[a-z][\w-]*(?::[\w-]+)*:([\w-]+)$/i.exec(word)?.[1];
  return command !== undefined && DESTROY_VERB.test(command);
}

/** Whether one subcommand word of `program` destroys (`kubectl replace --force` deletes the objects and creates them anew). */
function isDestroyWord(program: string, word: string, args: readonly string[]): boolean {
  if (DESTROY_VERB.test(word) || OWN_DESTROY_VERB.get(program)?.test(word)) return true;
  if (TOPIC_COMMAND_CLIS.has(program) && destroysAfterColon(word)) return true;
  return word === 'replace' && KUBE_CLIS.has(program) && args.some((a) => /^--force(=true)?$/.test(a));
}

/** docker options before the subcommand that take a value (`docker --context prod stack rm web`). */
const DOCKER_GLOBAL_WITH_ARG = ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level'];

/** `docker stack rm`, `docker service rm`, `docker swarm leave --force` (a manager leaving takes the swarm's state with it). */
function swarmDestroys(args: string[]): boolean {
  const [object, verb] = operands(args, DOCKER_GLOBAL_WITH_ARG);
  if (object === 'stack' || object === 'service')
    return verb === 'rm' || verb === 'remove' || (object === 'stack' && verb === 'down');
  return object === 'swarm' && verb === 'leave' && args.some((a) => a === '--force' || a === '-f');
}

/**
 * Virtual machine and system container managers, with the commands (operands joined by spaces) that delete a machine
 * and its disks: `vagrant destroy`, `multipass delete`/`purge`, `virsh undefine`/`vol-delete`/`pool-delete`, `lxc delete`.
 */
const VM_TEARDOWN = new Map<string, RegExp>([
  ['vagrant', /^destroy\b/],
  ['multipass', /^(delete|purge)\b/],
  ['virsh', /^(undefine|vol-delete|vol-wipe|pool-delete)\b/],
  ['lxc', /^(delete|storage (volume )?delete)\b/],
  ['incus', /^(delete|storage (volume )?delete)\b/],
  ['lxc-destroy', /^/],
]);
/** Options of those managers that take a value (`virsh -c qemu:///system undefine vm1`, `lxc --project p delete c1`). */
const VM_WITH_ARG = ['-c', '--connect', '--project', '-n', '--name'];

/** `terraform destroy`, `terragrunt run-all destroy`, `apply -destroy`, `state rm`, `workspace delete`; `-help` only prints. */
function terraformDestroys(program: string, args: string[], words: string[]): boolean {
  if (args.some((a) => /^--?(help|h)$/.test(a))) return false;
  // terragrunt runs a terraform command in every module: `run-all destroy`, `run --all -- destroy`.
  if (program === 'terragrunt' && /^(run-all|run)$/.test(words[0] ?? ''))
    return words.includes('destroy') || (words.includes('apply') && args.includes('-destroy'));
  if (program === 'terragrunt' && words[0] === 'destroy-all') return true;
  return (
    words[0] === 'destroy' ||
    (words[0] === 'apply' && args.includes('-destroy')) ||
    (words[0] === 'state' && words[1] === 'rm') ||
    (words[0] === 'workspace' && words[1] === 'delete')
  );
}

/** Deleting cloud resources, cluster objects, virtual machines or remote data with an infrastructure CLI (or docker's swarm commands). */
export function infraDestroys(v: CommandView): boolean {
  if (v.program === 'docker') return swarmDestroys(v.args);
  if (VM_TEARDOWN.has(v.program)) return VM_TEARDOWN.get(v.program)!.test(operands(v.args, VM_WITH_ARG).join(' '));
  if (!INFRA_CLIS.test(v.program)) return false;
  if (v.program === 'dropdb' || v.program === 'dropuser') return true;
  // `aws s3 sync … --delete --dryrun`, `aws ec2 terminate-instances --dry-run`, `kubectl delete --dry-run=client`: nothing goes.
  if (v.args.some((a) => /^--(dryrun|dry-run)(=(client|server|true))?$/.test(a))) return false;
  const words = v.args.filter((a) => !a.startsWith('-'));
  // npm rm drops a dependency from the project: only unpublish destroys (the registry's copy, for everyone).
  if (v.program === 'npm') return words[0] === 'unpublish';
  if (v.program === 'terraform' || v.program === 'tofu' || v.program === 'terragrunt')
    return terraformDestroys(v.program, v.args, words);
  // The verb comes before the names it acts on: after a verb that reads or creates, the words are names
  // (`gh pr checkout remove-legacy-auth`, `kubectl get cronjob delete-old`, `gh issue list --search remove`).
  for (const w of words.slice(0, 4)) {
    if (isDestroyWord(v.program, w, v.args)) return true;
    if (KEEPING_VERB.test(w)) break;
  }
  return v.args.some((a) => DESTROY_FLAG.test(a));
}

/** `terraform apply -auto-approve`, `pulumi up --yes`, `cdk deploy --require-approval never`, `cdktf deploy --auto-approve`: changes with no one looking at the plan. */
export function appliesUnprompted(v: CommandView): boolean {
  const words = v.args.filter((a) => !a.startsWith('-'));
  switch (v.program) {
    case 'terraform':
    case 'tofu':
    case 'terragrunt':
      return (
        words.includes('apply') &&
        v.args.some(
          (a) =>
            /^--?auto-approve(=true)?$/.test(a) || a === '--terragrunt-non-interactive' || a === '--non-interactive',
        )
      );
    case 'pulumi':
      return (
        /^(up|update|refresh|import)$/.test(words[0] ?? '') &&
        v.args.some(
          (a) =>
            a === '--yes' ||
            a === '-y' ||
            a === '--skip-preview' ||
            (/^-[a-zA-Z]*y[a-zA-Z]*$/.test(a) && !a.startsWith('--')),
        )
      );
    case 'cdk':
      return (
        words[0] === 'deploy' &&
        (optionValue(v.args, ['--require-approval']) === 'never' || v.args.includes('--require-approval=never'))
      );
    case 'cdktf':
      return words[0] === 'deploy' && v.args.includes('--auto-approve');
    default:
      return false;
  }
}

/** Words of kubectl and helm that change the cluster (reading ones, `get`/`describe`/`logs`/`diff`, do not). */
const CLUSTER_CHANGE =
  /^(apply|create|delete|patch|replace|scale|rollout|set|edit|annotate|label|taint|cordon|drain|expose|autoscale|run|exec|cp|install|upgrade|uninstall|rollback)$/;
/** A namespace, context or cluster named for production (`production`, `prod`, `prod-eu`, `gke_acme_prod`). */
const PRODUCTION_NAME = /(^|[-_/.:])(prod|production|prd|live)($|[-_/.:\d])/i;

/** `kubectl apply -n production`, `kubectl --context prod-eu scale …`, `helm upgrade x -n prod`. */
export function changesProduction(v: CommandView): boolean {
  if (
    !v.args.some((a) => CLUSTER_CHANGE.test(a)) ||
    v.args.some((a) => /^--dry-run(=(client|server))?$/.test(a) || a === '--help')
  )
    return false;
  // `kubectl rollout status|history -n production` reads how a rollout goes.
  const rollout = v.args.indexOf('rollout');
  if (rollout >= 0 && /^(status|history)$/.test(v.args.slice(rollout + 1).find((a) => !a.startsWith('-')) ?? ''))
    return false;
  const named = ['-n', '--namespace', '--context', '--kube-context', '--cluster'].flatMap((o) => {
    const x = optionValue(v.args, [o]);
    return x === undefined ? [] : [x];
  });
  return named.some((x) => PRODUCTION_NAME.test(x));
}
