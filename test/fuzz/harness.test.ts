// The fuzz suites' oracle can fail: each rule of the property, shown on answers and
// snapshots made by hand.
import { describe, expect, it } from 'vitest';
import { expectSafeAnswer, expectUnchangedByRefusal, type Answer, type Snapshot } from './harness.ts';

const answer = (status: number, text: string, headers: Record<string, string> = {}): Answer => ({ status, text, headers: new Headers(headers) });
const rows = (...r: object[]) => r.map((x) => JSON.stringify(x));

describe('the answer rule of the fuzz suites', () => {
  it('passes a plain refusal', () => {
    expectSafeAnswer(answer(400, '{"error":"invalid_request"}'), ['s3cret'], 'case');
  });

  it.each([
    ['a server error', answer(500, '{}')],
    ['a stack frame', answer(400, 'Error: boom\n    at handle (/srv/app/src/oauth/token.ts:12:3)')],
    ['a source position', answer(400, 'failed in token-endpoint.ts:41:7')],
    ['a module path', answer(400, 'cannot find /usr/lib/node_modules/x')],
    ['a password hash', answer(400, 'hash $argon2id$v=19$m=65536')],
    ['a secret in the body', answer(400, 'bad secret gcs_s3cret')],
    ['a secret in a header', answer(400, '', { 'x-debug': 'gcs_s3cret' })],
  ])('fails %s', (_what, a) => {
    expect(() => expectSafeAnswer(a, ['gcs_s3cret'], 'case')).toThrow();
  });

  it("lets the pages' own assets be", () => {
    expectSafeAnswer(answer(403, '<script src="/assets/copy.e5088352b6.js"></script>'), [], 'case');
  });
});

describe('the database rule of the fuzz suites', () => {
  const before: Snapshot = new Map([
    ['users', rows({ id: 'u1', name: 'Ann' })],
    ['audit_events', rows({ id: 1, type: 'token.issued' })],
    ['authorization_codes', rows({ code_hash: 'h', redirect_uri: 'https://a', consumed_at: null })],
    ['client_secrets', rows({ id: 's1', secret_hash: 'x', last_used_at: 10 })],
  ]);
  const changed = (table: string, r: string[]): Snapshot => new Map([...before, [table, r]]);

  it('fails a refusal that changed a row', () => {
    expect(() => expectUnchangedByRefusal(before, changed('users', rows({ id: 'u1', name: 'Bob' })), answer(400, ''), 'case')).toThrow(/changed users/);
  });

  it('fails a refusal that wrote an audit event other than a failed login', () => {
    expect(() => expectUnchangedByRefusal(before, changed('audit_events', rows({ id: 1, type: 'token.issued' }, { id: 2, type: 'token.issued' })), answer(401, ''), 'case')).toThrow(/audit/);
  });

  it("lets a success change anything, and a refusal write a failed login's audit event or spend a code", () => {
    expectUnchangedByRefusal(before, changed('users', []), answer(201, ''), 'case');
    expectUnchangedByRefusal(before, changed('audit_events', rows({ id: 1, type: 'token.issued' }, { id: 2, type: 'login.failed' })), answer(401, ''), 'case');
    expectUnchangedByRefusal(before, changed('authorization_codes', rows({ code_hash: 'h', redirect_uri: 'https://a', consumed_at: 5 })), answer(400, ''), 'case');
    expectUnchangedByRefusal(before, changed('client_secrets', rows({ id: 's1', secret_hash: 'x', last_used_at: 20 })), answer(400, ''), 'case');
  });

  it("fails a refusal that changed a secret's hash or set its last use back", () => {
    expect(() => expectUnchangedByRefusal(before, changed('client_secrets', rows({ id: 's1', secret_hash: 'y', last_used_at: 20 })), answer(400, ''), 'case')).toThrow(/client_secrets/);
    expect(() => expectUnchangedByRefusal(before, changed('client_secrets', rows({ id: 's1', secret_hash: 'x', last_used_at: 5 })), answer(400, ''), 'case')).toThrow(/client_secrets/);
  });

  it('fails a refusal that changed a code in any other way', () => {
    expect(() => expectUnchangedByRefusal(before, changed('authorization_codes', rows({ code_hash: 'h', redirect_uri: 'https://b', consumed_at: 5 })), answer(400, ''), 'case')).toThrow(/authorization_codes/);
  });
});
