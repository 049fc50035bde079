// Danger catalogue, the machine's network, services and packages: interfaces and routes taken down, services and
// app managers stopped, system packages removed.
import type { DangerEntry } from './danger-entry.ts';
import type { CommandView } from '../shell/view.ts';
import { operands, optionValue } from './flags.ts';

/** Whether `word` is an abbreviation of `full`, as ip and nmcli accept them (`ip l s eth0 down`, `nmcli r wifi off`). */
const abbreviates = (word: string | undefined, full: string): boolean =>
  word !== undefined && word !== '' && full.startsWith(word);

/** ip's options before the object that take a value (`ip -n vpn link set eth0 down`). */
const IP_WITH_ARG = ['-n', '-netns', '-b', '-batch', '-f', '-family', '-l', '-loops', '-rc', '-rcvbuf'];
/** nmcli's options that take a value. */
const NMCLI_WITH_ARG = [
  '-f',
  '--fields',
  '-m',
  '--mode',
  '-c',
  '--colors',
  '-e',
  '--escape',
  '-w',
  '--wait',
  '-g',
  '--get-values',
];
/** The default route, as ip and route name it: deleting it cuts off every host outside the local networks. */
const DEFAULT_ROUTE = /^(default|0\.0\.0\.0(\/0)?|::\/0)$/;

/**
 * Taking an interface, its addresses or the default route down: `ip link set eth0 down`, `ip route del default`,
 * `ip route flush`, `ifconfig en0 down`, `ifdown eth0`, `nmcli networking off`, `networksetup -setairportpower en0 off`.
 */
function takesNetworkDown(v: CommandView): boolean {
  switch (v.program) {
    case 'ip': {
      const [object, verb, ...rest] = operands(v.args, IP_WITH_ARG);
      if (abbreviates(object, 'link'))
        return (abbreviates(verb, 'set') && rest.includes('down')) || abbreviates(verb, 'delete');
      if (abbreviates(object, 'route'))
        return abbreviates(verb, 'flush') || (abbreviates(verb, 'delete') && rest.some((w) => DEFAULT_ROUTE.test(w)));
      return abbreviates(object, 'address') && (abbreviates(verb, 'flush') || abbreviates(verb, 'delete'));
    }
    case 'ifconfig':
      return v.args.includes('down');
    case 'ifdown':
      return !v.args.some((a) => a === '-n' || a === '--no-act' || a === '-h' || a === '--help');
    case 'route': {
      const words = v.args.filter((a) => !a.startsWith('-'));
      return (
        words.includes('flush') || (/^(del|delete)$/.test(words[0] ?? '') && words.some((w) => DEFAULT_ROUTE.test(w)))
      );
    }
    case 'nmcli': {
      const words = operands(v.args, NMCLI_WITH_ARG);
      const [object, verb] = words;
      if (abbreviates(object, 'networking')) return verb === 'off';
      if (abbreviates(object, 'radio')) return words.at(-1) === 'off';
      if (abbreviates(object, 'device'))
        return abbreviates(verb, 'disconnect') || abbreviates(verb, 'down') || abbreviates(verb, 'delete');
      return abbreviates(object, 'connection') && (abbreviates(verb, 'down') || abbreviates(verb, 'delete'));
    }
    case 'networksetup':
      return (
        v.args.some((a) => /^-setv[46]off$/i.test(a)) ||
        (v.args.some((a) => /^-set(airportpower|networkserviceenabled)$/i.test(a)) && v.args.at(-1) === 'off')
      );
    default:
      return false;
  }
}

/** Options of the managers below that take a value (docker's `--context`, `kill -s`; nginx's `-s`, apachectl's `-k` are read by name). */
const MANAGER_WITH_ARG = ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level', '-s', '--signal', '-k'];
/** A signal `docker kill` sends that ends the container (`docker kill -s HUP web` only asks it to reload). */
const ENDING_SIGNAL = /^(SIG)?(KILL|TERM|INT|QUIT|9|15|2|3)$/i;

/**
 * Service and process managers besides init's, each with the test of whether a command (its operands, then its
 * arguments) stops, kills or restarts what the manager runs. `pm2 restart`, `nginx -s reload`, `apachectl graceful`
 * reload in place and are not in it.
 */
const STOPS_MANAGED: Record<string, (words: string[], args: string[]) => boolean> = {
  brew: (w) => w[0] === 'services' && /^(stop|restart|kill)$/.test(w[1] ?? ''),
  nginx: (_, a) => /^(stop|quit)$/.test(optionValue(a, ['-s']) ?? ''),
  apachectl: (w, a) => /^(stop|graceful-stop|restart)$/.test(w[0] ?? optionValue(a, ['-k']) ?? ''),
  apache2ctl: (w, a) => STOPS_MANAGED.apachectl!(w, a),
  httpd: (_, a) => /^(stop|graceful-stop|restart)$/.test(optionValue(a, ['-k']) ?? ''),
  // s6 and daemontools: -d down, -D, -x/-X exit, -k kill, -t/-r restart (a cluster may carry the wait flags: `-wd`).
  's6-svc': (_, a) => a.some((x) => /^-[a-zA-Z]*[dDxXktr]/.test(x)),
  svc: (_, a) => a.some((x) => /^-[a-zA-Z]*[dxkt]/.test(x)),
  pm2: (w) => /^(kill|stop|delete|del)$/.test(w[0] ?? ''),
  docker: (w, a) =>
    (w[0] === 'kill' || (w[0] === 'container' && w[1] === 'kill')) &&
    ENDING_SIGNAL.test(optionValue(a, ['-s', '--signal']) ?? 'KILL'),
  podman: (w, a) => STOPS_MANAGED.docker!(w, a),
  nerdctl: (w, a) => STOPS_MANAGED.docker!(w, a),
};

/** `brew services stop x`, `nginx -s stop`, `apachectl stop`, `s6-svc -d /run/service/x`, `pm2 kill`, `docker kill web`. */
function stopsManagedService(v: CommandView): boolean {
  return (
    Object.hasOwn(STOPS_MANAGED, v.program) && STOPS_MANAGED[v.program]!(operands(v.args, MANAGER_WITH_ARG), v.args)
  );
}

/** Options of the package managers below that take a value (`apt-get -o Dpkg::x=y remove`, `conda env remove -n ml`). */
const PACKAGER_WITH_ARG = [
  '-o',
  '--option',
  '-t',
  '--target-release',
  '-c',
  '--config',
  '--config-file',
  '-R',
  '--root',
  '--installroot',
  '-n',
  '--name',
  '-p',
  '--prefix',
];
/** apt's simulation flags: nothing is removed (`apt-get -s remove x`). */
const APT_SIMULATES = /^(-[a-z]*s[a-z]*|--simulate|--dry-run|--just-print|--no-act|--recon)$/;
/** The pacman family's remove operation (`-R`, `-Rns`, `--remove`). */
const pacmanRemoves = (args: string[]): boolean => args.some((a) => /^-[a-zA-Z]*R/.test(a) || a === '--remove');

/**
 * System (or global) package managers, each with the test of whether a command removes packages. pip, gem and cargo
 * are left out: they mostly act on a project's environment, and so does `conda remove pkg` (`--all` drops the environment).
 */
const REMOVES_PACKAGES: Record<string, (words: string[], args: string[]) => boolean> = {
  apt: (w, a) => /^(remove|purge)$/.test(w[0] ?? '') && !a.some((x) => APT_SIMULATES.test(x)),
  'apt-get': (w, a) => REMOVES_PACKAGES.apt!(w, a),
  aptitude: (w, a) => REMOVES_PACKAGES.apt!(w, a),
  dpkg: (_, a) => a.some((x) => /^(-r|-P|--remove|--purge)$/.test(x)),
  rpm: (_, a) => a.some((x) => /^-[a-zA-Z]*e[a-zA-Z]*$/.test(x) || x === '--erase'),
  yum: (w) => /^(remove|erase|rm|autoremove)$/.test(w[0] ?? '') && w.length > 1,
  dnf: (w) => REMOVES_PACKAGES.yum!(w, []),
  microdnf: (w) => REMOVES_PACKAGES.yum!(w, []),
  zypper: (w) => /^(remove|rm)$/.test(w[0] ?? ''),
  pacman: (_, a) => pacmanRemoves(a),
  yay: (_, a) => pacmanRemoves(a),
  paru: (_, a) => pacmanRemoves(a),
  apk: (w) => w[0] === 'del',
  brew: (w) => /^(uninstall|remove|rm)$/.test(w[0] ?? ''),
  snap: (w) => w[0] === 'remove',
  flatpak: (w) => /^(uninstall|remove)$/.test(w[0] ?? ''),
  npm: (w, a) =>
    /^(uninstall|remove|rm|r|un|unlink)$/.test(w[0] ?? '') && a.some((x) => x === '-g' || x === '--global'),
  pnpm: (w, a) => REMOVES_PACKAGES.npm!(w, a),
  yarn: (w) => w[0] === 'global' && w[1] === 'remove',
  conda: (w, a) =>
    (w[0] === 'env' && w[1] === 'remove') || (/^(remove|uninstall)$/.test(w[0] ?? '') && a.includes('--all')),
  mamba: (w, a) => REMOVES_PACKAGES.conda!(w, a),
  micromamba: (w, a) => REMOVES_PACKAGES.conda!(w, a),
};

/** `apt-get remove x`, `dnf remove x`, `pacman -Rns x`, `brew uninstall x`, `npm uninstall -g x`, `conda env remove -n x`, … (`--help` only prints). */
function removesPackages(v: CommandView): boolean {
  if (!Object.hasOwn(REMOVES_PACKAGES, v.program) || v.args.includes('--help')) return false;
  return REMOVES_PACKAGES[v.program]!(operands(v.args, PACKAGER_WITH_ARG), v.args);
}

/** dpkg's `--force-…` overrides that let a removal break what depends on the package (also in a list: `--force-depends,remove-essential`). */
const DPKG_FORCE_PAST_DEPENDENCIES =
  /^--force-([\w-]+,)*(all|depends|remove-essential|remove-protected|remove-reinstreq)(,|$)/;

/** A removal past the dependency checks: `dpkg -r --force-depends`, `rpm -e --nodeps`, `pacman -Rdd`, `apt-get remove --allow-remove-essential`. */
function removesPastDependencies(v: CommandView): boolean {
  if (!removesPackages(v)) return false;
  switch (v.program) {
    case 'dpkg':
      return v.args.some((a) => DPKG_FORCE_PAST_DEPENDENCIES.test(a));
    case 'rpm':
      return v.args.includes('--nodeps');
    case 'pacman':
    case 'yay':
    case 'paru':
      return v.args.some((a) => /^-[a-zA-Z]*R[a-zA-Z]*d|^-[a-zA-Z]*d[a-zA-Z]*R/.test(a) || a === '--nodeps');
    case 'apt':
    case 'apt-get':
    case 'aptitude':
      return v.args.includes('--allow-remove-essential');
    default:
      return false;
  }
}

export const MACHINE_DANGERS: DangerEntry[] = [
  {
    id: 'network-down',
    risk: 'medium',
    reason:
      'takes a network interface (or its addresses) or the default route down: a remote machine may become unreachable',
    programs: ['ip', 'ifconfig', 'ifdown', 'route', 'nmcli', 'networksetup'],
    hostOnly: true,
    examples: [
      'ip link set eth0 down',
      'ip route del default',
      'ip route flush table main',
      'ifconfig en0 down',
      'nmcli networking off',
      'nmcli radio wifi off',
      'networksetup -setairportpower en0 off',
    ],
    match: takesNetworkDown,
  },
  {
    id: 'service-stop',
    risk: 'medium',
    reason:
      "stops, kills or restarts a service, an app manager's processes or containers (brew services, nginx -s stop, apachectl, s6-svc, pm2, docker kill)",
    programs: Object.keys(STOPS_MANAGED),
    examples: [
      'brew services stop postgresql@16',
      'nginx -s stop',
      'apachectl stop',
      'apache2ctl graceful-stop',
      's6-svc -d /run/service/nginx',
      'pm2 kill',
      'pm2 delete all',
      'docker kill $(docker ps -q)',
    ],
    match: stopsManagedService,
  },
  {
    id: 'package-force-remove',
    risk: 'high',
    reason:
      'removes packages past the dependency checks (dpkg --force-depends/--force-all, rpm -e --nodeps, pacman -Rdd): what depends on them, up to the whole system, can stop working',
    programs: ['dpkg', 'rpm', 'pacman', 'yay', 'paru', 'apt', 'apt-get', 'aptitude'],
    examples: [
      'dpkg --purge --force-all libc6',
      'dpkg -r --force-depends x',
      'rpm -e --nodeps glibc',
      'pacman -Rdd systemd',
    ],
    match: removesPastDependencies,
  },
  {
    id: 'package-remove',
    risk: 'medium',
    reason:
      'removes system or global packages (apt remove, dnf remove, pacman -R, brew uninstall, npm uninstall -g, conda env remove, …)',
    programs: Object.keys(REMOVES_PACKAGES),
    examples: [
      "apt-get remove --purge -y 'php*'",
      'apt purge x',
      'yum erase -y docker',
      'dnf remove x',
      'zypper rm x',
      'pacman -Rns x',
      'apk del x',
      'brew uninstall --force --ignore-dependencies openssl',
      'npm uninstall -g typescript',
      'conda env remove -n ml -y',
      'dpkg -r x',
      'rpm -e x',
    ],
    match: removesPackages,
  },
];
