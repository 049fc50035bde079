// docker-compose.yml as compose reads it, for test/pg/compose.test.ts: its services, its variable interpolation,
// and a service's healthcheck run as docker runs it.
import { spawnSync } from 'node:child_process';

/** The parts of a compose service the test reads. */
export interface Service {
  build?: string | { context: string };
  image?: string;
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: { test: string[]; timeout?: string; retries?: number };
  depends_on?: string[] | Record<string, { condition?: string }>;
  ports?: string[];
  volumes?: string[];
}

/** A service's `environment` map as the container sees it (values are strings). */
export function serviceEnvironment(service: Service): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([k, v]) => [k, v === null ? '' : String(v)]),
  );
}

/**
 * Compose's interpolation (compose-spec, "Interpolation"), applied to every string of the parsed file:
 * `$$` is a `$`; `${VAR}` / `$VAR`; `${VAR:-default}` / `${VAR-default}`; `${VAR:?error}` / `${VAR?error}` refuse
 * the file when VAR is unset (or, with the colon, empty); `${VAR:+alt}` / `${VAR+alt}`.
 */
export function interpolate<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === 'string') return interpolateString(value, env) as T;
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)])) as T;
  return value;
}

function interpolateString(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (
      _all,
      dollar: string | undefined,
      braced: string | undefined,
      op: string | undefined,
      arg: string | undefined,
      bare: string | undefined,
    ) => {
      if (dollar) return '$';
      const name = (braced ?? bare)!;
      const set = env[name] !== undefined;
      const nonEmpty = set && env[name] !== '';
      const present = op?.startsWith(':') ? nonEmpty : set;
      switch (op?.replace(':', '')) {
        case undefined:
          return env[name] ?? '';
        case '-':
          return present ? env[name]! : arg!;
        case '?':
          if (!present) throw new Error(`required variable ${name} is missing a value: ${arg}`);
          return env[name]!;
        case '+':
          return present ? arg! : '';
        default:
          throw new Error(`unsupported interpolation in ${text}`);
      }
    },
  );
}

/** A healthcheck `test` run as docker runs it (CMD: exec; CMD-SHELL: sh -c), its exit status (null: timed out). */
export function runHealthcheck(test: string[], env: NodeJS.ProcessEnv, timeoutMs: number): number | null {
  const [kind, ...rest] = test;
  if (kind !== 'CMD' && kind !== 'CMD-SHELL') throw new Error(`healthcheck ${kind}: not CMD or CMD-SHELL`);
  const [file, args] = kind === 'CMD-SHELL' ? ['/bin/sh', ['-c', rest.join(' ')]] : [rest[0]!, rest.slice(1)];
  return spawnSync(file, args, { env, timeout: timeoutMs, stdio: 'ignore' }).status;
}

/** A compose duration such as `3s`, in milliseconds (compose's default timeout, 30 s, when absent). */
export function durationMs(duration: string | undefined): number {
  if (!duration) return 30_000;
  const match = /^(\d+)s$/.exec(duration);
  if (!match) throw new Error(`duration ${duration}: only whole seconds are read here`);
  return Number(match[1]) * 1000;
}
