// Migrations and one-off tasks run against production (issue 26): `RAILS_ENV=production bin/rails db:migrate`,
// `DATABASE_URL=postgres://…prod… alembic upgrade head`, `heroku run rake db:migrate -a app-prod`. The same commands
// against a development or test database are routine and stay quiet.
import type { CommandView } from '../shell/view.ts';
import { operands, SSH_WITH_ARG } from './flags.ts';

/** Rails' and rake's tasks that change nothing a deployment holds (everything else run for production does). */
const RAILS_QUIET =
  /^(assets:\S+|about|routes|stats|notes|middleware|initializers|zeitwerk:check|test(:\S+)?|spec(:\S+)?|tmp:\S+|log:clear|secret|credentials:\S+|time:zones(:\S+)?|db:migrate:status|db:version|server|s|generate|g|destroy|d|new|webpacker:\S+|javascript:\S+|css:\S+|tailwindcss:\S+|dartsass:\S+|bootsnap:\S+|yarn:install|importmap:\S+)$/;
/** Django's management commands that change nothing (the rest, `migrate`, `shell`, `loaddata`, custom ones, may). */
const DJANGO_QUIET =
  /^(check|collectstatic|compilemessages|makemessages|showmigrations|sqlmigrate|diffsettings|runserver|makemigrations|help|version|test|inspectdb|findstatic|startapp|startproject)$/;
/** Laravel's artisan commands that change nothing a deployment holds. */
const ARTISAN_QUIET =
  /^(route:\S+|config:\S+|view:\S+|cache:clear|optimize(:clear)?|event:\S+|about|list|help|migrate:status|serve|test|inspire|schedule:list|storage:link|package:discover|vendor:publish|make:\S+|env)$/;

/** Doctrine's commands that read or generate, never run. */
const SYMFONY_QUIET =
  /:(status|list|diff|generate|validate|validate-schema|dump-sql|info|current|latest|up-to-date|sync-metadata-storage)$/;
/** Tools that change a database, by program, as patterns over their arguments joined by spaces. */
const MIGRATORS = new Map<string, RegExp>([
  ['prisma', /^(migrate (deploy|dev|resolve|reset)|db (push|seed|execute))\b/],
  ['mix', /^(ecto\.(migrate|rollback|reset|drop|load|setup)|run)\b/],
  ['alembic', /(^| )(upgrade|downgrade|stamp)( |$)/],
  ['knex', /(^| )(migrate:(latest|up|down|rollback|unlock)|seed:run)( |$)/],
  ['sequelize', /(^| )db:(migrate(?!:status)|seed)\S*( |$)/],
  ['sequelize-cli', /(^| )db:(migrate(?!:status)|seed)\S*( |$)/],
  ['typeorm', /(^| )(migration:(run|revert)|schema:(sync|drop)|query)( |$)/],
  ['flyway', /(^| )(migrate|repair|baseline|undo|clean)( |$)/],
  ['liquibase', /(^| )(update|update-count|rollback|rollback-count|drop-all|dropAll|execute-sql)( |$)/],
  ['dbmate', /(^| )(up|migrate|rollback|down|drop|load)( |$)/],
  ['goose', /(^| )(up|up-by-one|up-to|down|down-to|redo|reset|fix)( |$)/],
  ['migrate', /(^| )(up|down|force|drop|goto)( |$)/],
  ['diesel', /^(migration (run|revert|redo)|database (reset|setup))\b/],
  ['sqlx', /^(migrate (run|revert)|database (reset|drop|setup))\b/],
  ['drizzle-kit', /^(migrate|push)\b/],
  ['dotnet', /^ef database (update|drop)\b/],
  ['node-pg-migrate', /(^| )(up|down|redo)( |$)/],
  ['hasura', /(^| )(migrate apply|metadata apply|seed apply)( |$)/],
  ['atlas', /^(migrate apply|schema apply)\b/],
  ['flask', /(^| )db (upgrade|downgrade|stamp)( |$)/],
]);
/** Interpreters: a script named for a migration, seed, backfill or one-off job (`node scripts/backfill-users.js`). */
const INTERPRETERS = /^(node|python[\d.]*|ruby|tsx|ts-node|deno|php[\d.]*|perl|sh|bash)$/;
const TASK_SCRIPT = /migrat|seed|backfill|one[-_]?off|purge|cleanup|reindex|import[-_]|sync[-_]/i;
/** npm's script runners: a script named for a migration or a seed (`npm run migrate`, `yarn db:seed`). */
const SCRIPT_RUNNERS = new Set(['npm', 'yarn', 'pnpm', 'bun']);
const MIGRATION_SCRIPT = /migrat|seed|^db:/i;

/** A task's words (program first) that change what a database or a deployment holds. */
function changesData(words: readonly string[]): boolean {
  let [head, ...rest] = words;
  while (head !== undefined && /^(bundle|npx|pnpx|bunx|exec|dotenv|--)$/.test(head.replace(/^.*\//, ''))) {
    [head, ...rest] = rest;
  }
  if (head === undefined) return false;
  let program = head.replace(/^.*\//, '');
  // `python manage.py migrate`, `php artisan migrate --force`: the script is the program.
  if (INTERPRETERS.test(program)) {
    // (`deno run -A scripts/seed.ts`: the script follows `run`.)
    // (`sh -c 'bin/rails db:migrate'` inside a runner's command: the words after -c.)
    if (/^(sh|bash)$/.test(program) && rest[0] === '-c') return changesData(rest.slice(1));
    const named = rest.filter((a) => !a.startsWith('-'));
    const script = program === 'deno' && named[0] === 'run' ? named[1] : named[0];
    if (script === undefined) return false;
    if (!/^(manage\.py|artisan|django-admin|console)$/.test(script.replace(/^.*\//, '')))
      return TASK_SCRIPT.test(script);
    program = script.replace(/^.*\//, '');
    rest = rest.slice(rest.indexOf(script) + 1);
  }
  const first = rest.find((a) => !a.startsWith('-'));
  switch (program) {
    case 'rails':
    case 'rake':
      return first !== undefined && !RAILS_QUIET.test(first);
    case 'manage.py':
    case 'django-admin':
      return first !== undefined && !DJANGO_QUIET.test(first);
    case 'artisan':
      return first !== undefined && !ARTISAN_QUIET.test(first);
    // Symfony's bin/console: Doctrine's migrations, schema and fixtures, and the app's own commands.
    case 'console':
      return first !== undefined && /^(doctrine|app):/.test(first) && !SYMFONY_QUIET.test(first);
    // `cap production deploy:migrate`: Capistrano's first word is the stage (`cap production deploy` is a deployer's).
    case 'cap':
      return (
        first !== undefined &&
        PRODUCTION.test(first) &&
        rest.some(
          (a) => !a.startsWith('-') && a !== first && !/(^|:)(check|doctor|status)$|^deploy(:rollback)?$/.test(a),
        )
      );
    default:
      if (SCRIPT_RUNNERS.has(program)) {
        const script = first === 'run' ? rest.filter((a) => !a.startsWith('-'))[1] : first;
        return script !== undefined && MIGRATION_SCRIPT.test(script);
      }
      return (
        (MIGRATORS.get(program)?.test(rest.join(' ')) ?? false) ||
        // `bin/migrate`, `./scripts/seed.sh`, `bin/backfill-users`: the app's own script named for a task, by its path.
        (head.includes('/') && !/^\/(usr|bin|sbin|opt)\//.test(head) && TASK_SCRIPT.test(program))
      );
  }
}

/** A name for production: `production`, `prod`, `app-prod`, `config.settings.production`, `db.prod.internal`. */
const PRODUCTION = /(^|[^a-z0-9])(prod|production|prd)([^a-z0-9]|$)/i;
/** A name for anything else: staging, development, test, review and preview apps. */
const NOT_PRODUCTION =
  /(^|[^a-z0-9])(staging|stage|stg|dev|development|test|testing|qa|review|preview|sandbox|local)([^a-z0-9]|$)/i;

/**
 * Whether a command line names production where it says what it runs against: a variable set before it
 * (`RAILS_ENV=production`, `DATABASE_URL=postgres://…@db.prod…`, `MIX_ENV=prod`), an option's value
 * (`--env=production`, `-e production`, `--settings=config.settings.production`, `-n production`, `--context prod`),
 * including the wrappers' (`kubectl exec -n production …`, `docker --context prod exec …`).
 */
function namesProduction(v: CommandView): boolean {
  if (v.vars)
    for (const [name, value] of v.vars) if (TARGET_VARIABLE.test(name) && PRODUCTION.test(value ?? '')) return true;
  const text = v.text;
  if (!PRODUCTION.test(text)) return false;
  // `docker exec api-prod …`, `kubectl exec deploy/api-prod -- …`: the wrappers' words name where it runs.
  const at = v.argv[0] === undefined ? -1 : text.indexOf(v.argv[0]);
  if (
    at > 0 &&
    text
      .slice(0, at)
      .split(/\s+/)
      .some((w) => !w.includes('=') && PRODUCTION.test(w))
  )
    return true;
  const words = text.split(/\s+/).map((w) => w.replace(/^['"]+|['"]+$/g, ''));
  return words.some((w, i) => {
    // `DATABASE_URL=…`, `--env=production`, a DSN's `host=prod-db` (goose), `-url=jdbc:postgresql://prod-db/app`.
    const assigned = /^-{0,2}[A-Za-z_][\w.-]*=(.*)$/.exec(w);
    if (assigned) return PRODUCTION.test(assigned[1]!);
    return (
      (/^-/.test(words[i - 1] ?? '') && !w.startsWith('-') && PRODUCTION.test(w)) ||
      (/:\/\//.test(w) && PRODUCTION.test(w))
    );
  });
}
/** Variables that say which environment or database a task runs against. */
const TARGET_VARIABLE = /ENV|ENVIRONMENT|STAGE|DATABASE|_DB|DB_|DSN|SETTINGS|PROFILE/;

/** Platforms whose one-off runner runs a command in a deployed app (`heroku run`, `fly ssh console -C`, `railway run`). */
function deployedRun(v: CommandView): string[][] | undefined {
  const ops = operands(v.args, [
    '-a',
    '--app',
    '-r',
    '--remote',
    '-e',
    '--environment',
    '-s',
    '--service',
    '-C',
    '--command',
  ]);
  switch (v.program) {
    case 'heroku': {
      const at = v.args.findIndex((a) => a === 'run' || a === 'run:detached');
      return at >= 0 && ops[0] === v.args[at]
        ? [operands(v.args.slice(at + 1), ['-a', '--app', '-r', '--remote', '-s', '--size', '-e', '--env'])]
        : undefined;
    }
    case 'railway': {
      const at = v.args.indexOf('run');
      return at >= 0 && ops[0] === 'run' ? [v.args.slice(at + 1).filter((a) => a !== '--')] : undefined;
    }
    case 'fly':
    case 'flyctl':
      // (`fly console -C …` runs it on a new machine of the app.)
      return (ops[0] === 'ssh' && ops[1] === 'console') || ops[0] === 'console' ? commandOption(v.args) : undefined;
    // `eb ssh --command 'bin/rails db:migrate'`: on the environment's instances.
    case 'eb':
      return ops[0] === 'ssh' ? commandOption(v.args) : undefined;
    // `cf run-task acme-api --command 'bin/rails db:migrate'` (cf 6: the command after the app).
    case 'cf': {
      if (ops[0] !== 'run-task') return undefined;
      const positional = operands(v.args, ['-c', '--command', '-k', '-m', '--name', '-l', '--process']);
      return commandOption(v.args, ['-c', '--command']) ?? (positional[2] ? commandLines(positional[2]) : undefined);
    }
    // `dokku run api bin/rails db:migrate`, `kamal app exec 'bin/rails db:migrate'`: in the deployed app's container.
    case 'dokku':
      return ops[0] === 'run' || ops[0] === 'run:detached' ? [ops.slice(2)] : undefined;
    case 'kamal': {
      if (v.args[0] !== 'app' && ops[0] !== 'app') return undefined;
      const at = v.args.indexOf('exec');
      const rest =
        at < 0 ? [] : operands(v.args.slice(at + 1), ['-d', '--destination', '-r', '--roles', '-h', '--hosts']);
      return rest.length ? commandLines(rest.join(' ')) : undefined;
    }
    default:
      return undefined;
  }
}

/** The command a `-C`/`--command` option hands a platform's runner, split into its commands; undefined without one. */
function commandOption(args: readonly string[], names = ['-C', '--command']): string[][] | undefined {
  const at = args.findIndex((a) => names.includes(a));
  const long = names.find((n) => n.startsWith('--'));
  const command = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith(`${long}=`))?.slice(`${long}=`.length);
  return command === undefined ? undefined : commandLines(command);
}

/** `gcloud run jobs execute db-migrate`: a deployed job named for a migration, seed or one-off task started. */
function startsTaskJob(v: CommandView): boolean {
  const ops = operands(v.args, [
    '--region',
    '--project',
    '--args',
    '--update-env-vars',
    '--task-timeout',
    '--tasks',
  ]).filter((w) => w !== 'alpha' && w !== 'beta');
  return ops[0] === 'run' && ops[1] === 'jobs' && ops[2] === 'execute' && TASK_SCRIPT.test(ops[3] ?? '');
}

/** `docker compose -f docker-compose.prod.yml exec web python manage.py migrate`: the command a compose service runs. */
function composeRun(v: CommandView): string[] | undefined {
  const words = v.args.filter((a) => !a.startsWith('-'));
  const compose = v.program === 'docker' ? words[0] === 'compose' : true;
  const at = v.args.findIndex((a) => a === 'exec' || a === 'run');
  if (!compose || at < 0) return undefined;
  const rest = operands(v.args.slice(at + 1), [
    '-e',
    '--env',
    '-u',
    '--user',
    '-w',
    '--workdir',
    '--index',
    '--name',
    '--entrypoint',
    '-v',
    '--volume',
    '-p',
    '--publish',
    '-l',
    '--label',
  ]);
  return rest.slice(1);
}

/** Database clients, with the options that hand them code to run and a file of it. */
const SQL_CLIENTS = new Map<string, { code: string[]; file: string[] }>([
  ['psql', { code: ['-c', '--command'], file: ['-f', '--file'] }],
  ['pgcli', { code: ['-c', '--command'], file: [] }],
  ['mysql', { code: ['-e', '--execute'], file: [] }],
  ['mariadb', { code: ['-e', '--execute'], file: [] }],
  ['sqlcmd', { code: ['-Q', '-q'], file: ['-i'] }],
  ['clickhouse-client', { code: ['-q', '--query'], file: ['--queries-file'] }],
  ['cqlsh', { code: ['-e', '--execute'], file: ['-f', '--file'] }],
  ['mongosh', { code: ['--eval'], file: ['-f', '--file'] }],
  ['mongo', { code: ['--eval'], file: [] }],
]);
/** SQL (or a Mongo shell call) that changes data or schema, not only reads it. */
const WRITES_DATA =
  /\b(insert|update|delete|alter|create|drop|truncate|grant|revoke|rename|merge|copy|vacuum|reindex|call)\b|\.(insert|update|delete|remove|drop|create|rename|replace|bulkWrite)\w*\s*\(/i;
/** redis-cli's commands that change what it holds. */
const REDIS_WRITES =
  /^(set|setex|setnx|mset|del|unlink|expire|persist|rename|hset|hdel|hmset|lpush|rpush|lpop|rpop|lrem|sadd|srem|zadd|zrem|incr\w*|decr\w*|append|flushdb|flushall|eval|evalsha|config)$/i;

/**
 * `psql -h db.prod.internal -f migrations/x.sql`, `mysql -h prod-db -e 'ALTER TABLE …'`, `redis-cli -h cache.prod DEL k`:
 * a database client running a script, or code that writes, against a server the line names for production.
 */
function writesProductionDatabase(v: CommandView): boolean {
  if (v.program === 'redis-cli') {
    const verb = operands(v.args, ['-h', '-p', '-a', '-n', '-u', '--user', '--pass']).at(0);
    return verb !== undefined && REDIS_WRITES.test(verb) && namesProduction(v);
  }
  const client = SQL_CLIENTS.get(v.program);
  if (!client) return false;
  const code = v.args.flatMap((a, i) => (client.code.includes(a) ? [v.args[i + 1] ?? ''] : []));
  const runsFile =
    v.args.some((a) => client.file.includes(a)) ||
    v.redirects.some((r) => !r.write && r.op === '<' && r.target !== undefined);
  const heredoc = v.stdin && v.stdin.kind !== 'pipe' ? (v.stdin.text ?? '') : '';
  const writes = runsFile || code.some((c) => WRITES_DATA.test(c)) || WRITES_DATA.test(heredoc);
  return writes && namesProduction(v);
}

/**
 * `RAILS_ENV=production bin/rails db:migrate`, `kubectl exec -n production deploy/api -- rails db:migrate`,
 * `NODE_ENV=production npx prisma migrate deploy`, `php artisan migrate --env=production --force`,
 * `heroku run rake db:migrate -a app-prod`, `fly ssh console -C 'bin/rails db:migrate'`: a migration, seed or one-off
 * task run against production. A deployed app's runner counts unless its app or environment is named for staging,
 * development or test.
 */
export function runsProductionTask(v: CommandView): boolean {
  if (SQL_CLIENTS.has(v.program) || v.program === 'redis-cli') return writesProductionDatabase(v);
  if (v.program === 'ssh') return remoteTaskOnProduction(v);
  if (v.program === 'cap') return changesData(v.argv);
  // `kubectl exec -n production deploy/api -- sh -c 'bin/rails db:migrate'`: the wrappers name where it runs.
  if (SHELLS.has(v.program)) {
    if (v.wrappers.length === 0) return false;
    const at = v.args.findIndex((a) => /^-[a-z]*c$/.test(a));
    return at >= 0 && commandLines(v.args[at + 1] ?? '').some(changesData) && namesProduction(v);
  }
  const deployed = deployedRun(v);
  if (deployed)
    return (
      deployed.some(changesData) &&
      !v.args.some(
        (a, i) => /^(-a|--app|-e|--environment|-d|--destination)$/.test(v.args[i - 1] ?? '') && NOT_PRODUCTION.test(a),
      ) &&
      // (`dokku run api-staging …`, `cf run-task acme-dev …`, `eb ssh acme-staging`: the app named after the verb.)
      !(/^(dokku|cf|eb)$/.test(v.program) && NOT_PRODUCTION.test(operands(v.args, ['-c', '--command', '-C'])[1] ?? ''))
    );
  if (v.program === 'gcloud') return startsTaskJob(v) && !v.args.some((a) => NOT_PRODUCTION.test(a));
  if (
    v.program === 'docker' ||
    v.program === 'docker-compose' ||
    v.program === 'podman' ||
    v.program === 'podman-compose'
  ) {
    const inner = composeRun(v);
    return inner !== undefined && changesData(inner) && namesProduction(v);
  }
  return changesData(v.argv) && namesProduction(v);
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ash']);
/** A command line split into its commands' words (at `&&`, `||`, `;`, `|`), quotes stripped from the words' ends. */
function commandLines(line: string): string[][] {
  return line.split(/\s*(?:&&|\|\||;|\|)\s*/).map((c) =>
    c
      .trim()
      .split(/\s+/)
      .map((w) => w.replace(/^['"]+|['"]+$/g, ''))
      .filter((w) => w !== '' && !/^[A-Z_]+=/.test(w)),
  );
}
/** `ssh deploy@prod-1.acme.io 'cd /srv/app && bin/rails db:migrate'`: a task run on a host named for production. */
function remoteTaskOnProduction(v: CommandView): boolean {
  const [host, ...remote] = operands(v.args, SSH_WITH_ARG);
  // `ssh dokku@apps.acme.io run api bin/rails db:migrate`: dokku's runner, in the deployed app.
  if (/^dokku@/.test(host ?? '') && /^run(:detached)?$/.test(remote[0] ?? ''))
    return !NOT_PRODUCTION.test(remote[1] ?? '') && changesData(remote.slice(2));
  return (
    host !== undefined &&
    PRODUCTION.test(host.replace(/^[^@]*@/, '')) &&
    remote.length > 0 &&
    commandLines(remote.join(' ')).some(changesData)
  );
}

/** The programs `runsProductionTask` looks at. */
export const PRODUCTION_TASK_PROGRAMS = [
  'rails',
  'rake',
  'bundle',
  'manage.py',
  'django-admin',
  'artisan',
  'python',
  'python3',
  'php',
  'node',
  'ruby',
  'tsx',
  'ts-node',
  'deno',
  'perl',
  ...MIGRATORS.keys(),
  ...SCRIPT_RUNNERS,
  ...SQL_CLIENTS.keys(),
  'redis-cli',
  ...SHELLS,
  'ssh',
  'console',
  'cap',
  'heroku',
  'railway',
  'fly',
  'flyctl',
  'eb',
  'cf',
  'dokku',
  'kamal',
  'gcloud',
  'docker',
  'docker-compose',
  'podman',
  'podman-compose',
];
