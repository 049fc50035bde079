// Publishing a package or an image to a registry others fetch from: a published version cannot be taken back.
//
// One entry per publishing tool in PUBLISHERS: adding a tool is one line here plus its example, which the catalogue
// test runs (test/engine/shell-catalog.test.ts). A dry run, and a registry on this machine, are not publishing.
import type { DangerEntry } from './danger-entry.ts';
import type { CommandView } from '../shell/view.ts';

/** One publishing tool: its program names, and which of its command lines publish (`words`: its non-option words). */
export interface Publisher {
  programs: readonly string[];
  publishes(words: readonly string[], args: readonly string[]): boolean;
  example: string;
}

/** A git remote a push to which deploys (Heroku's and Dokku's git deploys, a remote named for production). */
const DEPLOY_REMOTE = /^(heroku|dokku|production|prod|live)$/;

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
export const PUBLISHERS: readonly Publisher[] = [
  { programs: ['npm', 'pnpm', 'bun'], publishes: first('publish'), example: 'npm publish' },
  { programs: ['yarn'], publishes: (w) => w[0] === 'publish' || (w[0] === 'npm' && w[1] === 'publish'), example: 'yarn npm publish' },
  { programs: ['cargo', 'poetry', 'uv', 'flit', 'hatch', 'pdm', 'rye', 'maturin', 'deno', 'jsr', 'vsce', 'ovsx'], publishes: first('publish'), example: 'cargo publish' },
  { programs: ['twine'], publishes: first('upload'), example: 'twine upload dist/*' },
  { programs: ['gem'], publishes: first('push'), example: 'gem push x-1.0.gem' },
  { programs: ['nuget'], publishes: first('push'), example: 'nuget push x.nupkg -Source https://api.nuget.org/v3/index.json' },
  { programs: ['dotnet'], publishes: pair('nuget', 'push'), example: 'dotnet nuget push x.nupkg --api-key k' },
  { programs: ['mvn', 'mvnw'], publishes: (w) => w.includes('deploy') || w.some((x) => /^(deploy|release):(deploy|perform)$/.test(x)), example: 'mvn -B deploy' },
  { programs: ['gradle', 'gradlew'], publishes: (w) => w.some((x) => /^(:?[\w-]+:)*publish(\w*)$/.test(x) && !/publishToMavenLocal$/.test(x)), example: './gradlew publish' },
  { programs: ['sbt'], publishes: (w) => w.some((x) => /^(publish|publishSigned|\+publish|\+publishSigned|sonatypeRelease|sonatypeBundleRelease)$/.test(x)), example: 'sbt publishSigned' },
  { programs: ['lein'], publishes: first('deploy'), example: 'lein deploy clojars' },
  { programs: ['docker', 'podman', 'nerdctl', 'buildah'], publishes: (w) => w[0] === 'push' || (w[0] === 'image' && w[1] === 'push') || (w[0] === 'manifest' && w[1] === 'push'), example: 'docker push ghcr.io/acme/api:latest' },
  { programs: ['helm'], publishes: first('push'), example: 'helm push chart-1.0.tgz oci://ghcr.io/acme/charts' },
  { programs: ['crane', 'oras'], publishes: first('push'), example: 'oras push ghcr.io/acme/x:1 a.txt' },
  { programs: ['skopeo'], publishes: (w) => w[0] === 'copy' && /^docker:\/\//.test(w[2] ?? ''), example: 'skopeo copy oci:img docker://ghcr.io/acme/img:1' },
  { programs: ['mix'], publishes: first('hex.publish'), example: 'mix hex.publish' },
  { programs: ['dart', 'flutter'], publishes: pair('pub', 'publish'), example: 'dart pub publish --force' },
  { programs: ['pod'], publishes: pair('trunk', 'push'), example: 'pod trunk push X.podspec' },
  { programs: ['anaconda'], publishes: first('upload'), example: 'anaconda upload pkg.tar.bz2' },
  { programs: ['goreleaser'], publishes: (w, a) => (w[0] === 'release' || w.length === 0) && !a.includes('--snapshot') && !a.includes('--skip=publish'), example: 'goreleaser release --clean' },
  { programs: ['swift'], publishes: pair('package-registry', 'publish'), example: 'swift package-registry publish acme.x 1.0.0' },
  // Round 2 of issue 26: release tools, a module run by python, compose, and deploys to production.
  { programs: ['python', 'python3', 'py'], publishes: (_, a) => a[a.indexOf('-m') + 1] === 'twine' && a.includes('upload'), example: 'python -m twine upload --repository pypi dist/*' },
  { programs: ['rake'], publishes: (w) => w.some((x) => /^release(\[.*\])?$|^release:rubygem_push$/.test(x)), example: 'bundle exec rake release' },
  { programs: ['docker', 'podman'], publishes: pair('compose', 'push'), example: 'docker compose push' },
  { programs: ['docker-compose', 'podman-compose'], publishes: first('push'), example: 'docker-compose push api' },
  { programs: ['gh'], publishes: (w, a) => w[0] === 'release' && (w[1] === 'create' || w[1] === 'upload') && !a.includes('--draft') && !a.includes('-d'), example: 'gh release create v1.2.0 dist/* --notes "Release"' },
  { programs: ['lerna'], publishes: first('publish'), example: 'npx lerna publish from-git --yes' },
  { programs: ['semantic-release'], publishes: (_, a) => !a.includes('-d') && !a.includes('--help'), example: 'npx semantic-release' },
  { programs: ['changeset', 'changesets'], publishes: first('publish'), example: 'npx changeset publish' },
  { programs: ['release-it'], publishes: (_, a) => !a.includes('-d') && !a.includes('--help') && !a.includes('--only-version'), example: 'npx release-it --ci' },
  // (`vercel build --prod`, `vercel pull --prod`: production's build made, or its settings fetched, here; nothing deployed.)
  { programs: ['vercel', 'vc'], publishes: (w, a) => (a.some((x) => /^--prod(uction)?$/.test(x)) && !/^(build|pull|dev|env|inspect|logs|ls|list)$/.test(w[0] ?? '')) || w[0] === 'promote', example: 'vercel deploy --prod' },
  { programs: ['netlify'], publishes: (w, a) => w[0] === 'deploy' && a.some((x) => /^--prod(-if-unlocked)?$/.test(x)), example: 'netlify deploy --prod --dir dist' },
  { programs: ['firebase'], publishes: first('deploy'), example: 'firebase deploy --only hosting' },
  // (`fly deploy --build-only` builds the image and stops; with `--push` it goes to the registry.)
  { programs: ['fly', 'flyctl'], publishes: (w, a) => w[0] === 'deploy' && !(a.some((x) => /^--build-only(=true)?$/.test(x)) && !a.some((x) => /^--push(=true)?$/.test(x))), example: 'fly deploy' },
  { programs: ['railway'], publishes: first('up'), example: 'railway up' },
  { programs: ['wrangler'], publishes: first('deploy', 'publish'), example: 'wrangler deploy' },
  { programs: ['docker', 'podman'], publishes: (w, a) => (w[0] === 'build' || (w[0] === 'buildx' && w[1] === 'build') || (w[0] === 'buildx' && w[1] === 'bake')) && a.some((x) => x === '--push' || /^--output=.*type=registry/.test(x)), example: 'docker buildx build --push -t ghcr.io/acme/api:1 .' },
  { programs: ['heroku'], publishes: (w) => /^container:(push|release)$/.test(w[0] ?? '') || w[0] === 'releases:rollback', example: 'heroku container:release web' },
  { programs: ['gcloud'], publishes: (w) => (w[0] === 'app' && w[1] === 'deploy') || ((w[0] === 'run' || w[0] === 'functions') && w[1] === 'deploy'), example: 'gcloud run deploy api --source .' },
  { programs: ['serverless', 'sls', 'eb', 'kamal'], publishes: first('deploy'), example: 'serverless deploy --stage prod' },
  { programs: ['cap'], publishes: (w) => w.includes('deploy') && w.some((x) => /^(prod|production|live)$/.test(x)), example: 'cap production deploy' },
  // Issue 28: changing what a registry serves for versions already out — deprecating, yanking, retagging, owners, access.
  { programs: ['npm', 'pnpm'], publishes: (w) => w[0] === 'deprecate' || w[0] === 'undeprecate' || (/^(dist-tag|dist-tags)$/.test(w[0] ?? '') && /^(add|rm)$/.test(w[1] ?? '')) || (w[0] === 'owner' && /^(add|rm)$/.test(w[1] ?? '')) || (w[0] === 'access' && /^(set|grant|revoke|public|restricted)$/.test(w[1] ?? '')), example: 'npm deprecate acme-sdk@"<2" "use 2.x"' },
  { programs: ['yarn'], publishes: (w) => w[0] === 'npm' && w[1] === 'tag' && /^(add|remove)$/.test(w[2] ?? ''), example: 'yarn npm tag add acme-sdk@1.2.0 latest' },
  { programs: ['cargo'], publishes: (w, a) => w[0] === 'yank' || (w[0] === 'owner' && a.some((x) => /^(-a|--add|-r|--remove)(=|$)/.test(x))), example: 'cargo yank --version 0.3.1' },
  { programs: ['gem'], publishes: (w, a) => w[0] === 'yank' || (w[0] === 'owner' && a.some((x) => /^(-a|--add|-r|--remove)(=|$)/.test(x))), example: 'gem yank acme -v 1.0.0' },
  { programs: ['nuget'], publishes: first('delete'), example: 'nuget delete Acme.Sdk 1.0.0 -Source https://api.nuget.org/v3/index.json' },
  { programs: ['dotnet'], publishes: pair('nuget', 'delete'), example: 'dotnet nuget delete Acme.Sdk 1.0.0 --api-key k' },
  { programs: ['mix'], publishes: (w, a) => w[0] === 'hex.retire' || (w[0] === 'hex.publish' && a.includes('--revert')) || (w[0] === 'hex.owner' && /^(add|remove|transfer)$/.test(w[1] ?? '')), example: 'mix hex.retire acme 1.0.0 security' },
  { programs: ['vsce', 'ovsx'], publishes: first('unpublish'), example: 'vsce unpublish acme.ext' },
  { programs: ['np'], publishes: (_, a) => !a.includes('--preview') && !a.includes('--help'), example: 'npx np 1.2.0' },
  { programs: ['nx'], publishes: (w, a) => w[0] === 'release' && (w[1] === 'publish' || (w[1] === undefined && !a.includes('--skip-publish'))), example: 'npx nx release publish' },
  { programs: ['ko'], publishes: (w, a) => /^(build|publish|resolve|apply)$/.test(w[0] ?? '') && !a.some((x) => /^(--local|-L|--push=false)$/.test(x)), example: 'ko build ./cmd/api' },
  { programs: ['mvn', 'mvnw', 'gradle', 'gradlew'], publishes: (w) => w.some((x) => /^(jib:build|jib)$/.test(x)), example: 'mvn compile jib:build' },
  { programs: ['cargo'], publishes: (w, a) => w[0] === 'release' && (a.includes('--execute') || a.includes('-x')), example: 'cargo release minor --execute' },
  { programs: ['helm'], publishes: first('cm-push'), example: 'helm cm-push chart/ chartmuseum' },
  { programs: ['cabal', 'stack'], publishes: first('upload'), example: 'cabal upload --publish dist/acme-1.0.tar.gz' },
  { programs: ['conan'], publishes: first('upload'), example: 'conan upload acme/1.0 -r conancenter' },
  { programs: ['choco', 'luarocks', 'opam', 'nimble', 'snapcraft'], publishes: first('push', 'upload', 'publish', 'release'), example: 'snapcraft upload --release=stable acme.snap' },
  { programs: ['python', 'python3'], publishes: (w) => w[0] === 'setup.py' && w.includes('upload'), example: 'python setup.py sdist upload' },
  // Issue 26 round 6: fastlane's store uploads and the lanes named for a release (`fastlane ios release`, `fastlane beta`).
  { programs: ['fastlane'], publishes: fastlaneReleases, example: 'bundle exec fastlane ios release' },
  { programs: ['eas', 'eas-cli'], publishes: first('submit', 'update'), example: 'eas submit -p ios --latest' },
  { programs: ['expo', 'exp'], publishes: first('publish'), example: 'npx expo publish' },
  { programs: ['appcenter'], publishes: (w) => (w[0] === 'codepush' && /^release/.test(w[1] ?? '')) || (w[0] === 'distribute' && w[1] === 'release'), example: 'appcenter codepush release-react -a acme/app -d Production' },
  { programs: ['code-push'], publishes: (w) => /^release/.test(w[0] ?? '') || w[0] === 'promote', example: 'code-push release-react acme-ios ios' },
  { programs: ['xcrun'], publishes: (w, a) => w[0] === 'altool' && a.some((x) => /^--upload-(app|package)$/.test(x)), example: 'xcrun altool --upload-app -f app.ipa -t ios' },
  { programs: ['firebase'], publishes: first('appdistribution:distribute'), example: 'firebase appdistribution:distribute app.apk --app 1:123:android:abc' },
  { programs: ['render'], publishes: (w) => (w[0] === 'deploys' && w[1] === 'create') || w[0] === 'deploy', example: 'render deploys create srv-abc123' },
  { programs: ['caprover'], publishes: first('deploy'), example: 'caprover deploy -a api' },
  { programs: ['railway'], publishes: first('redeploy'), example: 'railway redeploy' },
  { programs: ['heroku'], publishes: first('builds:create'), example: 'heroku builds:create -a acme-prod' },
  { programs: ['netlify-cli'], publishes: (w, a) => w[0] === 'deploy' && a.some((x) => /^--prod(-if-unlocked)?$/.test(x)), example: 'npx netlify-cli deploy --prod' },
  { programs: ['pm2'], publishes: first('deploy'), example: 'pm2 deploy ecosystem.config.js production' },
  { programs: ['dokku'], publishes: (w) => DOKKU_CHANGE.test(w[0] ?? ''), example: 'dokku ps:rebuild api' },
  { programs: ['ssh'], publishes: (w) => { const at = w.findIndex((x) => /^dokku@/.test(x)); return at >= 0 && DOKKU_CHANGE.test(w[at + 1] ?? ''); }, example: 'ssh dokku@apps.acme.com ps:rebuild api' },
  { programs: ['surge'], publishes: (w, a) => !/^(list|login|logout|whoami|token|plus|ssl|--help)$/.test(w[0] ?? '') && !a.includes('--help'), example: 'surge ./dist acme.surge.sh' },
  { programs: ['shopify'], publishes: (w, a) => (w[0] === 'app' && /^(deploy|release)$/.test(w[1] ?? '')) || (w[0] === 'theme' && (w[1] === 'publish' || (w[1] === 'push' && a.some((x) => /^(--live|-l|--publish|-p)$/.test(x))))), example: 'shopify theme push --live' },
  { programs: ['sst'], publishes: first('deploy'), example: 'npx sst deploy --stage production' },
  { programs: ['zappa'], publishes: first('deploy', 'update', 'rollback'), example: 'zappa update production' },
  { programs: ['git'], publishes: (w) => w[w.indexOf('push') + 1] !== undefined && w.includes('push') && DEPLOY_REMOTE.test(w[w.indexOf('push') + 1]!), example: 'git push heroku main' },
];

/**
 * fastlane: an action that uploads to a store or a tester service (`deliver`, `supply`, `pilot upload`,
 * `upload_to_testflight`, `firebase_app_distribution`), or a lane named for a release (`ios release`, `beta`,
 * `deploy`, `appstore`, `playstore`, `production`). `test`, `scan`, `gym`, `build`, `match`, `lanes` and
 * `pilot list` stay quiet. Words after the lane are `key:value` options.
 */
function fastlaneReleases(words: readonly string[]): boolean {
  const ws = words.filter((w) => !w.includes(':'));
  const [lane, sub] = /^(ios|android|mac)$/.test(ws[0] ?? '') ? [ws[1], ws[2]] : [ws[0], ws[1]];
  const action = lane === 'run' ? sub : lane;
  if (action === undefined) return false;
  if (action === 'pilot') return /^(upload|distribute)$/.test(sub ?? '');
  return FASTLANE_RELEASE.test(action);
}
/** dokku's commands that rebuild, restart, deploy or reconfigure an app (`ps:rebuild`, `git:sync --build`, `config:set`). */
const DOKKU_CHANGE =
  /^(ps:(rebuild|restart|stop|start|scale|restore)|deploy|git:(sync|from-image|from-archive)|tags:deploy|config:(set|unset|clear)|apps:(destroy|rename))$/;
const FASTLANE_RELEASE =
  /^(deliver|supply|upload_to_(app_store|testflight|play_store(_internal_app_sharing)?)|appstore|testflight|firebase_app_distribution|appcenter_upload|app_center_upload|hockey|crashlytics|release|deploy|beta|alpha|promote|publish|submit|ship|store|appstore_release|playstore|play_store|production|prod|internal|(\w+_)?(deploy|beta|upload|publish|submit|promote)(_\w+)?|release_\w+)$/;

const BY_PROGRAM = new Map<string, Publisher[]>();
for (const p of PUBLISHERS) for (const name of p.programs) BY_PROGRAM.set(name, [...(BY_PROGRAM.get(name) ?? []), p]);

export const PUBLISH_DANGERS: DangerEntry[] = [
  {
    id: 'publish-package',
    risk: 'high',
    reason:
      'publishes a package, an image or a release where others fetch it at once, changes what a registry serves for published versions (deprecate, yank, retag, owners), or deploys to production (a published package version cannot be taken back or reused)',
    programs: [...BY_PROGRAM.keys()],
    examples: [
      ...PUBLISHERS.map((p) => p.example),
      'pnpm publish --access public',
      'npm dist-tag add acme-sdk@1.2.0 latest',
      'cargo owner --add github:acme:core',
      'poetry publish --build',
      'vercel --prod',
      'netlify deploy --prod',
      'semantic-release',
      'gh release create v1 --notes x',
      'git push dokku main',
    ],
    match: publishes,
  },
];

/** A publish by a tool of the table; a dry run, or one to a registry on this machine, is not. */
function publishes(v: CommandView): boolean {
  if (v.args.some((a) => a === '--dry-run' || a === '--help' || a === '--dryrun')) return false;
  const words = v.args.filter((a) => !a.startsWith('-'));
  if (!(BY_PROGRAM.get(v.program) ?? []).some((p) => p.publishes(words, v.args))) return false;
  return !(
    v.args.some((a) => LOCAL_REGISTRY.test(a)) &&
    !v.args.some((a) => /^(?:--[\w-]+=)?(?:https?|oci):\/\//.test(a) && !LOCAL_REGISTRY.test(a))
  );
}

/**
 * A registry on this machine (kind's or microk8s's `localhost:5000`, verdaccio on `localhost:4873`): an image tag or a
 * `--registry`/`--repository-url`/`--index` value naming it. Nobody else fetches from there.
 */
const LOCAL_REGISTRY =
  /^(?:--(?:registry|repository-url|index)=)?(?:(?:https?|oci|docker):\/\/)?(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?(?:\/|$)/;
