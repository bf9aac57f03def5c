// OAuth clients as the pages and the CLI show them (SPEC §2): one client, or a listing.
import type { ClientKind, ClientState } from '../../oauth/storage.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { SecretView } from './secrets.ts';
import type { StoredClient } from './store.ts';

export interface ClientView {
  clientId: string;
  name: string;
  description: string;
  homepageUrl: string;
  logoUrl: string | null;
  ownerId: string;
  kind: ClientKind;
  state: ClientState;
  legacy: boolean;
  redirectUris: string[];
  /** Granted-scope string form; empty for a legacy client. */
  scopes: string[] | null;
  reviewNote: string | null;
  reviewedBy: string | null;
  reviewedAt: number | null;
  /** SPEC §6: the client may introspect any client's tokens. */
  resourceServer: boolean;
  /** SPEC §2 item 20: additions awaiting admin review (not yet live). */
  proposedRedirectUris: string[];
  proposedScopes: string[];
  /** SPEC §2 item 22: raised by every change of the configuration or of the held change. */
  version: number;
  createdAt: number;
  updatedAt: number;
  secrets: SecretView[];
}

function view(c: StoredClient, secrets: SecretView[]): ClientView {
  const { id, ...rest } = c;
  return { clientId: id, ...rest, legacy: c.scopes === null, secrets };
}

/** SPEC §2 item 20: whether additions await an admin's review. */
export const hasHeldChange = (c: ClientView): boolean => c.proposedRedirectUris.length + c.proposedScopes.length > 0;

export async function requireClient(ctx: ServiceContext, id: string): Promise<ClientView> {
  const client = await ctx.stores.clients.find(id);
  if (client === undefined) throw notFound(`no client with id ${id}`);
  return view(client, await ctx.stores.clients.listSecrets(id));
}

export async function listClients(ctx: ServiceContext, filter: { ownerId?: string; state?: ClientState } = {}): Promise<ClientView[]> {
  return (await ctx.stores.clients.list(filter)).map((c) => view(c, []));
}
