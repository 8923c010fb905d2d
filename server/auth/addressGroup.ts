// The unit the sign-in limits count an address in. One IPv4 address is one client (or one school
// behind its NAT); one IPv6 client usually holds a whole /64 and may pick any address in it, so
// counting single IPv6 addresses would give it 2^64 fresh starts.
import { isIP } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.toLowerCase();
  // An IPv4 tail (::ffff:192.0.2.1, 64:ff9b::192.0.2.1) is the last two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number);
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const zeros = rest === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

/**
 * '203.0.113.7' for an IPv4 client, also when it arrives IPv4-mapped ('::ffff:203.0.113.7');
 * '2001:db8:1:2::/64' for any address in that IPv6 /64; anything else (no address) as given.
 */
export function addressGroup(ip: string | undefined): string {
  const address = (ip ?? '').trim().replace(/%.*$/, ''); // a zone (fe80::1%eth0) is not part of it
  if (isIP(address) === 4) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address || 'unknown';
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}
