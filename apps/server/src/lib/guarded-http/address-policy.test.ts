import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from '../../env';
import {
  blockedHostName,
  classifyAddress,
  isAllowed,
  isLocalhostName,
  isMetadataAddress,
  parseAddress,
  parseAllowEntry,
} from './address-policy';

const address = (text: string) => {
  const parsed = parseAddress(text);
  if (!parsed) throw new Error(`not an address: ${text}`);
  return parsed;
};
const verdict = (text: string) => classifyAddress(address(text));

describe('address policy', () => {
  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['93.184.215.14'],
    ['100.63.255.255'],
    ['100.128.0.0'],
    ['172.15.255.255'],
    ['172.32.0.0'],
    ['192.167.255.255'],
    ['198.20.0.1'],
    ['223.255.255.255'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['2001:4860:4860::8888'],
  ])('allows the public address %s', (text) => {
    expect(verdict(text)).toEqual({ allowed: true, description: '' });
  });

  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['10.0.0.5', 'private network'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.170.2', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['172.16.0.1', 'private network'],
    ['172.31.255.255', 'private network'],
    ['192.0.0.8', 'protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', '6to4 relay'],
    ['192.168.1.1', 'private network'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped IPv6 address embedding 127.0.0.1, a loopback'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::127.0.0.1', 'IPv4-compatible IPv6 address embedding 127.0.0.1'],
    ['64:ff9b::a00:1', 'NAT64 address embedding 10.0.0.1, a private'],
    ['64:ff9b::808:808', 'NAT64'],
    ['64:ff9b:1::a9fe:a9fe', 'local NAT64 address embedding 169.254.169.254, a cloud metadata'],
    ['2002:a00:1::', '6to4 tunnel address embedding 10.0.0.1'],
    ['2002:c0a8:101::1', '6to4 tunnel address embedding 192.168.1.1'],
    ['2002:808:808::1', '6to4'],
    // Teredo: server 65.54.227.120, client 127.0.0.1 stored inverted.
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo tunnel address embedding 127.0.0.1'],
    ['2001:0:a00:1::1', 'Teredo'],
    ['2001:2::1', 'protocol assignments'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard'],
    ['fc00::1', 'private network'],
    ['fd12:3456::1', 'private network'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fe80::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'reserved'],
  ])('refuses %s as %s', (text, words) => {
    const result = verdict(text);
    expect(result.allowed).toBe(false);
    expect(result.description).toContain(words);
  });

  it('reads only canonical addresses: no zone ids, no shorthand IPv4', () => {
    expect(parseAddress('fe80::1%eth0')).toBeNull();
    expect(parseAddress('127.1')).toBeNull();
    expect(parseAddress('0x7f.0.0.1')).toBeNull();
    expect(parseAddress('example.com')).toBeNull();
    expect(parseAddress('[::1]')?.toString()).toBe('::1');
    expect(parseAddress('::127.0.0.1')?.toString()).toBe('::7f00:1');
    expect(parseAddress('::ffff:10.0.0.1')?.toString()).toBe('::ffff:a00:1');
  });

  it('knows the metadata endpoints, the metadata names, and the names that always mean this machine', () => {
    expect(isMetadataAddress(address('169.254.169.254'))).toBe(true);
    expect(blockedHostName('metadata.google.internal.')).toContain('metadata');
    expect(blockedHostName('METADATA.goog')).toContain('metadata');
    expect(isLocalhostName('localhost')).toBe(true);
    expect(isLocalhostName('LOCALHOST.')).toBe(true);
    expect(isLocalhostName('api.localhost')).toBe(true);
    expect(isLocalhostName('notlocalhost.com')).toBe(false);
    expect(blockedHostName('example.com')).toBeNull();
    expect(blockedHostName('notlocalhost.com')).toBeNull();
  });

  it('parses allow-list entries with and without ports and ranges', () => {
    const entries = ['127.0.0.1:8080', '10.0.0.0/8', '[::1]:9090', 'fd00::/8', '192.168.1.10'].map(
      parseAllowEntry,
    );
    const allowed = (text: string, port: number) => isAllowed(entries, address(text), port);
    expect(allowed('127.0.0.1', 8080)).toBe(true);
    expect(allowed('127.0.0.1', 8081)).toBe(false);
    expect(allowed('127.0.0.2', 8080)).toBe(false);
    expect(allowed('10.200.3.4', 1)).toBe(true);
    expect(allowed('11.0.0.1', 80)).toBe(false);
    expect(allowed('::1', 9090)).toBe(true);
    expect(allowed('::1', 80)).toBe(false);
    expect(allowed('fd12::1', 443)).toBe(true);
    expect(allowed('192.168.1.10', 443)).toBe(true);
    expect(allowed('192.168.1.11', 443)).toBe(false);
    for (const bad of [
      'example.com',
      '10.0.0.0/33',
      '127.0.0.1:0',
      '127.0.0.1:70000',
      '10.0.0.0/8/8',
      '1.2.3.4/x',
      '10.0.0.1/',
      '',
    ]) {
      expect(() => parseAllowEntry(bad), bad).toThrow(/is not an address/);
    }
  });

  it('reads FETCH_ALLOW_ADDRESSES from the environment, empty by default, and rejects bad entries at start-up', () => {
    expect(loadEnv({}).FETCH_ALLOW_ADDRESSES).toEqual([]);
    expect(loadEnv({ FETCH_ALLOW_ADDRESSES: '10.0.0.0/8, 127.0.0.1:8080' }).FETCH_ALLOW_ADDRESSES).toEqual([
      '10.0.0.0/8',
      '127.0.0.1:8080',
    ]);
    expect(() => loadEnv({ FETCH_ALLOW_ADDRESSES: '10.0.0.0/8,intranet.example' })).toThrow(EnvError);
    expect(() => loadEnv({ FETCH_ALLOW_ADDRESSES: 'intranet.example' })).toThrow(/FETCH_ALLOW_ADDRESSES/);
  });
});
