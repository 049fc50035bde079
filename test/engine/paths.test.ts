// Path helpers: the string shortcuts for normal paths answer exactly what node:path's resolve and relative answer.
import assert from 'node:assert/strict';
import { isAbsolute, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { absolutePath, expandHome, relativeTo, relativeToDir } from '../../src/engine/paths.ts';
import { seededInts } from '../support/random.ts';

const HOME = '/home/tester';

/** The definitions the helpers had before their shortcuts: node:path all the way. */
function referenceAbsolute(path: string, home: string, cwd?: string): string {
  const expanded = expandHome(path, home);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd ? expandHome(cwd, home) : home, expanded);
}
function referenceRelative(abs: string, cwd: string | undefined, home: string): string | undefined {
  if (!cwd) return undefined;
  const rel = relative(referenceAbsolute(cwd, home), abs);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? undefined : rel;
}

describe('absolutePath', () => {
  const cases: [path: string, cwd: string | undefined, expected: string][] = [
    ['/srv/app/src/a.ts', '/srv/app', '/srv/app/src/a.ts'],
    ['src/a.ts', '/srv/app', '/srv/app/src/a.ts'],
    ['a.ts', '/', '/a.ts'],
    ['src/a.ts', undefined, `${HOME}/src/a.ts`],
    ['src/a.ts', '~/proj', `${HOME}/proj/src/a.ts`],
    ['~/.ssh/id_rsa', '/srv/app', `${HOME}/.ssh/id_rsa`],
    ['$HOME/.aws', '/srv/app', `${HOME}/.aws`],
    ['../other/a.ts', '/srv/app', '/srv/other/a.ts'],
    ['./a.ts', '/srv/app', '/srv/app/a.ts'],
    ['src//a.ts', '/srv/app', '/srv/app/src/a.ts'],
    ['src/', '/srv/app', '/srv/app/src'],
    ['/srv/app/../../etc/passwd', '/srv/app', '/etc/passwd'],
    ['/srv/app/.', undefined, '/srv/app'],
    ['//srv//app/', undefined, '/srv/app'],
    ['/', '/srv/app', '/'],
    ['a.ts', '/srv/app/', '/srv/app/a.ts'],
    ['a.ts', '/srv/./app', '/srv/app/a.ts'],
    ['.hidden/..x', '/srv/app', '/srv/app/.hidden/..x'],
  ];
  for (const [path, cwd, expected] of cases) {
    it(`${path} in ${cwd ?? '(no cwd)'} is ${expected}`, () => assert.equal(absolutePath(path, HOME, cwd), expected));
  }
});

describe('relativeTo', () => {
  const cases: [abs: string, cwd: string | undefined, expected: string | undefined][] = [
    ['/srv/app/src/a.ts', '/srv/app', 'src/a.ts'],
    ['/srv/app', '/srv/app', '.'],
    ['/srv/app', '/srv/app/', '.'],
    ['/srv/application/a.ts', '/srv/app', undefined],
    ['/srv/a.ts', '/srv/app', undefined],
    ['/srv', '/srv/app', undefined],
    ['/srv/app/..x/a.ts', '/srv/app', undefined],
    ['/etc/passwd', '/', 'etc/passwd'],
    ['/srv/app/a.ts', undefined, undefined],
    ['/srv/app/a.ts', '', undefined],
    [`${HOME}/proj/a.ts`, '~/proj', 'a.ts'],
  ];
  for (const [abs, cwd, expected] of cases) {
    it(`${abs} from ${cwd ?? '(no cwd)'} is ${expected ?? 'outside'}`, () =>
      assert.equal(relativeTo(abs, cwd, HOME), expected));
  }

  it('relativeToDir falls back to node:path for a directory that is not normal', () => {
    assert.equal(relativeToDir('/srv/app/a.ts', '/srv/./app'), 'a.ts');
    assert.equal(relativeToDir('/srv/app/a.ts', '/srv/app/'), 'a.ts');
  });
});

describe('the shortcuts agree with node:path', () => {
  it('on 100,000 generated paths, cwds and homes', () => {
    const parts = ['', '.', '..', 'a', 'b', '..x', '.h', '~', '$HOME', '${HOME}', 'proj', 'x y'];
    const pick = seededInts(7);
    const generate = (): string => {
      const segs = Array.from({ length: pick(5) }, () => parts[pick(parts.length)]!);
      return (pick(3) === 0 ? '' : '/') + segs.join('/') + (pick(5) === 0 ? '/' : '');
    };
    for (let i = 0; i < 100_000; i++) {
      const path = generate();
      const cwd = pick(4) === 0 ? undefined : generate();
      const home = ['/home/tester', '/', '/home/tester/'][pick(3)]!;
      const abs = absolutePath(path, home, cwd);
      assert.equal(abs, referenceAbsolute(path, home, cwd), JSON.stringify({ path, cwd, home }));
      assert.equal(relativeTo(abs, cwd, home), referenceRelative(abs, cwd, home), JSON.stringify({ path, cwd, home }));
    }
  });
});
