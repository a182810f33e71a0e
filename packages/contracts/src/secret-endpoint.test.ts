import { describe, expect, it } from 'vitest';
import { isSameSecretEndpoint, secretEndpointOf } from './secret-endpoint';
import {
  secretsKeptAcrossEndpoints,
  WIDGET_CONFIG_SECRET_ENDPOINTS,
  WIDGET_CONFIG_SECRET_PATHS,
  type WidgetConfig,
  WidgetConfigSchema,
} from './widget-config';

describe('secretEndpointOf', () => {
  it('normalises scheme, host, port and path and leaves out what does not move the endpoint', () => {
    expect(secretEndpointOf('HTTPS://API.Example.COM./v1/')).toBe('https://api.example.com:443/v1');
    expect(secretEndpointOf('https://api.example.com:443/v1')).toBe('https://api.example.com:443/v1');
    expect(secretEndpointOf('http://api.example.com/a/../v1//?x=1#f')).toBe('http://api.example.com:80/v1');
    expect(secretEndpointOf('https://bücher.example/v1')).toBe('https://xn--bcher-kva.example:443/v1');
    expect(secretEndpointOf('https://user:pw@api.example.com/v1')).toBe('https://api.example.com:443/v1');
    expect(secretEndpointOf('')).toBe('');
    expect(secretEndpointOf('not a url')).toBeNull();
  });

  it('tells a changed scheme, host, port or path prefix from the same endpoint written another way', () => {
    const base = 'https://api.example.com/v1';
    for (const same of [
      'https://API.example.com/v1/',
      'https://api.example.com:443/v1',
      'https://api.example.com./v1',
    ])
      expect(isSameSecretEndpoint(base, same)).toBe(true);
    for (const moved of [
      'http://api.example.com/v1',
      'https://evil.example.com/v1',
      'https://api.example.com.evil.example/v1',
      'https://api.example.com:8443/v1',
      'https://api.example.com/v2',
      'https://api.example.com/',
      'https://api.example.com/v1/other',
      '',
      'not a url',
    ])
      expect(isSameSecretEndpoint(base, moved), moved).toBe(false);
    expect(isSameSecretEndpoint('not a url', 'not a url')).toBe(false);
  });
});

/** Sets the string field at `group.field` of a configuration copy. */
function setAt(config: WidgetConfig, path: string, value: string): void {
  const [group = '', field = ''] = path.split('.');
  const holder = (config as unknown as Record<string, Record<string, unknown>>)[group];
  if (!holder) throw new Error(`no group ${group}`);
  holder[field] = value;
}

describe('secretsKeptAcrossEndpoints', () => {
  const defaults = WidgetConfigSchema.parse({});
  const withEverySecret = (): WidgetConfig => {
    const config = structuredClone(defaults);
    for (const path of WIDGET_CONFIG_SECRET_PATHS) {
      setAt(config, path, `secret-of-${path}`);
      for (const address of WIDGET_CONFIG_SECRET_ENDPOINTS[path] ?? []) {
        setAt(config, address, 'https://provider.example.com/api');
      }
    }
    return config;
  };

  it('binds every secret path of the configuration, each to address fields that exist', () => {
    expect(Object.keys(WIDGET_CONFIG_SECRET_ENDPOINTS).sort()).toEqual(
      [...WIDGET_CONFIG_SECRET_PATHS].sort(),
    );
    for (const address of Object.values(WIDGET_CONFIG_SECRET_ENDPOINTS).flat()) {
      const [group = '', field = ''] = address.split('.');
      expect(typeof (defaults as unknown as Record<string, Record<string, unknown>>)[group]?.[field]).toBe(
        'string',
      );
    }
  });

  it('names each kept secret whose address moved, and none that was entered again or has no address', () => {
    const before = withEverySecret();
    const bound = Object.entries(WIDGET_CONFIG_SECRET_ENDPOINTS);
    for (const [path, addresses] of bound) {
      for (const address of addresses) {
        const moved = structuredClone(before);
        setAt(moved, address, 'https://collector.example.net/api');
        // Secrets sent to the same address (an AWS key and its secret) are all named when it moves.
        const sharing = bound.filter(([, fields]) => fields.includes(address)).map(([other]) => other);
        expect(secretsKeptAcrossEndpoints(before, moved, () => true).sort()).toEqual(sharing.sort());
        expect(secretsKeptAcrossEndpoints(before, moved, (kept) => kept !== path)).not.toContain(path);
        expect(secretsKeptAcrossEndpoints(before, moved, (kept) => !sharing.includes(kept))).toEqual([]);
      }
    }
    const rewritten = structuredClone(before);
    rewritten.libretranslate.url = 'HTTPS://provider.example.com:443/api/';
    expect(secretsKeptAcrossEndpoints(before, rewritten, () => true)).toEqual([]);
    const noKey = structuredClone(before);
    noKey.libretranslate.apiKey = '';
    const movedWithoutKey = structuredClone(noKey);
    movedWithoutKey.libretranslate.url = 'https://collector.example.net';
    expect(secretsKeptAcrossEndpoints(noKey, movedWithoutKey, () => true)).toEqual([]);
  });
});
