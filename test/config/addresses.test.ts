// APP_URL and BASE_URL follow PORT when they are unset: `PORT=41000 npm
// start` links, redirects and names its issuer on port 41000, and says so in --help. Set,
// they win; OUTBOUND_ALLOW_PRIVATE=1 warns wherever the server runs.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { settingsHelp } from '../../src/config/help.ts';

describe('APP_URL and BASE_URL defaults (docs/rules.md#configuration)', () => {
  it('are http://localhost:3000 with nothing set, and named as assumed', () => {
    const config = loadConfig({});
    expect([config.appUrl, config.baseUrl, config.issuer]).toEqual(['http://localhost:3000', 'http://localhost:3000', 'http://localhost:3000']);
    expect(config.addressesAssumed).toEqual(['APP_URL', 'BASE_URL']);
  });

  it('follow PORT when unset, and are no guess then', () => {
    const config = loadConfig({ PORT: '41000' });
    expect([config.appUrl, config.baseUrl, config.issuer]).toEqual(['http://localhost:41000', 'http://localhost:41000', 'http://localhost:41000']);
    expect(config.addressesAssumed).toEqual([]);
    expect(config.localDevelopment).toBe(true);
    expect(config.warnings).toEqual([]);
  });

  it('are what APP_URL and BASE_URL say when set, each on its own', () => {
    const config = loadConfig({ PORT: '41000', APP_URL: 'https://app.example.com/', BASE_URL: 'https://api.example.com' });
    expect([config.appUrl, config.baseUrl, config.issuer]).toEqual(['https://app.example.com', 'https://api.example.com', 'https://api.example.com']);
    expect(config.secureCookies).toBe(true);
    const half = loadConfig({ PORT: '4000', APP_URL: 'https://app.example.com' });
    expect([half.appUrl, half.baseUrl]).toEqual(['https://app.example.com', 'http://localhost:4000']);
    expect(loadConfig({ APP_URL: 'https://app.example.com' }).addressesAssumed).toEqual(['BASE_URL']);
  });

  it('warn with PORT=0 (any free port), which no address can follow', () => {
    const config = loadConfig({ PORT: '0' });
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.warnings.join('\n')).toMatch(/^PORT=0 listens on any free port, which APP_URL and BASE_URL cannot follow: they are http:\/\/localhost:3000 unless set$/m);
    expect(loadConfig({ PORT: '0', APP_URL: 'http://a.test', BASE_URL: 'http://a.test' }).warnings).toEqual([]);
  });

  it('--help and the settings table say the default follows PORT', () => {
    const help = Object.fromEntries(settingsHelp().map((s) => [s.name, s]));
    expect(help.APP_URL).toMatchObject({ default: 'http://localhost:PORT', meaning: expect.stringContaining('unset: follows PORT') });
    expect(help.BASE_URL).toMatchObject({ default: 'http://localhost:PORT', meaning: expect.stringContaining('unset: follows PORT') });
    expect(help.PORT!.default).toBe('3000');
  });
});

describe('OUTBOUND_ALLOW_PRIVATE=1 (docs/rules.md#outbound-urls)', () => {
  it('warns at start on a developer\'s machine as anywhere else, once', () => {
    for (const env of [{}, { BASE_URL: 'https://auth.example.com' }]) {
      const warnings = loadConfig({ OUTBOUND_ALLOW_PRIVATE: '1', ...env }).warnings.filter((w) => w.includes('OUTBOUND_ALLOW_PRIVATE'));
      expect(warnings).toEqual(['OUTBOUND_ALLOW_PRIVATE=1: webhook, calendar-feed and client-metadata URLs may be http and point at private and loopback addresses; use it for development and tests only']);
    }
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '0' }).warnings).toEqual([]);
  });
});
