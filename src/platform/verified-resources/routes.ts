// Verified emails and phone numbers of a user (VERIFIED_RESOURCES_*) and of a team
// (TEAM_VERIFIED_RESOURCES_*). The code goes to the log: the development delivery, as no
// mail or SMS provider is configured; only its hash is stored.
import type { FastifyRequest } from 'fastify';
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap, type RouteHandler } from '../handler.ts';
import { isoOrNull } from '../input.ts';
import { arrayOf, bool, email, listQuery, nullable, numberedId, object, type JsonSchema, type ListQuery } from '../schemas.ts';
import { type CodeDelivery, listVerified, requestVerificationCode, type ResourceKind, type VerificationOwner, type VerifiedResource, verifyAddress } from './service.ts';

const PHONE = { type: 'string', pattern: '^\\+[1-9][0-9]{6,14}$', description: 'E.164, e.g. +4915112345678' };
const CODE = { type: 'string', pattern: '^[0-9]{6}$' };

const spec = {
  email: { field: 'email', schema: email },
  phone: { field: 'phoneNumber', schema: PHONE },
} as const;

const viewOf = (kind: ResourceKind): JsonSchema =>
  object({ id: numberedId, [spec[kind].field]: { type: 'string' }, verified: bool, verifiedAt: nullable({ type: 'string' }) }, ['id', spec[kind].field, 'verified', 'verifiedAt']);

const view = (r: VerifiedResource) => ({ id: r.id, [spec[r.kind].field]: r.value, verified: r.verifiedAt !== null, verifiedAt: isoOrNull(r.verifiedAt) });


/**
 * No mail or SMS provider is wired in yet. On a development install (the web app on
 * loopback) the code goes to the log so a developer can finish the flow; anywhere else a
 * code in the log would be a secret in the log (docs/rules.md#private-records), so only the attempt is logged.
 */
const logDelivery =
  (request: FastifyRequest, development: boolean): CodeDelivery =>
  (kind, to, code) =>
    development
      ? request.log.info({ verification: { kind, to } }, `development delivery (no ${kind === 'email' ? 'mail' : 'SMS'} provider configured): verification code for ${to} is ${code}`)
      : request.log.warn({ verification: { kind, to } }, `no ${kind === 'email' ? 'mail' : 'SMS'} provider is configured: the verification code was not delivered`);

type Call = { userId: string; facts: { team?: { id: string } | null } };

export function verifiedResourceHandlers(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;

  const handlers = (kind: ResourceKind, ownerOf: (call: Call) => VerificationOwner): Record<'list' | 'request' | 'verify', RouteHandler> => {
    const { field, schema } = spec[kind];
    return {
      list: route<unknown, ListQuery>({
        query: listQuery(),
        data: arrayOf(viewOf(kind), 0, 100),
        handle: async (call) => (await listVerified(ctx, ownerOf(call), kind, call.query.limit, call.query.offset)).map(view),
      }),
      request: route<Record<string, string>>({
        rateLimited: true,
        body: object({ [field]: schema }, [field]),
        data: object({ [field]: { type: 'string' }, verified: bool, codeSent: bool, expiresAt: nullable({ type: 'string' }) }, [field, 'verified', 'codeSent', 'expiresAt']),
        handle: async (call) => {
          const request = { owner: ownerOf(call), kind, value: call.body[field]!, callerIp: call.request.ip };
          const result = await requestVerificationCode(ctx, deps, request, logDelivery(call.request, deps.config.localDevelopment));
          return { [field]: result.value, verified: !result.codeSent, codeSent: result.codeSent, expiresAt: isoOrNull(result.expiresAt) };
        },
      }),
      verify: route<Record<string, string>>({
        body: object({ [field]: schema, code: CODE }, [field, 'code']),
        data: viewOf(kind),
        handle: async (call) => view(await verifyAddress(ctx, ownerOf(call), kind, call.body[field]!, call.body.code!)),
      }),
    };
  };

  const me = (call: Call): VerificationOwner => ({ userId: call.userId });
  const team = (call: Call): VerificationOwner => ({ teamId: call.facts.team!.id });
  const myEmails = handlers('email', me);
  const myPhones = handlers('phone', me);
  const teamEmails = handlers('email', team);
  const teamPhones = handlers('phone', team);
  return {
    'verifiedEmails.list': myEmails.list,
    'verifiedEmails.request': myEmails.request,
    'verifiedEmails.verify': myEmails.verify,
    'verifiedPhones.list': myPhones.list,
    'verifiedPhones.request': myPhones.request,
    'verifiedPhones.verify': myPhones.verify,
    'teamVerifiedEmails.list': teamEmails.list,
    'teamVerifiedEmails.request': teamEmails.request,
    'teamVerifiedEmails.verify': teamEmails.verify,
    'teamVerifiedPhones.list': teamPhones.list,
    'teamVerifiedPhones.request': teamPhones.request,
    'teamVerifiedPhones.verify': teamPhones.verify,
  };
}
