// Where a network command sends: the URLs curl and wget name, a raw socket's host, this machine (localhost), and the
// cloud metadata services that hand out a machine's credentials. Used by the infrastructure and upload entries.
import type { CommandView } from '../shell/view.ts';

/** Programs that write their stdin to a network socket. */
export const RAW_SOCKET_CLIENTS = ['nc', 'ncat', 'netcat', 'socat', 'telnet'];

/** `… | nc host port`, `nc host port < file`: the input goes to another host (listening with -l is not sending). */
export function sendsToRemoteSocket(v: CommandView): boolean {
  const fed =
    v.stdin?.kind === 'pipe' || v.redirects.some((r) => !r.write && r.op === '<' && r.target?.value !== '/dev/null');
  if (!fed || v.args.some((a) => /^-[a-zA-Z]*l[a-zA-Z]*$/.test(a) || a === '--listen')) return false;
  return v.args.some(
    (a) =>
      !a.startsWith('-') &&
      !LOCAL_HOST.test(a) &&
      (/[a-z0-9]\.[a-z]{2,}/i.test(a) || /^(tcp\d?:|TCP\d?:)?\d{1,3}(\.\d{1,3}){3}\b/.test(a)),
  );
}

/**
 * Cloud instance metadata services: on a cloud machine they hand out the credentials of the machine's role
 * (AWS 169.254.169.254 and the container endpoint 169.254.170.2, GCP metadata.google.internal, Azure, Alibaba
 * 100.100.100.200, AWS IPv6 fd00:ec2::254).
 */
const METADATA_IPV4 = ['169.254.169.254', '169.254.170.2', '100.100.100.200'];
const METADATA_IPV6 = 'fd00:ec2::254';
const METADATA_HOST = new RegExp(
  String.raw`^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/]*@)?(?:${METADATA_IPV4.map((a) => a.replaceAll('.', '\\.')).join('|')}|\[?${METADATA_IPV6}\]?|metadata\.google\.internal|metadata(?=[:/$?#]|$))(?:[:/$?#]|$)`,
  'i',
);
/** The same addresses as the WHATWG URL parser writes a host (IPv4 in dotted decimal, IPv6 in brackets). */
const METADATA_ADDRESSES = new Set([...METADATA_IPV4, `[${METADATA_IPV6}]`]);

/**
 * A URL (or a bare host) naming a cloud metadata service, also in the spellings curl and fetch accept for the same
 * address: a decimal or hex number (`http://2852039166/`, `0xA9FEA9FE`), octal parts, an IPv4-mapped IPv6 address
 * (`[::ffff:169.254.169.254]`). The WHATWG URL parser writes each back as the dotted address.
 */
export function isMetadataUrl(text: string): boolean {
  if (METADATA_HOST.test(text)) return true;
  // Only a host made of digits, hex and dots (or a bracketed IPv6 address) can be another spelling of those: no parse.
  const named = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/]*@)?(\[[^\]]*\]|[^/:?#]*)/i.exec(text)?.[1] ?? '';
  if (!/^(?:\[[0-9a-f:.]+\]|[0-9a-fx.]+)$/i.test(named) || !/\d/.test(named)) return false;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`).hostname;
  } catch {
    return false;
  }
  if (METADATA_ADDRESSES.has(host)) return true;
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (!mapped) return false;
  const hi = parseInt(mapped[1]!, 16);
  const lo = parseInt(mapped[2]!, 16);
  return METADATA_ADDRESSES.has(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
}

export const LOCAL_HOST = /^(https?:\/\/)?(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0)([:/]|$)/;

/** curl's options whose value is the next word (short ones also as the last letter of a cluster: `-sd @x`). */
const CURL_WITH_ARG = new Set([
  '--data',
  '--data-binary',
  '--data-raw',
  '--data-urlencode',
  '--data-ascii',
  '--json',
  '--form',
  '--form-string',
  '--header',
  '--request',
  '--output',
  '--upload-file',
  '--user',
  '--user-agent',
  '--referer',
  '--cookie',
  '--cookie-jar',
  '--config',
  '--write-out',
  '--max-time',
  '--connect-timeout',
  '--retry',
  '--resolve',
  '--connect-to',
  '--proxy',
  '--proxy-user',
  '--cert',
  '--key',
  '--cacert',
  '--continue-at',
  '--range',
  '--time-cond',
  '--limit-rate',
  '--max-filesize',
  '--output-dir',
  '--unix-socket',
  '--interface',
  '--dns-servers',
  '--dump-header',
  '--telnet-option',
  '--ftp-port',
  '--quote',
]);
const CURL_VALUE_LETTERS = /^-[a-zA-Z0-9#]*[dFHXoTuAebcKwmxUECrYyzDtPQ]$/;
/** wget's, likewise. */
const WGET_WITH_ARG = new Set([
  '--output-document',
  '--output-file',
  '--append-output',
  '--post-data',
  '--post-file',
  '--body-data',
  '--body-file',
  '--method',
  '--header',
  '--directory-prefix',
  '--execute',
  '--tries',
  '--timeout',
  '--user',
  '--password',
  '--http-user',
  '--http-password',
  '--user-agent',
  '--input-file',
  '--base',
  '--wait',
  '--quota',
  '--level',
  '--domains',
  '--accept',
  '--reject',
  '--include-directories',
  '--exclude-directories',
]);
const WGET_VALUE_LETTERS = /^-[a-zA-Z0-9]*[OoaPUtTeiBwQlDARIX]$/;

/** Whether a curl or wget command names a URL of another host (not localhost). */
export function sendsToRemoteUrl(v: CommandView): boolean {
  return fetchedUrls(v.program, v.args).some((a) => !LOCAL_HOST.test(a) && /[a-z0-9]\.[a-z]{2,}|^https?:/i.test(a));
}

/** The URLs a curl or wget command names: its operands and `--url` values, not the values of its options. */
function fetchedUrls(program: string, args: readonly string[]): string[] {
  const [withArg, valueLetters] =
    program === 'wget' ? [WGET_WITH_ARG, WGET_VALUE_LETTERS] : [CURL_WITH_ARG, CURL_VALUE_LETTERS];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--url') {
      if (i + 1 < args.length) out.push(args[++i]!);
      continue;
    }
    if (a.startsWith('--url=')) {
      out.push(a.slice(6));
      continue;
    }
    if (a === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a.length > 1) {
      if (withArg.has(a) || (!a.startsWith('--') && valueLetters.test(a))) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}
