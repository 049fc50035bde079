// Publishing a package or an image to a registry others fetch from: a published version cannot be taken back.
import type { DangerEntry } from './danger-entry.ts';
import type { CommandView } from '../shell/view.ts';

export const PUBLISH_DANGERS: DangerEntry[] = [
  {
    id: 'publish-package', risk: 'high', reason: 'publishes a package or an image to a registry, where others fetch it at once (a published package version cannot be taken back or reused)',
    programs: ['npm', 'pnpm', 'yarn', 'bun', 'cargo', 'poetry', 'uv', 'flit', 'hatch', 'pdm', 'twine', 'gem', 'nuget', 'dotnet', 'mvn', 'mvnw', 'gradle', 'gradlew', 'docker', 'podman', 'nerdctl'],
    examples: ['npm publish', 'pnpm publish --access public', 'yarn npm publish', 'cargo publish', 'twine upload dist/*', 'poetry publish --build', 'gem push x-1.0.gem', 'docker push ghcr.io/acme/api:latest', './gradlew publish', 'mvn -B deploy'],
    match: publishes,
  },
];

/** Publishing a package or an image: npm/pnpm/yarn/bun publish, cargo publish, twine upload, gem push, docker push, …; a dry run is not. */
function publishes(v: CommandView): boolean {
  const words = v.args.filter((a) => !a.startsWith('-'));
  if (v.args.includes('--dry-run')) return false;
  return publishCommand(v, words) && !(v.args.some((a) => LOCAL_REGISTRY.test(a)) && !v.args.some((a) => /^(?:--[\w-]+=)?https?:\/\//.test(a) && !LOCAL_REGISTRY.test(a)));
}

/** The command is a publish (to wherever its registry is). */
function publishCommand(v: CommandView, words: string[]): boolean {
  switch (v.program) {
    case 'npm': case 'pnpm': case 'bun': return words[0] === 'publish';
    case 'yarn': return words[0] === 'publish' || (words[0] === 'npm' && words[1] === 'publish');
    case 'cargo': case 'poetry': case 'uv': case 'flit': case 'hatch': case 'pdm': return words[0] === 'publish';
    case 'twine': return words[0] === 'upload';
    case 'gem': return words[0] === 'push';
    case 'nuget': return words[0] === 'push';
    case 'dotnet': return words[0] === 'nuget' && words[1] === 'push';
    case 'mvn': case 'mvnw': return words.includes('deploy');
    case 'gradle': case 'gradlew': return words.some((w) => /^publish(\w*)$/.test(w) && !/^publishToMavenLocal$/.test(w));
    case 'docker': case 'podman': case 'nerdctl': return words[0] === 'push' || (words[0] === 'image' && words[1] === 'push');
    default: return false;
  }
}

/**
 * A registry on this machine (kind's or microk8s's `localhost:5000`, verdaccio on `localhost:4873`): an image tag or a
 * `--registry`/`--repository-url`/`--index` value naming it. Nobody else fetches from there.
 */
const LOCAL_REGISTRY = /^(?:--(?:registry|repository-url|index)=)?(?:https?:\/\/)?(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?(?:\/|$)/;
