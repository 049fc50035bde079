// An application's own secrets printed through its framework (issue 26, round 6): `php artisan tinker
// --execute="echo config('app.key');"`, `python manage.py shell -c 'print(settings.SECRET_KEY)'`, `php artisan
// config:show database`, `python manage.py diffsettings`. The framework reads them from the project's `.env` or
// settings and prints the key that signs its sessions or the database password: an entry of SECRET_PRINTERS.
// Code that prints anything else (`echo User::count();`, `config('app.name')`) stays allowed.
import type { SecretPrinter } from './secret-printers.ts';
import { dumpsEnvironment } from './environment-dump.ts';
import { optionValue } from './flags.ts';
import { inlineCode } from './inline-code.ts';

/** A configuration key or setting that holds a secret: `app.key`, `database.connections.mysql.password`, `SECRET_KEY`, `DATABASES`. */
const SECRET_SETTING =
  /(^|[._])key$|secret|passw(or)?d|token|api_?key|private|credential|dsn|^(app|database|services|mail|DATABASES|CACHES)$|^database\.connections|^services\./i;

/** PHP printing `config('…')` or `env('…')`: group 1 is the key. */
const PHP_PRINTED_SETTING =
  /\b(?:echo|print|dump|dd|var_dump|print_r|var_export|json_encode)\b\s*\(?[^;\n]{0,40}?\b(?:config|env)\s*\(\s*["']([^"']+)["']/g;
/** PHP printing the whole configuration: `config()->all()`, `dd(config())`. */
const PHP_WHOLE_CONFIG = /\bconfig\s*\(\s*\)\s*(?:->\s*all\s*\(\s*\)|\))/;
/** Python printing `settings.X` or `app.config['X']`: group 1 or 2 is the name. */
const PYTHON_PRINTED_SETTING =
  /\b(?:print|pprint|pp)\s*\([^;\n]{0,80}?(?:\bsettings\s*\.\s*(\w+)|\bconfig\s*\[\s*["'](\w+)["'])/g;
/** One field of a database's settings that is no secret: `settings.DATABASES['default']['NAME']`. */
const PLAIN_DATABASE_FIELD = /^\s*\[\s*["']\w+["']\s*\]\s*\[\s*["'](NAME|HOST|PORT|ENGINE|USER)["']\s*\]/;
/** Laravel's configuration sections that hold secrets, shown whole by `config:show`. */
const SECRET_SECTIONS = /^(app|database|services|mail|queue|cache|broadcasting|filesystems|session|reverb|scout)$/;

/** The framework script a command runs and its arguments: `php artisan …`, `python manage.py …`, `./manage.py …`. */
function frameworkArgs(program: string, args: readonly string[]): { script: string; args: readonly string[] } {
  if (/^(php|python)[\d.]*$/.test(program)) {
    const at = args.findIndex((a) => !a.startsWith('-'));
    if (at < 0) return { script: '', args: [] };
    return { script: args[at]!.split('/').at(-1)!, args: args.slice(at + 1) };
  }
  return { script: program, args };
}

/** Whether code printed by a framework's shell prints a secret setting (or the whole environment). */
function printsSecretSetting(code: string, language: 'php' | 'python'): boolean {
  if (dumpsEnvironment({ language, code, outside: code }, false)) return true;
  if (language === 'php')
    return (
      PHP_WHOLE_CONFIG.test(code) || [...code.matchAll(PHP_PRINTED_SETTING)].some((m) => SECRET_SETTING.test(m[1]!))
    );
  return [...code.matchAll(PYTHON_PRINTED_SETTING)].some(
    (m) => SECRET_SETTING.test(m[1] ?? m[2]!) && !PLAIN_DATABASE_FIELD.test(code.slice(m.index + m[0].length)),
  );
}

// prettier-ignore
export const FRAMEWORK_SECRETS: readonly SecretPrinter[] = [
  {
    id: 'framework-secret-print', programs: ['php', 'artisan', 'python', 'python3', 'manage.py', 'django-admin'],
    reason: "prints an application's secret through its framework (its app key, a database password, SECRET_KEY, the whole settings): php artisan tinker, config:show, manage.py shell -c, diffsettings",
    prints: (_, __, v) => {
      const { script, args } = frameworkArgs(v.program, v.args);
      const [command, section] = args.filter((a) => !a.startsWith('-'));
      if (script === 'artisan') {
        if (command === 'config:show') return section !== undefined && (SECRET_SECTIONS.test(section) || SECRET_SETTING.test(section));
        const code = command === 'tinker' ? optionValue([...args], ['--execute']) : undefined;
        return code !== undefined && printsSecretSetting(code, 'php');
      }
      // (`python3 -c "print(create_app().config['SECRET_KEY'])"`: a setting printed by inline code, outside a framework's shell.)
      if (/^python/.test(v.program) && inlineCode(v).some((c) => printsSecretSetting(c.code, 'python'))) return true;
      if (script !== 'manage.py' && script !== 'django-admin') return false;
      if (command === 'diffsettings') return true;
      const code = command === 'shell' ? optionValue([...args], ['-c', '--command']) : undefined;
      return code !== undefined && printsSecretSetting(code, 'python');
    },
    examples: ['php artisan tinker --execute="echo config(\'app.key\');"', 'php artisan tinker --execute="dump(config(\'database.connections.mysql.password\'))"', 'php artisan tinker --execute \'echo env("DB_PASSWORD");\'', 'php artisan tinker --execute="dd(config()->all())"', 'php artisan config:show app', 'php artisan config:show database', 'python manage.py shell -c \'from django.conf import settings; print(settings.SECRET_KEY)\'', 'python3 manage.py shell -c "from django.conf import settings; print(settings.DATABASES)"', './manage.py shell --command "import os; print(dict(os.environ))"', 'python manage.py diffsettings', 'django-admin diffsettings --all', 'python3 -c "from app import create_app; print(create_app().config[\'SECRET_KEY\'])"'],
    controls: ['php artisan tinker --execute="echo User::count();"', 'php artisan tinker --execute="echo config(\'app.name\');"', 'php artisan config:show app.name', 'php artisan config:show logging', 'php artisan about', 'php artisan key:generate --show', 'python manage.py shell -c "from app.models import User; print(User.objects.count())"', 'python manage.py shell -c "from django.conf import settings; print(settings.DEBUG)"', 'python manage.py check', 'python manage.py shell -c "from django.conf import settings; print(settings.DATABASES[\'default\'][\'NAME\'])"', 'python manage.py migrate', 'python3 -c "from app import create_app; print(create_app().config[\'DEBUG\'])"'],
  },
];
