import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook or a short link's hop may never reach: every special-purpose block of the
 * IANA IPv4 and IPv6 registries (private, loopback, link-local, carrier-grade NAT, documentation, benchmarking,
 * multicast, reserved and broadcast), and the IPv6 forms that carry an IPv4 address to a
 * translator or tunnel inside the network: NAT64 (64:ff9b::/96 and the local-use /48),
 * IPv4-compatible (::/96), IPv4-mapped (::ffff:0:0/96), SIIT, 6to4 and Teredo. Node's
 * BlockList checks an IPv4-mapped address against the IPv4 rules too.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** IPv4-mapped IPv6 (`::ffff:a.b.c.d`): kept apart, since BlockList matches plain IPv4 addresses against it too. */
const mapped = new BlockList();
mapped.addSubnet('::ffff:0:0', 96, 'ipv6');

/** True when nothing may be sent to this literal address (anything that is not public unicast). */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return true;
  if (family === 4) return blocked.check(bare, 'ipv4');
  return mapped.check(bare, 'ipv6') || blocked.check(bare, 'ipv6');
}
