// Redirect URIs (docs/rules.md#redirect-uris, docs/rules.md#authorization-request, RFC 9700 §2.1): absolute, https except loopback,
// no fragment, at most 10, compared by exact string match.
import { describe, expect, it } from 'vitest';
import { buildRedirect, isRegisteredRedirectUri, MAX_REDIRECT_URIS, redirectUriProblem } from '../../src/oauth/redirect-uri.ts';

describe('which redirect URIs may be registered (docs/rules.md#redirect-uris)', () => {
  it.each([
    'https://app.example.com/callback',
    'https://app.example.com/callback?tenant=1',
    'https://app.example.com:8443/oauth/cb',
    'http://localhost/callback',
    'http://localhost:8080/callback',
    'http://127.0.0.1:3000/cb',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
  });

  it.each([
    ['http://app.example.com/callback', /https/],
    ['http://localhost.evil.example/callback', /https/],
    ['http://127.0.0.1.nip.io/callback', /https/],
    ['ftp://app.example.com/callback', /https/],
    ['javascript:alert(1)', /https/],
    ['com.example.app:/oauth2redirect', /https/],
  ])('refuses %s: https is required except for loopback', (uri, message) => {
    expect(redirectUriProblem(uri)).toMatch(message);
  });

  it.each(['/callback', 'app.example.com/callback', 'callback', ''])('refuses the relative or empty URI %j: it must be absolute', (uri) => {
    expect(redirectUriProblem(uri)).toMatch(/absolute/);
  });

  it.each(['https://app.example.com/callback#done', 'https://app.example.com/callback#', 'http://localhost:8080/#/cb'])(
    'refuses %s: no fragment',
    (uri) => {
      expect(redirectUriProblem(uri)).toMatch(/fragment/);
    },
  );

  it('names the offending URI in the message', () => {
    expect(redirectUriProblem('http://app.example.com/cb')).toContain('http://app.example.com/cb');
  });

  it('allows at most 10 per client (docs/rules.md#redirect-uris)', () => {
    expect(MAX_REDIRECT_URIS).toBe(10);
  });
});

describe('matching a redirect_uri against the registered ones: exact string match (RFC 9700 §2.1)', () => {
  const registered = ['https://app.example.com/callback', 'http://localhost:8080/cb?x=1'];

  it('matches a registered URI character for character', () => {
    expect(isRegisteredRedirectUri(registered, 'https://app.example.com/callback')).toBe(true);
    expect(isRegisteredRedirectUri(registered, 'http://localhost:8080/cb?x=1')).toBe(true);
  });

  it.each([
    ['a trailing slash', 'https://app.example.com/callback/'],
    ['a sub-path', 'https://app.example.com/callback/evil'],
    ['a different case in the path', 'https://app.example.com/Callback'],
    ['an added query', 'https://app.example.com/callback?next=/admin'],
    ['a changed query', 'http://localhost:8080/cb?x=2'],
    ['a dropped query', 'http://localhost:8080/cb'],
    ['an explicit default port', 'https://app.example.com:443/callback'],
    ['another port on loopback', 'http://localhost:8081/cb?x=1'],
    ['http instead of https', 'http://app.example.com/callback'],
    ['a sub-domain', 'https://evil.app.example.com/callback'],
    ['a look-alike host', 'https://app.example.com.evil.example/callback'],
    ['a fragment', 'https://app.example.com/callback#x'],
    ['an upper-case host', 'https://APP.example.com/callback'],
    ['percent-encoding', 'https://app.example.com/%63allback'],
  ])('refuses %s', (_what, uri) => {
    expect(isRegisteredRedirectUri(registered, uri)).toBe(false);
  });

  it('matches nothing when nothing is registered', () => {
    expect(isRegisteredRedirectUri([], 'https://app.example.com/callback')).toBe(false);
  });
});

describe('building the redirect back to the application (RFC 6749 §4.1.2, RFC 9207)', () => {
  it('appends code, state and iss, keeping the registered query', () => {
    const url = new URL(buildRedirect('http://localhost:8080/cb?x=1', { code: 'gac_abc', state: 's', iss: 'https://auth.example.com' }));
    expect(url.origin + url.pathname).toBe('http://localhost:8080/cb');
    expect(url.searchParams.get('x')).toBe('1');
    expect(url.searchParams.get('code')).toBe('gac_abc');
    expect(url.searchParams.get('state')).toBe('s');
    expect(url.searchParams.get('iss')).toBe('https://auth.example.com');
  });

  it('returns the state unchanged, however odd its characters', () => {
    const state = 'a b&c=d/e?f#g%h+ü';
    const url = new URL(buildRedirect('https://app.example.com/callback', { state }));
    expect(url.searchParams.get('state')).toBe(state);
    expect(url.hash).toBe('');
  });

  it('leaves out parameters that are undefined (no state when none was sent)', () => {
    const url = new URL(buildRedirect('https://app.example.com/callback', { code: 'c', state: undefined }));
    expect([...url.searchParams.keys()]).toEqual(['code']);
  });
});
