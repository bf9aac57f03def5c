// Dynamic client registration (RFC 7591; src/services/clients/dynamic-registration.ts), called
// in process over SQLite :memory: through the real adapters: what each policy lets through,
// the client it stores, the client information response, and the RFC 7591 §3.2.2 error codes.
// What only HTTP shows (DCR_POLICY=off's refusal, the status, the per-IP limit, the metadata
// announcing the endpoint) is tested in test/http/dynamic-registration.test.ts.
import { describe, expect } from 'vitest';
import { SUPPORTED_GRANT_TYPES } from '../../src/oauth/grants/index.ts';
import { OAuthError } from '../../src/oauth/errors.ts';
import {
  clientInformation,
  inMetadataTerms,
  registerDynamicClient,
  REGISTRATION_OWNER_EMAIL,
  registrationOwner,
  selfRegisteredClients,
  type RegistrationPolicy,
} from '../../src/services/clients/dynamic-registration.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import { listClients } from '../../src/services/clients/view.ts';
import { pruneEnded } from '../../src/services/retention/prune.ts';
import { ServiceError } from '../../src/services/errors.ts';
import { clientKey } from '../helpers/client-keys.ts';
import { it, type PlatformWorld } from './platform/world.ts';

const CALLBACK = 'https://agent.example.com/callback';
// DCR_SCOPES as loadConfig gives them: in registry order.
const review: RegistrationPolicy = { policy: 'review', scopes: ['BOOKING_READ', 'PROFILE_READ'] };
const open: RegistrationPolicy = { policy: 'open', scopes: ['BOOKING_READ', 'PROFILE_READ'] };

/** The refusal of a registration, as its RFC 7591 §3.2.2 code and description. */
async function refusal(world: PlatformWorld, policy: RegistrationPolicy, body: unknown): Promise<{ code: string; description: string }> {
  const error = await registerDynamicClient(world.ctx, policy, body).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof OAuthError)) throw new Error(`expected an OAuthError, got ${String(error)}`);
  return { code: error.code, description: error.description };
}

describe('what a registration stores (RFC 7591 §3.1, docs/rules.md#dynamic-registration)', () => {
  it('under review the client starts pending, confidential with client_secret_basic by default (RFC 7591 §2), owned by the built-in account', async ({ world }) => {
    const registered = await registerDynamicClient(world.ctx, review, { client_name: 'Agent', redirect_uris: [CALLBACK], scope: 'SCHEDULE_READ' });
    expect(registered.authMethod).toBe('client_secret_basic');
    expect(registered.secret).toMatch(/^gcs_/);
    const owner = await world.ctx.stores.users.findByEmail(REGISTRATION_OWNER_EMAIL);
    expect(registered.client).toMatchObject({ name: 'Agent', state: 'pending', kind: 'confidential', ownerId: owner!.id, redirectUris: [CALLBACK], tokenEndpointAuthMethod: 'client_secret_basic', description: 'Registered dynamically (RFC 7591).' });
    // Under review a scope beyond DCR_SCOPES is the admin's to judge.
    expect(registered.client.scopes).toEqual(['SCHEDULE_READ']);
    expect(await world.ctx.stores.clients.find(registered.client.clientId)).toMatchObject({ state: 'pending', scopes: ['SCHEDULE_READ'] });
    expect(await world.ctx.stores.clients.listSecrets(registered.client.clientId)).toHaveLength(1);
  });

  it('under open registration only a public client registers, approved at once, within DCR_SCOPES', async ({ world }) => {
    const registered = await registerDynamicClient(world.ctx, open, { redirect_uris: ['http://127.0.0.1:33418/callback'], token_endpoint_auth_method: 'none', scope: 'PROFILE_READ' });
    expect(registered).toMatchObject({ authMethod: 'none', secret: null });
    expect(registered.client).toMatchObject({ state: 'approved', kind: 'public', scopes: ['PROFILE_READ'], tokenEndpointAuthMethod: null, secrets: [] });
    expect((await world.oauth.findClient(registered.client.clientId))?.state).toBe('approved');

    expect(await refusal(world, open, { redirect_uris: [CALLBACK] })).toEqual({
      code: 'invalid_client_metadata',
      description: 'open registration is for public clients only: send token_endpoint_auth_method "none" and use PKCE',
    });
    expect(await refusal(world, open, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', scope: 'PROFILE_READ SCHEDULE_WRITE ORG_BOOKING_READ' })).toEqual({
      code: 'invalid_client_metadata',
      description: 'scope SCHEDULE_WRITE, ORG_BOOKING_READ cannot be registered without review: this server allows BOOKING_READ PROFILE_READ',
    });
    expect((await listClients(world.ctx)).map((c) => c.clientId)).toEqual([registered.client.clientId]);
  });

  it('a registration that names no scope gets DCR_SCOPES', async ({ world }) => {
    for (const scope of [undefined, '', '  ']) {
      const registered = await registerDynamicClient(world.ctx, open, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', ...(scope === undefined ? {} : { scope }) });
      expect(registered.client.scopes).toEqual(['BOOKING_READ', 'PROFILE_READ']);
    }
  });

  it('without client_name the client is named after where it returns', async ({ world }) => {
    const registered = await registerDynamicClient(world.ctx, review, { redirect_uris: ['https://agent.example.com:8443/cb'] });
    expect(registered.client.name).toBe('Application returning to agent.example.com:8443');
  });

  it('DPoP binding and pushed authorization are stored as asked, off when left out (RFC 9449 §5.2, RFC 9126 §6)', async ({ world }) => {
    const plain = await registerDynamicClient(world.ctx, review, { redirect_uris: [CALLBACK] });
    expect(plain.client).toMatchObject({ dpopBoundAccessTokens: false, requirePushedAuthorizationRequests: false });
    const bound = await registerDynamicClient(world.ctx, review, { redirect_uris: [CALLBACK], dpop_bound_access_tokens: true, require_pushed_authorization_requests: true });
    expect(await world.ctx.stores.clients.find(bound.client.clientId)).toMatchObject({ dpopBoundAccessTokens: true, requirePushedAuthorizationRequests: true });
  });

  it('under review a confidential client may register private_key_jwt with its keys by value (docs/rules.md#client-authentication)', async ({ world }) => {
    const key = await clientKey();
    const registered = await registerDynamicClient(world.ctx, review, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'private_key_jwt', jwks: key.jwks });
    expect(registered.client).toMatchObject({ kind: 'confidential', tokenEndpointAuthMethod: 'private_key_jwt', jwks: key.jwks });
    const answer = clientInformation(registered, world.now());
    expect(answer).toMatchObject({ token_endpoint_auth_method: 'private_key_jwt', jwks: key.jwks });
    // It cannot authenticate with a secret, so none is handed out.
    expect(answer).not.toHaveProperty('client_secret');
    expect(answer).not.toHaveProperty('client_secret_expires_at');
  });
});

describe('the built-in owner of self-registered clients (SECURITY.md)', () => {
  it('is made once, at the first registration, and owns every later one; it has a password nobody knows', async ({ world }) => {
    expect(await world.ctx.stores.users.findByEmail(REGISTRATION_OWNER_EMAIL)).toBeUndefined();
    const first = await registerDynamicClient(world.ctx, review, { redirect_uris: [CALLBACK] });
    const second = await registerDynamicClient(world.ctx, open, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
    const owner = (await world.ctx.stores.users.findByEmail(REGISTRATION_OWNER_EMAIL))!;
    expect([first.client.ownerId, second.client.ownerId]).toEqual([owner.id, owner.id]);
    expect(await registrationOwner(world.ctx)).toBe(owner.id);
    expect(owner).toMatchObject({ isAdmin: false, passwordHash: expect.stringMatching(/^\$argon2id\$/) });
  });

  it('tells a self-registered client from a developer\'s, before and after the account exists', async ({ world }) => {
    const isSelfRegistered = selfRegisteredClients(world.ctx);
    const developer = await world.user();
    const { client: developers } = await world.client(developer);
    expect(await isSelfRegistered(developers)).toBe(false);
    const registered = await registerDynamicClient(world.ctx, review, { redirect_uris: [CALLBACK] });
    expect(await isSelfRegistered(registered.client)).toBe(true);
    expect(await isSelfRegistered(developers)).toBe(false);
  });
});

describe('the client information response (RFC 7591 §3.2.1)', () => {
  it('answers the id, its issue time in seconds, the secret that never expires, and the metadata as registered', async ({ world }) => {
    const registered = await registerDynamicClient(world.ctx, review, {
      client_name: 'Agent',
      redirect_uris: [CALLBACK],
      scope: 'PROFILE_READ,BOOKING_READ',
      client_uri: 'https://agent.example.com',
      logo_uri: 'https://agent.example.com/logo.png',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    world.advance(1500);
    expect(clientInformation(registered, world.now())).toEqual({
      client_id: registered.client.clientId,
      client_id_issued_at: Math.floor(world.now() / 1000),
      client_secret: registered.secret,
      client_secret_expires_at: 0,
      client_name: 'Agent',
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: SUPPORTED_GRANT_TYPES,
      response_types: ['code'],
      scope: 'BOOKING_READ PROFILE_READ',
      require_pushed_authorization_requests: false,
      client_uri: 'https://agent.example.com',
      logo_uri: 'https://agent.example.com/logo.png',
    });
  });

  it('a public client gets no secret back; DPoP binding is answered only when asked for', async ({ world }) => {
    const registered = await registerDynamicClient(world.ctx, open, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', dpop_bound_access_tokens: true });
    const answer = clientInformation(registered, world.now());
    expect(answer).toMatchObject({ token_endpoint_auth_method: 'none', dpop_bound_access_tokens: true });
    expect(answer).not.toHaveProperty('client_secret');
    const plain = clientInformation(await registerDynamicClient(world.ctx, open, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }), world.now());
    expect(plain).not.toHaveProperty('dpop_bound_access_tokens');
    expect(plain).not.toHaveProperty('client_uri');
  });

  it('pushed authorization asked for at registration is stored and answered, under open registration as under review (RFC 9126 §6)', async ({ world }) => {
    for (const policy of [open, review]) {
      const registered = await registerDynamicClient(world.ctx, policy, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', require_pushed_authorization_requests: true });
      expect(clientInformation(registered, world.now())).toMatchObject({ require_pushed_authorization_requests: true });
      expect(await world.ctx.stores.clients.find(registered.client.clientId)).toMatchObject({ requirePushedAuthorizationRequests: true });
    }
  });
});

describe('refusals with the codes of RFC 7591 §3.2.2', () => {
  it('invalid_redirect_uri: no redirect URI, or one the developer form would refuse; nothing is stored', async ({ world }) => {
    const cases: [unknown, string][] = [
      [{}, 'redirect_uris is required: the authorization code flow needs at least one'],
      [{ redirect_uris: [] }, 'redirect_uris is required'],
      [{ redirect_uris: ['http://agent.example.com/cb'] }, 'must use https'],
      [{ redirect_uris: ['https://agent.example.com/cb#top'] }, 'must not contain a fragment'],
      [{ redirect_uris: [CALLBACK, CALLBACK] }, 'is listed twice'],
      [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://agent.example.com/${i}`) }, 'redirect_uris: at most 10 redirect URIs per client (got 11)'],
    ];
    for (const [body, description] of cases) {
      const refused = await refusal(world, review, body);
      expect(refused.code).toBe('invalid_redirect_uri');
      expect(refused.description).toContain(description);
    }
    expect(await listClients(world.ctx)).toEqual([]);
  });

  it('invalid_client_metadata: a body that is not an object of metadata, or metadata of the wrong type', async ({ world }) => {
    const cases: [unknown, string][] = [
      [null, 'the request body must be a JSON object of client metadata (RFC 7591 §2)'],
      [[CALLBACK], 'the request body must be a JSON object'],
      ['redirect_uris', 'the request body must be a JSON object'],
      [{ redirect_uris: CALLBACK }, 'redirect_uris must be an array of strings'],
      [{ redirect_uris: [CALLBACK, 7] }, 'redirect_uris must be an array of strings'],
      [{ redirect_uris: [CALLBACK], client_name: 7 }, 'client_name must be a string'],
      [{ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_jwt' }, 'token_endpoint_auth_method "client_secret_jwt" is not supported'],
      [{ redirect_uris: [CALLBACK], jwks_uri: 'https://agent.example.com/jwks' }, 'jwks_uri is not supported: send the public keys by value in jwks'],
      [{ redirect_uris: [CALLBACK], grant_types: ['client_credentials'] }, 'grant_types "client_credentials" is not supported'],
      [{ redirect_uris: [CALLBACK], response_types: ['code', 'token'] }, 'response_types must be ["code"]'],
      [{ redirect_uris: [CALLBACK], dpop_bound_access_tokens: 'yes' }, 'dpop_bound_access_tokens must be true or false'],
      [{ redirect_uris: [CALLBACK], require_pushed_authorization_requests: 1 }, 'require_pushed_authorization_requests must be true or false (RFC 9126 §6)'],
    ];
    for (const [body, description] of cases) {
      const refused = await refusal(world, review, body);
      expect(refused.code, description).toBe('invalid_client_metadata');
      expect(refused.description).toContain(description);
    }
    expect(await listClients(world.ctx)).toEqual([]);
  });

  it("invalid_client_metadata: the developer form's checks, in the names the caller sent (client_uri, not homepage_url)", async ({ world }) => {
    const key = await clientKey();
    const cases: [Record<string, unknown>, string][] = [
      [{ scope: 'PROFILE_READ CALENDAR_READ' }, 'scope: unknown scope'],
      [{ client_name: 'x'.repeat(101) }, 'client_name must be at most 100 characters'],
      [{ client_name: 'Agent\u202e' }, 'client_name'],
      [{ client_uri: 'ftp://agent.example.com' }, 'client_uri must use http or https'],
      [{ logo_uri: 'http://agent.example.com/logo.png' }, 'logo_uri must use https'],
      [{ token_endpoint_auth_method: 'private_key_jwt' }, 'jwks: the method private_key_jwt needs'],
      [{ jwks: { keys: [{ ...key.publicJwk, d: 'secret' }] } }, 'jwks: key 1 of jwks holds the private member "d"'],
    ];
    for (const [metadata, description] of cases) {
      const refused = await refusal(world, review, { redirect_uris: [CALLBACK], ...metadata });
      expect(refused.code, description).toBe('invalid_client_metadata');
      expect(refused.description).toContain(description);
      expect(refused.description).not.toMatch(/homepage_url|logo_url/);
    }
    expect(await listClients(world.ctx)).toEqual([]);
  });

  it('invalid_redirect_uri: a redirect URI with credentials (user:pw@, which can dress one host as another) or longer than 2,000 characters, said in a short line; nothing is stored', async ({ world }) => {
    const dressed = await refusal(world, review, { redirect_uris: ['https://trusted.example.com@evil.example.net/cb'] });
    expect(dressed.code).toBe('invalid_redirect_uri');
    expect(dressed.description).toMatch(/must not contain a user name or password/);
    const tooLong = await refusal(world, review, { redirect_uris: [`https://agent.example.com/${'a'.repeat(2000)}`] });
    expect(tooLong.code).toBe('invalid_redirect_uri');
    expect(tooLong.description).toMatch(/at most 2000 characters/);
    expect(tooLong.description.length).toBeLessThan(400);
    expect(await listClients(world.ctx)).toEqual([]);
  });

  // Issue 34 item 2: anyone may register under review, and the pending client is listed to
  // the operator (`gatehouse clients show`, `clients list --state pending`): a control
  // character kept in a redirect URI reached the operator's terminal as it was.
  it('invalid_redirect_uri: a redirect URI holding a control character (an escape sequence, a newline, a C1 control) names the URI and the character; nothing is stored (SECURITY.md, RFC 3986 §2)', async ({ world }) => {
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1:33418/callback\u001b[1A\u001b[2K', 'U+001B'],
      ['http://127.0.0.1:33418/call\nback', 'U+000A'],
      ['https://agent.example.com/cb\u009b2J', 'U+009B'],
    ];
    for (const [uri, character] of cases) {
      expect(await refusal(world, review, { redirect_uris: ['http://127.0.0.1:33418/callback', uri] }), uri).toEqual({
        code: 'invalid_redirect_uri',
        description: `redirect_uris: redirect URI 2 holds a control character (${character}), which no URI may hold (RFC 3986 §2): remove it`,
      });
    }
    expect(await listClients(world.ctx)).toEqual([]);
  });

  it('the description begins with the metadata field as the request spelled it (client_uri, logo_uri, client_name, require_pushed_authorization_requests)', async ({ world }) => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ client_uri: 'javascript:alert(1)' }, /^client_uri must use http or https/],
      [{ logo_uri: 'http://agent.example.com/logo.png' }, /^logo_uri must use https/],
      [{ client_name: '   ' }, /^client_name is required/],
      [{ client_name: 'x'.repeat(101) }, /^client_name must be at most 100 characters/],
      [{ require_pushed_authorization_requests: 'yes' }, /^require_pushed_authorization_requests must be true or false/],
      // SECURITY.md: a bidi override shows "Calendar \u202Emoc.elgoog" as "Calendar google.com"; the description says what to remove.
      [{ client_name: 'Calendar \u202Emoc.elgoog' }, /^client_name .*U\+202E/],
    ];
    for (const policy of [open, review]) {
      for (const [metadata, description] of cases) {
        const refused = await refusal(world, policy, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', ...metadata });
        expect(refused.code, String(description)).toBe('invalid_client_metadata');
        expect(refused.description).toMatch(description);
      }
    }
    expect(await listClients(world.ctx)).toEqual([]);
  });

  it("a form check's message is put in client-metadata terms, field first", () => {
    expect(inMetadataTerms(new ServiceError('validation', 'homepage_url must use http or https', 'homepage_url'))).toBe('client_uri must use http or https');
    expect(inMetadataTerms(new ServiceError('validation', 'choose at least one scope', 'scopes'))).toBe('scope: choose at least one scope');
    expect(inMetadataTerms(new ServiceError('validation', 'jwks must hold a "keys" array', 'jwks'))).toBe('jwks must hold a "keys" array');
    expect(inMetadataTerms(new ServiceError('validation', 'something is wrong'))).toBe('something is wrong');
  });
});

describe('open registrations nobody used (docs/rules.md#retention)', () => {
  const HOUR = 3600 * 1000;
  const retention = { replayWindowSeconds: 30, auditRetentionDays: 365 };
  const exists = async (world: PlatformWorld, clientId: string) => (await world.ctx.stores.clients.find(clientId)) !== undefined;
  const publicAgent = { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' };

  it('go 24 hours after they were registered when no grant was made; under review, approved or pending, they stay', async ({ world }) => {
    const unused = (await registerDynamicClient(world.ctx, open, publicAgent)).client.clientId;
    const pending = (await registerDynamicClient(world.ctx, review, publicAgent)).client.clientId;
    const approved = (await registerDynamicClient(world.ctx, review, publicAgent)).client.clientId;
    await reviewClient(world.ctx, approved, 'approve', null);
    world.advance(24 * HOUR - 1);
    expect((await pruneEnded(world.ctx, retention)).unusedOpenRegistrations).toBe(0);
    expect(await exists(world, unused)).toBe(true);
    world.advance(2);
    expect((await pruneEnded(world.ctx, retention)).unusedOpenRegistrations).toBe(1);
    expect({ unused: await exists(world, unused), pending: await exists(world, pending), approved: await exists(world, approved) }).toEqual({ unused: false, pending: true, approved: true });
  });

  it('an open registration an admin has since suspended stays: its review is a decision to keep', async ({ world }) => {
    const suspended = (await registerDynamicClient(world.ctx, open, publicAgent)).client.clientId;
    await reviewClient(world.ctx, suspended, 'suspend', null);
    world.advance(48 * HOUR);
    expect((await pruneEnded(world.ctx, retention)).unusedOpenRegistrations).toBe(0);
    expect(await exists(world, suspended)).toBe(true);
  });
});
