// Danger catalogue, databases: destructive SQL (read as the server reads it) and framework commands that drop or
// empty the application's database.
import type { DangerEntry } from './danger-entry.ts';
import { PRODUCTION_TASK_PROGRAMS, runsProductionTask } from './production-tasks.ts';
import { basename } from 'node:path';
import type { CommandView } from '../shell/view.ts';
import { optionValue, operands } from './flags.ts';
import { inlineCode } from './inline-code.ts';
import { CODE_RUNNERS } from './programs.ts';

/** Destructive SQL in a string, and `COPY … FROM/TO PROGRAM`, which runs a shell command on the database server. */
const DESTRUCTIVE_SQL =
  /\b(drop\s+(table|schema|database|keyspace|index|view|materialized\s+view|user|role|owned)|truncate\s+(table\s+)?\w|delete\s+from\s+[\w."]+\s*(;|$)|update\s+[\w."]+\s+set\s(?:(?!\bwhere\b)[^;])*(;|$)|updateMany\s*\(\s*\{\s*\}|alter\s+table\s+\S+\s+drop|dropDatabase\s*\(|\.drop\s*\(\s*\)|(deleteMany|remove)\s*\(\s*\{\s*\}\s*[,)]|copy\b[^;]*\b(from|to)\s+program\b|flushall|flushdb)|\]\s*\.\s*drop\s*\(\s*\)/i;

/**
 * A WHERE that every row meets (`WHERE 1=1`, `WHERE true`, `WHERE 'a'='a'`, MySQL's `WHERE 1`, or any condition
 * `OR 1=1`) ending the statement: it filters nothing.
 */
const ALWAYS_TRUE_WHERE = /\bwhere\s+(?:[^;]*?\bor\s+)?(?:true|1|([\w.]+|'[^']*')\s*=\s*\1)\s*(?=;|$)/gi;

const SQL_CLIENTS = [
  'psql',
  'mysql',
  'mariadb',
  'mysqladmin',
  'sqlite3',
  'sqlcmd',
  'clickhouse-client',
  'cockroach',
  'mongo',
  'mongosh',
  'redis-cli',
  'cqlsh',
  'duckdb',
  'snowsql',
  'bq',
];
/** Clients of MySQL's dialect, where `#` starts a comment and a `/*!` comment holds code the server runs. */
const MYSQL_CLIENTS = new Set(['mysql', 'mariadb', 'mysqladmin']);
/** mysqladmin options that take the next word as their value. */
const MYSQLADMIN_WITH_ARG = [
  '-u',
  '-h',
  '-P',
  '-S',
  '-c',
  '-i',
  '--user',
  '--host',
  '--port',
  '--socket',
  '--count',
  '--sleep',
];

/** SQL handed to a database client: -c/-e/--command/--execute/--eval, sqlite3's second operand, stdin text, mysqladmin's `drop NAME`. */
function sqlOf(v: CommandView): string[] {
  if (!SQL_CLIENTS.includes(v.program)) return [];
  if (v.program === 'mysqladmin') {
    // mysqladmin's command `drop NAME` runs the statement DROP DATABASE NAME.
    const words = operands(v.args, MYSQLADMIN_WITH_ARG);
    const drop = words.findIndex((w) => w.toLowerCase() === 'drop');
    return drop < 0 ? [] : [`DROP DATABASE ${words[drop + 1] ?? ''}`];
  }
  const out: string[] = [];
  const c = optionValue(v.args, ['-c', '-e', '--command', '--execute', '--eval', '-Q', '-q', '--query']);
  if (c !== undefined) out.push(c);
  if (v.program === 'sqlite3' || v.program === 'duckdb' || v.program === 'redis-cli')
    out.push(
      v.args
        .filter((a) => !a.startsWith('-'))
        .slice(v.program === 'redis-cli' ? 0 : 1)
        .join(' '),
    );
  if (v.stdin?.text) out.push(v.stdin.text);
  return out;
}

/**
 * The index just past the quoted text that starts at `start`: a doubled quote is part of the text, and so is a
 * backslash-escaped one in MySQL and in a PostgreSQL escape string (`E'it\'s'`).
 */
function endOfQuoted(sql: string, start: number, mysql: boolean): number {
  const quote = sql[start];
  const backslashEscapes = mysql || /^[eE]$/.test(sql[start - 1] ?? '');
  for (let i = start + 1; i < sql.length; i++) {
    if (backslashEscapes && sql[i] === '\\') i++;
    else if (sql[i] === quote && sql[i + 1] === quote) i++;
    else if (sql[i] === quote) return i + 1;
  }
  return sql.length;
}

/** The index just past the block comment that starts at `start`; PostgreSQL nests block comments, MySQL does not. */
function endOfBlockComment(sql: string, start: number, nested: boolean): number {
  let depth = 0;
  for (let i = start; i < sql.length - 1; i++) {
    if (sql[i] === '/' && sql[i + 1] === '*' && (nested || depth === 0)) {
      depth++;
      i++;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return sql.length;
}

/** `--` starts a comment to the end of the line (in MySQL only before a space: `1--1` is arithmetic there), and so does MySQL's `#`. */
function startsLineComment(sql: string, at: number, mysql: boolean): boolean {
  if (mysql) return sql[at] === '#' || (sql.startsWith('--', at) && /^\s?$/.test(sql[at + 2] ?? ''));
  return sql.startsWith('--', at);
}

/**
 * SQL as the server reads it, each comment turned into a space (a comment between DROP and TABLE still separates
 * them): block comments, `--` to the end of the line and, in MySQL, `#` to the end of the line. Quoted text stays.
 * A MySQL comment opened with `/*!` is code the server runs: only its markers become spaces.
 */
function withoutComments(sql: string, mysql: boolean): string {
  let out = '';
  let inMysqlCode = false;
  let i = 0;
  while (i < sql.length) {
    const pair = sql.slice(i, i + 2);
    if (sql[i] === "'" || sql[i] === '"' || sql[i] === '`') {
      const end = endOfQuoted(sql, i, mysql);
      out += sql.slice(i, end);
      i = end;
    } else if (startsLineComment(sql, i, mysql)) {
      const end = sql.indexOf('\n', i);
      out += ' ';
      i = end < 0 ? sql.length : end;
    } else if (mysql && pair === '/*' && sql[i + 2] === '!') {
      inMysqlCode = true;
      out += ' ';
      i += 3;
      while (/\d/.test(sql[i] ?? '')) i++;
    } else if (inMysqlCode && pair === '*/') {
      inMysqlCode = false;
      out += ' ';
      i += 2;
    } else if (pair === '/*') {
      out += ' ';
      i = endOfBlockComment(sql, i, !mysql);
    } else {
      out += sql[i];
      i++;
    }
  }
  return out;
}

/** Whether SQL destroys data (or runs a shell command) as written, or as the server reads it: comments blanked, an always-true WHERE dropped. */
function isDestructiveSql(sql: string, program: string): boolean {
  const mysql = MYSQL_CLIENTS.has(program);
  // Only SQL with a comment marker or a WHERE reads otherwise to the server: the rest is not scanned again.
  const effective = /--|\/\*|#|\bwhere\b/i.test(sql) ? withoutComments(sql, mysql).replace(ALWAYS_TRUE_WHERE, '') : sql;
  if (!DESTRUCTIVE_SQL.test(sql) && (effective === sql || !DESTRUCTIVE_SQL.test(effective))) return false;
  // `select 'DROP TABLE x' as example`: the words are a string's text — unless something runs text as SQL.
  if (/['"]/.test(sql) && !RUNS_TEXT_AS_SQL.test(sql)) return DESTRUCTIVE_SQL.test(withoutStrings(effective, mysql));
  return true;
}

/** SQL that runs text as SQL (`EXECUTE 'DROP …'`, a `DO $$ … $$` block, psql's `\gexec`): its strings are code. */
const RUNS_TEXT_AS_SQL = /\b(exec|execute|prepare|immediate|sp_executesql|do)\b|\\gexec|\$\$/i;

/** SQL with the text of its single-quoted strings (and MySQL's double-quoted ones) removed. */
function withoutStrings(sql: string, mysql: boolean): string {
  let out = '';
  for (let i = 0; i < sql.length;) {
    if (sql[i] === "'" || (mysql && sql[i] === '"')) {
      const end = endOfQuoted(sql, i, mysql);
      out += "''";
      i = end;
    } else out += sql[i++];
  }
  return out;
}

/** The Rails, Django and Sequelize commands that drop or empty the database (each run by more than one program: rails and rake, …). */
// (`db:schema:load` recreates every table of the schema over the database, dropping what they held.)
const RAILS_DB_WIPE =
  /(^| )db:(drop|reset|purge|truncate_all|migrate:reset|seed:replant|schema:load|structure:load)(:\w+)?( |$)/;
// (`migrate APP zero` unapplies every migration of the app: its tables are dropped.)
const DJANGO_DB_WIPE = /^(flush|reset_db|migrate \w+ zero)\b/;
const SEQUELIZE_DB_WIPE = /^db:(drop|migrate:undo:all|seed:undo:all)\b/;
/** Flyway's clean and Liquibase's dropAll as build plugin goals (`mvn flyway:clean`, `./gradlew flywayClean`). */
const MAVEN_DB_WIPE = /(^| )(flyway:clean|liquibase:dropAll)( |$)/;
const GRADLE_DB_WIPE = /(^| )(flywayClean|dropAll)( |$)/;
/**
 * Framework commands that drop or empty the application's database, by the program that runs them, as patterns over
 * its arguments joined by spaces. Runners are peeled before (`npx prisma` is `prisma`, `bundle exec rails` is `rails`),
 * and so are interpreters running a framework script (`python manage.py` is `manage.py`: see frameworkCommand).
 */
const DATABASE_WIPES = new Map<string, RegExp>([
  ['rails', RAILS_DB_WIPE],
  ['rake', RAILS_DB_WIPE],
  ['manage.py', DJANGO_DB_WIPE],
  ['django-admin', DJANGO_DB_WIPE],
  ['django', DJANGO_DB_WIPE], // python -m django
  // A schema pushed with its data loss accepted (`--accept-data-loss`, drizzle's `--force`) drops the columns and tables it removes.
  ['prisma', /^(migrate reset|db push\b.* --(force-reset|accept-data-loss))\b/],
  ['drizzle-kit', /^push(:\w+)?\b.* --force\b/],
  ['mikro-orm', /^schema:(drop|fresh)\b/],
  ['artisan', /^(db:wipe|migrate:(fresh|reset|refresh))\b/], // Laravel
  ['console', /^doctrine:(database|schema):drop\b.* (--force|-f)\b/], // Symfony's bin/console
  ['flyway', /(^| )clean( |$)/],
  ['liquibase', /(^| )(dropAll|drop-all)( |$)/],
  ['mvn', MAVEN_DB_WIPE],
  ['mvnw', MAVEN_DB_WIPE],
  ['gradle', GRADLE_DB_WIPE],
  ['gradlew', GRADLE_DB_WIPE],
  ['dotnet', /^ef database (drop\b|update 0( |$))/],
  ['sequelize', SEQUELIZE_DB_WIPE],
  ['sequelize-cli', SEQUELIZE_DB_WIPE],
  ['knex', /^migrate:rollback\b.* --all\b/],
  ['alembic', /(^| )downgrade base\b/],
  ['typeorm', /(^| )schema:drop\b/],
  ['mix', /^ecto\.(drop|reset)\b|^ecto\.rollback\b.* --all\b/],
  ['diesel', /^database reset\b/],
  ['sqlx', /^database (drop|reset)\b/],
]);

/** The command a framework script runs: `python manage.py flush` is `manage.py flush`, `php artisan db:wipe` is `artisan db:wipe`. */
function frameworkCommand(v: CommandView): { program: string; args: string[] } {
  if (/^(python|php)[\d.]*$/.test(v.program)) {
    const script = v.args.findIndex((a) => !a.startsWith('-'));
    if (script >= 0) return { program: basename(v.args[script]!), args: v.args.slice(script + 1) };
  }
  return { program: v.program, args: v.args };
}

/** `rails db:drop`, `python manage.py flush`, `prisma migrate reset`, `php artisan migrate:fresh`, `flyway clean`, … */
function wipesDatabase(v: CommandView): boolean {
  const { program, args } = frameworkCommand(v);
  return DATABASE_WIPES.get(program)?.test(args.join(' ')) ?? false;
}

/** Redis's command-line clients. */
const REDIS_CLIENTS = ['redis-cli', 'valkey-cli', 'keydb-cli'];
/** redis-cli's options that take a value, so that the first operand is the command. */
const REDIS_WITH_ARG = [
  '-h',
  '-p',
  '-s',
  '-a',
  '-u',
  '-n',
  '-r',
  '-i',
  '-d',
  '--user',
  '--pass',
  '--pattern',
  '--count',
];

/**
 * `redis-cli del|unlink KEY…` with keys only known when it runs (`… | xargs redis-cli del`: a listing's items) or a
 * pattern (`del 'session:*'`), and `EVAL` of a script deleting keys it looks up (`redis.call('del', …keys…)`).
 */
function deletesRedisKeys(v: CommandView): boolean {
  if (!REDIS_CLIENTS.includes(v.program)) return false;
  const ops = operands(v.args, REDIS_WITH_ARG);
  const command = (ops[0] ?? '').toLowerCase();
  if (command === 'del' || command === 'unlink') {
    const keys = v.words.slice(v.words.length - ops.length + 1);
    return keys.length === 0 || keys.some((w) => w.dynamic) || ops.slice(1).some((k) => /[*?[]/.test(k));
  }
  return (
    (command === 'eval' || command === 'evalsha_ro' || command === 'fcall') &&
    /\b(del|unlink)\b/i.test(ops[1] ?? '') &&
    /\b(keys|scan)\b/i.test(ops[1] ?? '')
  );
}

export const DATA_DANGERS: DangerEntry[] = [
  {
    id: 'db-restore-clean',
    risk: 'high',
    reason:
      'restores a dump over a database, dropping its objects first (pg_restore --clean, mongorestore --drop): what the database held is replaced',
    programs: ['pg_restore', 'mongorestore'],
    examples: ['pg_restore --clean -d app backup.dump', 'pg_restore -c -d prod x.dump', 'mongorestore --drop dump/'],
    match: (v) =>
      (v.program === 'pg_restore' &&
        v.args.some((a) => a === '--clean' || /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) &&
        !v.args.some((a) => a === '-l' || a === '--list' || a === '-f' || a.startsWith('--file'))) ||
      (v.program === 'mongorestore' && v.args.includes('--drop') && !v.args.includes('--dryRun')),
  },
  {
    id: 'sql-destructive',
    risk: 'high',
    reason:
      'destructive SQL (DROP, TRUNCATE, DELETE or UPDATE without WHERE or with one every row meets, also behind comments) or a shell command run by the database server (COPY … PROGRAM)',
    programs: SQL_CLIENTS,
    examples: [
      'psql "$DATABASE_URL" -c \'DROP SCHEMA public CASCADE\'',
      'mysql -e "drop database app"',
      'sqlite3 app.db "DELETE FROM users;"',
      "psql -c 'UPDATE users SET admin = true'",
      'redis-cli flushall',
      'mongosh --eval "db.dropDatabase()"',
      "psql -c 'DROP/**/TABLE users'",
      "mysql -e 'DrOp/**/DATABASE x'",
      "psql -c 'delete from users where 1=1'",
      'psql -c "COPY x FROM PROGRAM \'rm -rf ~\'"',
      'mysqladmin -f drop prod',
      "cqlsh -e 'DROP KEYSPACE x'",
      "mongo --eval 'db.x.remove({})'",
    ],
    match: (v) => sqlOf(v).some((sql) => isDestructiveSql(sql, v.program)),
  },
  {
    id: 'redis-keys-delete',
    risk: 'high',
    reason:
      'deletes Redis keys chosen by a pattern or a listing (… | xargs redis-cli del, a script calling DEL over KEYS or SCAN): which keys go is only known when it runs',
    programs: REDIS_CLIENTS,
    examples: [
      "redis-cli --scan --pattern 'session:*' | xargs redis-cli del",
      "redis-cli keys 'cache:*' | xargs -n 100 redis-cli unlink",
      'redis-cli del "session:*"',
      "redis-cli EVAL \"return redis.call('del', unpack(redis.call('keys', ARGV[1])))\" 0 'session:*'",
    ],
    // (One key named, `redis-cli del session:abc`, and reading, `redis-cli --scan --pattern 'x:*'`, stay quiet.)
    match: deletesRedisKeys,
  },
  {
    id: 'store-flush',
    risk: 'high',
    reason:
      'empties a cache or a search index through its wire protocol or API (memcached flush_all over nc, Redis FLUSHALL over a socket, Elasticsearch _delete_by_query)',
    programs: ['nc', 'ncat', 'netcat', 'telnet', 'socat', 'curl', 'wget', 'http', 'https', 'xh'],
    examples: [
      'echo flush_all | nc localhost 11211',
      "printf 'FLUSHALL\\r\\n' | nc redis 6379",
      'curl -X POST "localhost:9200/logs/_delete_by_query" -d \'{"query":{"match_all":{}}}\'',
    ],
    // (`echo stats | nc localhost 11211` and a search, `curl localhost:9200/logs/_search`, stay quiet.)
    match: (v) =>
      /^(curl|wget|https?|xh)$/.test(v.program)
        ? v.args.some((a) => /^(https?:\/\/)?[^/\s]+\/[^?\s]*_delete_by_query\b/.test(a))
        : /\b(flush_all|flushall|flushdb)\b/i.test(v.stdin?.text ?? ''),
  },
  {
    id: 'database-reset',
    risk: 'high',
    reason:
      "drops or empties the application's database through its framework (rails db:drop, manage.py flush, prisma migrate reset, a schema push accepting data loss, artisan migrate:fresh, flyway clean, mvn flyway:clean, liquibase dropAll, …)",
    programs: ['python', 'python3', 'php', ...DATABASE_WIPES.keys()],
    examples: [
      'rails db:drop',
      'bundle exec rake db:reset',
      'python manage.py flush --noinput',
      'python3 manage.py reset_db',
      'npx prisma migrate reset --force',
      'prisma db push --force-reset',
      'npx prisma db push --accept-data-loss',
      'npx drizzle-kit push --force',
      'bin/rails db:schema:load',
      'python manage.py migrate billing zero',
      'php artisan db:wipe --force',
      'php artisan migrate:fresh',
      'flyway clean',
      'dotnet ef database drop -f',
      'sequelize db:drop',
      'knex migrate:rollback --all',
      'alembic downgrade base',
      'mvn flyway:clean',
      './mvnw flyway:clean',
      'gradle flywayClean',
      'liquibase dropAll',
    ],
    match: wipesDatabase,
  },
  {
    id: 'production-task',
    risk: 'high',
    reason:
      'runs a migration, seed, one-off task or writing SQL against production (RAILS_ENV=production, a production DATABASE_URL, host, namespace, context or app): it changes the data users see',
    programs: PRODUCTION_TASK_PROGRAMS,
    examples: [
      'RAILS_ENV=production bin/rails db:migrate',
      'kubectl exec -it -n production deploy/api -- rails db:migrate',
      'NODE_ENV=production npx prisma migrate deploy',
      'DATABASE_URL=postgres://app@db.prod.internal/app alembic upgrade head',
      'heroku run rake db:migrate -a app-prod',
      "fly ssh console -C 'bin/rails db:migrate'",
      'MIX_ENV=prod mix ecto.migrate',
      'php artisan migrate --env=production --force',
      'python manage.py migrate --settings=config.settings.production',
      'docker compose -f docker-compose.prod.yml exec web python manage.py migrate',
      'RAILS_ENV=production bundle exec rake users:backfill',
      'psql -h db.prod.internal -U app -f migrations/2024_add_index.sql',
      "mysql -h prod-db.acme.io -e 'ALTER TABLE orders ADD INDEX idx_user (user_id)'",
      'redis-cli -h cache.prod.internal DEL session:123',
      "kubectl exec -n production deploy/api -- sh -c 'bin/rails db:migrate'",
      "ssh deploy@prod-1.acme.io 'cd /srv/app && bin/rails db:migrate'",
      'php bin/console doctrine:migrations:migrate --env=prod --no-interaction',
      'cap production deploy:migrate',
      'fly ssh console -a acme-api -C "bin/migrate"',
      "cf run-task acme-api --command 'bin/rails db:migrate'",
      'dokku run api ./manage.py migrate',
      "kamal app exec 'bin/rails db:migrate'",
      'gcloud run jobs execute db-migrate --region us-central1',
      'heroku run bash scripts/backfill.sh -a acme-api',
    ],
    // (`RAILS_ENV=test bin/rails db:migrate`, `bin/rails db:migrate`, `RAILS_ENV=production bin/rails assets:precompile`,
    // `NODE_ENV=production npm run build`, `heroku run rake db:migrate -a app-staging` stay quiet.)
    match: runsProductionTask,
  },
  {
    id: 'inline-code-database-wipe',
    risk: 'high',
    reason:
      "inline code drops or empties the application's database through its ORM or driver (SQLAlchemy drop_all, Django flush, ActiveRecord delete_all, Sequelize sync({force: true}), TypeORM dropDatabase, DROP/TRUNCATE passed to execute, Redis flushall)",
    programs: [...CODE_RUNNERS, 'rails', 'rake', 'bundle', 'artisan'],
    examples: [
      'python3 -c "from app.db import Base, engine; Base.metadata.drop_all(engine)"',
      'python manage.py shell -c "from django.core.management import call_command; call_command(\'flush\', interactive=False)"',
      "bin/rails runner 'User.delete_all'",
      "rails r 'ActiveRecord::Base.connection.drop_table(:users)'",
      'node -e "require(\'./models\').sequelize.sync({ force: true })"',
      "node -e 'dataSource.dropDatabase()'",
      "python3 -c \"import sqlite3; sqlite3.connect('app.db').execute('DROP TABLE users')\"",
      'node -e "prisma.$executeRawUnsafe(\'TRUNCATE TABLE orders CASCADE\')"',
      "python3 -c 'import redis; redis.Redis().flushall()'",
    ],
    // (Reading, `Base.metadata.create_all(engine)`, `User.where(active: false).count`, `sequelize.sync()`, stays quiet.)
    match: (v) => databaseCode(v).some((code) => ORM_WIPE.test(code) || DESTRUCTIVE_SQL.test(code)),
  },
];

/** ORM and driver calls that drop or empty tables or a whole database. */
const ORM_WIPE =
  /\b(?:drop_all|drop_table|drop_tables|drop_database|drop_collection|truncate_tables|dropTableIfExists|dropSchemaIfExists|dropCollection|purge_current_database|destroy_all|delete_all|dropAllTables|dropAllSchemas|dropTable|dropDatabase|dropSchema|flushall|flushdb|flushAll|flushDb)\s*[(!]|\bdestroy_all\b|\bdelete_all\b|\bdrop_table\b|call_command\s*\(\s*["'](?:flush|reset_db|sqlflush)["']|\.objects\s*\.\s*all\s*\(\s*\)\s*\.\s*delete\s*\(|\bdeleteMany\s*\(\s*\)|\bsync\s*\(\s*\{[^}]*\bforce\s*:\s*true|\bsynchronize\s*\(\s*true\s*\)|\btruncate\s*\(\s*\{\s*(?:cascade|where\s*:\s*\{\s*\})|\.__table__\s*\.\s*drop\s*\(|\bSchema::drop(?:IfExists)?\s*\(|::truncate\s*\(\s*\)|->truncate\s*\(\s*\)|\bDB::table\s*\([^)]*\)\s*->\s*delete\s*\(\s*\)|::query\s*\(\s*\)\s*->\s*delete\s*\(\s*\)|::all\s*\(\s*\)\s*->\s*each->delete\s*\(|\(\s*["'][\w.]+["']\s*\)\s*\.\s*(?:del|delete|truncate)\s*\(\s*\)|\bdestroy\s*\(\s*\{[^}]*(?:truncate\s*:\s*true|where\s*:\s*\{\s*\})|\bdelete_many\s*\(\s*\{\s*\}\s*\)|\bquery\s*\(\s*[\w.]+\s*\)\s*\.\s*delete\s*\(|\.query\s*\.\s*delete\s*\(|(?:getRepository\s*\([^)]*\)|[rR]epo(?:sitory)?)\s*\.\s*clear\s*\(\s*\)|(?:\b(?:scan_iter|scanIterator|scanStream)\s*\(|\.keys\s*\(\s*["'`])[\s\S]{0,300}?\b(?:delete|del|unlink)\s*\(|\b(?:delete|del|unlink)\s*\([^;\n]{0,200}?(?:\b(?:scan_iter|scanIterator)\s*\(|\.keys\s*\(\s*["'`])/;

/** Code a command runs: an interpreter's inline code, `rails runner CODE`, `manage.py shell -c CODE`. */
function databaseCode(v: CommandView): string[] {
  const codes = inlineCode(v).map((c) => c.code);
  const words = v.args.filter((a) => !a.startsWith('-'));
  if (/^(rails|rake)$/.test(v.program) || (v.program === 'bundle' && words[0] === 'exec')) {
    const at = v.args.findIndex((a) => a === 'runner' || a === 'r');
    if (at >= 0 && v.args[at + 1] !== undefined) codes.push(v.args[at + 1]!);
  }
  if (/^python\d*(\.\d+)?$/.test(v.program) && /manage\.py$/.test(words[0] ?? '') && words[1] === 'shell') {
    const code = optionValue(v.args, ['-c', '--command']);
    if (code !== undefined) codes.push(code);
  }
  // Laravel's `php artisan tinker --execute=CODE`, and code fed to a console on stdin (`echo 'User.delete_all' |
  // rails c`, `manage.py shell <<< …`, `… | php artisan tinker`).
  const framework = frameworkCommand(v);
  const console_ =
    (framework.program === 'artisan' && framework.args[0] === 'tinker') ||
    (framework.program === 'manage.py' && framework.args[0] === 'shell') ||
    (/^(rails|rake)$/.test(v.program) && /^(c|console)$/.test(words[0] ?? '')) ||
    (v.program === 'bundle' &&
      words[0] === 'exec' &&
      /^(rails|bin\/rails)$/.test(words[1] ?? '') &&
      /^(c|console)$/.test(words[2] ?? ''));
  if (console_) {
    const code = optionValue(v.args, ['--execute']);
    if (code !== undefined) codes.push(code);
    if (v.stdin?.text) codes.push(v.stdin.text);
  }
  return codes;
}
