import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The rule that refuses an address: the kind of range it lies in. */
export type AddressRule =
  'private-address' | 'loopback' | 'link-local' | 'cloud-metadata' | 'reserved-address';

/** Why an address may not be reached from the server on a tenant's behalf. */
export interface AddressVerdict {
  allowed: boolean;
  /** Plain words that complete "... is <description>", e.g. "a private network address". */
  description: string;
  /** The rule that refuses it; absent when the address is allowed. */
  rule?: AddressRule;
}

/** The rule that refuses an address of this description. */
export function ruleOf(description: string): AddressRule {
  if (description.includes(METADATA)) return 'cloud-metadata';
  if (description.includes(LOOPBACK)) return 'loopback';
  if (description.includes(PRIVATE)) return 'private-address';
  if (description.includes(LINK_LOCAL)) return 'link-local';
  return 'reserved-address';
}

interface Range {
  cidr: [Address, number];
  description: string;
}

const range = (cidr: string, description: string): Range => ({ cidr: ipaddr.parseCIDR(cidr), description });

const LOOPBACK = 'a loopback address';
const PRIVATE = 'a private network address';
const LINK_LOCAL = 'a link-local address';
const METADATA = 'a cloud metadata service address';
const DOCUMENTATION = 'an address reserved for documentation';

// Cloud metadata endpoints stay refused even when an allowed range covers them.
const METADATA_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, Oracle
  '169.254.170.2', // AWS ECS task metadata
  '100.100.100.200', // Alibaba Cloud
  'fd00:ec2::254', // AWS over IPv6
].map((text) => ipaddr.parse(text));

// Every IPv4 range that is not globally reachable (IANA special-purpose registry).
const IPV4_BLOCKED: Range[] = [
  range('0.0.0.0/8', 'an unspecified ("this network") address'),
  range('10.0.0.0/8', PRIVATE),
  range('100.64.0.0/10', 'a carrier-grade NAT (shared) address'),
  range('127.0.0.0/8', LOOPBACK),
  range('169.254.0.0/16', LINK_LOCAL),
  range('172.16.0.0/12', PRIVATE),
  range('192.0.0.0/24', 'an address reserved for protocol assignments'),
  range('192.0.2.0/24', DOCUMENTATION),
  range('192.88.99.0/24', 'a reserved 6to4 relay address'),
  range('192.168.0.0/16', PRIVATE),
  range('198.18.0.0/15', 'an address reserved for benchmarking'),
  range('198.51.100.0/24', DOCUMENTATION),
  range('203.0.113.0/24', DOCUMENTATION),
  range('224.0.0.0/4', 'a multicast address'),
  range('255.255.255.255/32', 'the broadcast address'),
  range('240.0.0.0/4', 'a reserved address'),
];

// IPv6 outside these ranges (or inside IPV6_BLOCKED) is never globally reachable unicast.
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

const IPV6_BLOCKED: Range[] = [
  range('::/128', 'the unspecified address'),
  range('::1/128', LOOPBACK),
  range('::ffff:0:0/96', 'an IPv4-mapped IPv6 address'),
  range('64:ff9b::/96', 'a NAT64 address'),
  range('64:ff9b:1::/48', 'a local NAT64 address'),
  range('::/96', 'an IPv4-compatible IPv6 address'),
  range('100::/64', 'a discard-only address'),
  range('2001::/32', 'a Teredo tunnel address'),
  range('2001::/23', 'an address reserved for protocol assignments'),
  range('2001:db8::/32', DOCUMENTATION),
  range('2002::/16', 'a 6to4 tunnel address'),
  range('3fff::/20', DOCUMENTATION),
  range('fc00::/7', PRIVATE),
  range('fe80::/10', LINK_LOCAL),
  range('fec0::/10', 'a deprecated site-local address'),
  range('ff00::/8', 'a multicast address'),
];

/** Parses an address that is already in canonical form (from WHATWG URL or DNS); null when it is none. */
export function parseAddress(text: string): Address | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  // ipaddr.js reads any dotted IPv6 tail as IPv4-mapped, so the tail is turned into hex words first.
  const hex = bare.replace(
    /:(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/,
    (tail, a: string, b: string, c: string, d: string) => {
      const [w, x, y, z] = [a, b, c, d].map(Number) as [number, number, number, number];
      if ([w, x, y, z].some((byte) => byte > 255)) return tail;
      return `:${((w << 8) | x).toString(16)}:${((y << 8) | z).toString(16)}`;
    },
  );
  if (hex.includes(':') && ipaddr.IPv6.isValid(hex)) {
    const address = ipaddr.IPv6.parse(hex);
    return address.zoneId === undefined ? address : null;
  }
  return null;
}

const inRange = (address: Address, { cidr }: Range) =>
  address.kind() === cidr[0].kind() && address.match(cidr);

const TAIL_CARRIERS = ['::/96', '::ffff:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48'].map((cidr) =>
  ipaddr.parseCIDR(cidr),
);
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const TEREDO = ipaddr.parseCIDR('2001::/32');

/** The IPv4 address that an IPv6 transition form carries, when it carries one. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const fromWords = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const [, p1 = 0, p2 = 0, p3 = 0, , , p6 = 0, p7 = 0] = address.parts;
  if (TAIL_CARRIERS.some((cidr) => address.match(cidr))) return fromWords(p6, p7);
  if (address.match(SIX_TO_FOUR)) return fromWords(p1, p2);
  if (address.match(TEREDO)) {
    // Teredo carries its server in words 2-3 and the client, inverted, in words 6-7.
    const client = fromWords(p6 ^ 0xffff, p7 ^ 0xffff);
    return classifyIPv4(client).allowed ? fromWords(p2, p3) : client;
  }
  return null;
}

function classifyIPv4(address: ipaddr.IPv4): AddressVerdict {
  if (METADATA_ADDRESSES.some((known) => known.kind() === 'ipv4' && known.toString() === address.toString()))
    return { allowed: false, description: METADATA };
  const blocked = IPV4_BLOCKED.find((candidate) => inRange(address, candidate));
  return blocked ? { allowed: false, description: blocked.description } : { allowed: true, description: '' };
}

/** The default policy: only globally reachable unicast addresses may be fetched. */
export function classifyAddress(address: Address): AddressVerdict {
  if (address.kind() === 'ipv4') return classifyIPv4(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  if (
    METADATA_ADDRESSES.some(
      (known) => known.kind() === 'ipv6' && known.toNormalizedString() === v6.toNormalizedString(),
    )
  )
    return { allowed: false, description: METADATA };
  const blocked = IPV6_BLOCKED.find((candidate) => inRange(v6, candidate));
  const embedded = blocked && blocked.cidr[1] === 128 ? null : embeddedIPv4(v6);
  if (embedded) {
    const inner = classifyIPv4(embedded);
    const form = blocked?.description ?? 'an IPv6 address embedding an IPv4 address';
    // IPv4 carried inside IPv6 is refused whatever it is; the words name the embedded address when it is the reason.
    return {
      allowed: false,
      description: inner.allowed ? form : `${form} embedding ${embedded.toString()}, ${inner.description}`,
    };
  }
  if (blocked) return { allowed: false, description: blocked.description };
  if (!v6.match(IPV6_GLOBAL_UNICAST)) return { allowed: false, description: 'a reserved address' };
  return { allowed: true, description: '' };
}

/** True for cloud metadata endpoints, which an allow list never opens. */
export function isMetadataAddress(address: Address): boolean {
  return classifyAddress(address).description === METADATA;
}

const METADATA_NAMES = ['metadata.google.internal', 'metadata.goog', 'metadata'];

const bareName = (hostname: string) => hostname.toLowerCase().replace(/\.$/, '');

/** Plain words for a host name that is refused by name alone (a metadata service), or null. */
export function blockedHostName(hostname: string): string | null {
  return METADATA_NAMES.includes(bareName(hostname)) ? 'a cloud metadata service name' : null;
}

/** Names under localhost always mean this machine, so they are answered here and never sent to DNS. */
export function isLocalhostName(hostname: string): boolean {
  const name = bareName(hostname);
  return name === 'localhost' || name.endsWith('.localhost');
}

/** One entry of the operator's allow list: an address or CIDR range, optionally limited to one port. */
export interface AllowEntry {
  cidr: [Address, number];
  port: number | null;
  text: string;
}

/**
 * Parses allow-list entries such as `10.1.2.3`, `10.0.0.0/8`, `127.0.0.1:8080`, `fd00::/8` or `[::1]:8080`;
 * throws with the entry's text when one is not of these forms.
 */
export function parseAllowEntry(text: string): AllowEntry {
  const fail = () => new Error(`"${text}" is not an address, a CIDR range or an address with a port`);
  let host = text.trim();
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(host);
  const v4WithPort = /^([\d.]+(?:\/\d+)?):(\d+)$/.exec(host);
  const match = bracketed ?? v4WithPort;
  if (match) {
    host = match[1] ?? '';
    if (match[2] !== undefined) port = Number(match[2]);
  }
  if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535)) throw fail();
  const [base, bitsText, extra] = host.split('/');
  if (extra !== undefined) throw fail();
  const address = parseAddress(base ?? '');
  if (!address) throw fail();
  const max = address.kind() === 'ipv4' ? 32 : 128;
  const bits = bitsText === undefined ? max : Number(bitsText);
  if ((bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) || bits > max) throw fail();
  return { cidr: [address, bits], port, text };
}

/** True when an allow-list entry covers this address and port. */
export function isAllowed(entries: readonly AllowEntry[], address: Address, port: number): boolean {
  return entries.some(
    (entry) =>
      entry.cidr[0].kind() === address.kind() &&
      address.match(entry.cidr) &&
      (entry.port === null || entry.port === port),
  );
}

/** True when an allow-list entry names this address and exactly this port. */
export function isAllowedPort(entries: readonly AllowEntry[], address: Address, port: number): boolean {
  return entries.some(
    (entry) => entry.port === port && entry.cidr[0].kind() === address.kind() && address.match(entry.cidr),
  );
}
