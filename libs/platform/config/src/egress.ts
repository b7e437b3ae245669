/**
 * Operator-owned egress: which URLs the gateway may send to on a tenant's behalf (an LLM upstream, an
 * escalation webhook) and which resolved addresses it may connect to. Tenants are not trusted, so a
 * URL must match the operator's allow-list (`WAYFINDER_EGRESS_ALLOW`: comma-separated hosts or base
 * URLs), and loopback, link-local, private and unspecified addresses are refused at connect time
 * (checked on the resolved address, so a public name resolving to 127.0.0.1 is refused too) unless
 * the operator allows them (`WAYFINDER_EGRESS_ALLOW_PRIVATE=1`, or the address itself written in the allow-list).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

export interface EgressPolicy {
  /** Allowed entries: a bare host (`api.openai.com`, `10.0.0.5`) or a base URL (`https://h/v1`). */
  readonly allow: readonly string[];
  /** Private, loopback and link-local addresses allowed for every host. */
  readonly allowPrivate: boolean;
}

/** Reads `WAYFINDER_EGRESS_ALLOW` / `WAYFINDER_EGRESS_ALLOW_PRIVATE`; the proxy upstreams (OpenAI's and Anthropic's) are implicitly allowed. */
export function egressFromEnv(env: Record<string, string | undefined>): EgressPolicy {
  const allow = (env['WAYFINDER_EGRESS_ALLOW'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  for (const name of ['WAYFINDER_PROXY_UPSTREAM', 'WAYFINDER_ANTHROPIC_UPSTREAM']) {
    const upstream = env[name]?.trim();
    if (upstream) allow.push(upstream);
  }
  const flag = (env['WAYFINDER_EGRESS_ALLOW_PRIVATE'] ?? '').trim().toLowerCase();
  return { allow, allowPrivate: flag === '1' || flag === 'true' };
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** Loopback, link-local, private (RFC 1918, CGNAT, ULA) or unspecified; IPv4-mapped IPv6 included. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
}

function hostOf(entry: string): string {
  try {
    return new URL(entry.includes('://') ? entry : `http://${entry}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return entry.toLowerCase();
  }
}

/** Whether `url` matches an allowed entry: the same host (bare entry) or the same origin under the same path (URL entry). */
export function egressAllowed(policy: EgressPolicy, url: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return policy.allow.some((entry) => {
    if (!entry.includes('://')) return hostOf(entry) === host;
    let base: URL;
    try {
      base = new URL(entry);
    } catch {
      return false;
    }
    if (base.origin !== target.origin) return false;
    const prefix = base.pathname.replace(/\/+$/, '');
    return target.pathname === prefix || target.pathname.startsWith(`${prefix}/`) || prefix === '';
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node's http(s) agents (and `net.connect`): resolves as usual, then refuses a private
 * address unless the operator allows private egress or wrote that address in the allow-list.
 */
export function egressLookup(policy: EgressPolicy) {
  // Only an address the operator wrote itself (`127.0.0.1`, `[::1]`) is exempt: a name in the list that
  // resolves to a private address is still refused, or a tenant-influenced DNS record could rebind it.
  const namedAddresses = new Set(policy.allow.map(hostOf).filter((host) => isIP(host) !== 0));
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const refused = policy.allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address) && !namedAddresses.has(a.address.toLowerCase()));
      if (refused) {
        const err: NodeJS.ErrnoException = new Error(`egress to ${hostname} (${refused.address}) refused: private address not allowed by the operator`);
        err.code = 'EEGRESSREFUSED';
        return callback(err, '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Why `url` may not be sent to, or undefined: not in the allow-list, or an address literal that is
 * private (node connects to a literal without calling `lookup`, so it is checked here).
 */
export function egressRefusal(policy: EgressPolicy, url: string): string | undefined {
  if (!egressAllowed(policy, url)) return `${redactedOrigin(url)} is not in the operator's egress allow-list (WAYFINDER_EGRESS_ALLOW)`;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) !== 0 && !policy.allowPrivate && isPrivateAddress(host) && !policy.allow.some((entry) => hostOf(entry) === host)) {
    return `${host} is a private address the operator does not allow`;
  }
  return undefined;
}

function redactedOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the URL';
  }
}
