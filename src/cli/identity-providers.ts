// gatehouse orgs idp (docs/integrating.md#enterprise-managed-agents): the identity providers an
// organization trusts to vouch for its people to their agents (ID-JAG), and the operator's links
// of a provider's subjects to accounts, through the same services as the organization's pages.
import type { Command } from 'commander';
import { CLI_OPERATOR } from '../services/actors.ts';
import { requireUserByEmail } from '../services/accounts/users.ts';
import {
  addIdentityProvider,
  linkSubject,
  listIdentityProviders,
  removeIdentityProvider,
  unlinkSubject,
  type IdentityProvider,
} from '../services/identity-providers/identity-providers.ts';
import { CliError, formatTime } from './output.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

const providerJson = (p: IdentityProvider) => ({
  id: p.id,
  organization_id: p.organizationId,
  issuer: p.issuer,
  jwks_uri: p.jwksUri,
  domains: p.domains,
  scopes: p.scopes,
  created_at: formatTime(p.createdAt),
});

const scopeWords = (p: IdentityProvider) => (p.scopes === null ? 'any scope the application has' : p.scopes.join(' '));

export function registerIdentityProviderCommands(program: Command, runtime: CliRuntime): void {
  const orgs = program.commands.find((c) => c.name() === 'orgs');
  if (orgs === undefined) throw new Error('registerIdentityProviderCommands: register the orgs command first');
  const idp = orgs.command('idp').description("manage the identity providers an organization trusts to authorize its members' agents (ID-JAG)");

  idp
    .command('add')
    .description('trust an identity provider for the organization: its ID-JAGs get its members access tokens without a consent page')
    .argument('<org>', 'the organization id')
    .requiredOption('--issuer <url>', "the identity provider's issuer identifier (https), as its ID-JAGs carry it in iss")
    .requiredOption('--jwks-uri <url>', 'where it publishes its signing keys (https)')
    .requiredOption('--domain <domains...>', 'the e-mail domains it speaks for')
    .option('--scope <scopes...>', 'the scopes it may grant (default: any the application has)')
    .addOption(jsonOption())
    .action(async (org: string, opts: { issuer: string; jwksUri: string; domain: string[]; scope?: string[]; json?: boolean }) => {
      const p = await runtime.withServices((s) => addIdentityProvider(s, { organizationId: org, issuer: opts.issuer, jwksUri: opts.jwksUri, domains: opts.domain, scopes: opts.scope }, { actorId: CLI_OPERATOR }));
      runtime.emit(!!opts.json, providerJson(p), () => `organization ${org} now trusts ${p.issuer} (identity provider ${p.id}) for ${p.domains.join(', ')}; scopes: ${scopeWords(p)}`);
    });

  idp
    .command('list')
    .description('list the identity providers the organization trusts, oldest first')
    .argument('<org>', 'the organization id')
    .addOption(jsonOption())
    .action(async (org: string, opts: { json?: boolean }) => {
      const rows = await runtime.withServices((s) => listIdentityProviders(s, org));
      runtime.emit(!!opts.json, rows.map(providerJson), () =>
        rows.length === 0
          ? [`organization ${org} trusts no identity provider: \`gatehouse orgs idp add ${org} --issuer URL --jwks-uri URL --domain DOMAIN\` adds one`]
          : rows.map((p) => `${p.id}  ${p.issuer}  keys ${p.jwksUri}  domains ${p.domains.join(' ')}  scopes: ${scopeWords(p)}`),
      );
    });

  idp
    .command('remove')
    .description('stop trusting an identity provider: every grant it made, and their tokens, end at once')
    .argument('<org>', 'the organization id')
    .argument('<id>', 'the identity provider id (gatehouse orgs idp list)')
    .addOption(jsonOption())
    .action(async (org: string, id: string, opts: { json?: boolean }) => {
      const { provider, grantsRevoked } = await runtime.withServices((s) => removeIdentityProvider(s, org, id, { actorId: CLI_OPERATOR }));
      runtime.emit(!!opts.json, { ...providerJson(provider), removed: true, grants_revoked: grantsRevoked }, () => `organization ${org} no longer trusts ${provider.issuer}; ${grantsRevoked} grant${grantsRevoked === 1 ? '' : 's'} it made revoked`);
    });

  idp
    .command('link')
    .description("link an identity provider's subject (its sub) to a member of the organization, for a subject its e-mail cannot find")
    .argument('<org>', 'the organization id')
    .argument('<id>', 'the identity provider id')
    .requiredOption('--subject <sub>', 'the subject, as the ID-JAG carries it in sub')
    .requiredOption('--user <email>', 'the member it is')
    .addOption(jsonOption())
    .action(async (org: string, id: string, opts: { subject: string; user: string; json?: boolean }) => {
      const link = await runtime.withServices(async (s) => linkSubject(s, { organizationId: org, identityProviderId: id, subject: opts.subject, userId: (await requireUserByEmail(s, opts.user)).id }, { actorId: CLI_OPERATOR }));
      const user = opts.user.trim().toLowerCase();
      runtime.emit(!!opts.json, { issuer: link.issuer, subject: link.subject, user_id: link.userId, user }, () => `linked ${link.subject} of ${link.issuer} to ${user}`);
    });

  idp
    .command('unlink')
    .description("undo a subject's link: the grants the identity provider made for that account end")
    .argument('<org>', 'the organization id')
    .argument('<id>', 'the identity provider id')
    .requiredOption('--subject <sub>', 'the subject')
    .addOption(jsonOption())
    .action(async (org: string, id: string, opts: { subject: string; json?: boolean }) => {
      if (opts.subject.trim() === '') throw new CliError('--subject must not be empty');
      const { link, grantsRevoked } = await runtime.withServices((s) => unlinkSubject(s, { organizationId: org, identityProviderId: id, subject: opts.subject }, { actorId: CLI_OPERATOR }));
      runtime.emit(!!opts.json, { issuer: link.issuer, subject: link.subject, user_id: link.userId, unlinked: true, grants_revoked: grantsRevoked }, () => `unlinked ${link.subject} of ${link.issuer}; ${grantsRevoked} grant${grantsRevoked === 1 ? '' : 's'} revoked`);
    });
}
