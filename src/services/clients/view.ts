// OAuth clients as the pages and the CLI show them (docs/rules.md#client-record): one client, or a listing.
import { MAX_CLIENT_ID_LENGTH } from '../../oauth/client-metadata.ts';
import type { ClientState } from '../../oauth/storage.ts';
import type { ServiceContext } from '../context.ts';
import { notFound, validation } from '../errors.ts';
import type { SecretView } from './secrets.ts';
import type { StoredClient } from './store.ts';

/** The stored client as the pages and the CLI name it: `clientId`, whether it is legacy, its secrets. */
export type ClientView = Omit<StoredClient, 'id'> & {
  clientId: string;
  /** docs/rules.md#legacy-clients: a client whose scopes are NULL. */
  legacy: boolean;
  secrets: SecretView[];
};

function view(c: StoredClient, secrets: SecretView[]): ClientView {
  const { id, ...rest } = c;
  return { clientId: id, ...rest, legacy: c.scopes === null, secrets };
}

/** docs/rules.md#client-changes: whether additions await an admin's review. */
export const hasHeldChange = (c: ClientView): boolean => c.proposedRedirectUris.length + c.proposedScopes.length > 0;

/** The stored client without its secrets, for what only shows it (its logo, its name). */
export async function requireStoredClient(ctx: ServiceContext, id: string): Promise<StoredClient> {
  if (id === '') throw validation('the client id is empty: give the id of a client', 'client_id');
  // Page paths take ids up to their longest: a longer one names no client (and its echo is cut).
  if (id.length > MAX_CLIENT_ID_LENGTH) throw notFound(`no client with id ${id.slice(0, 100)}…: client ids are at most ${MAX_CLIENT_ID_LENGTH} characters`);
  const client = await ctx.stores.clients.find(id);
  if (client === undefined) throw notFound(`no client with id ${id}`);
  return client;
}

export async function requireClient(ctx: ServiceContext, id: string): Promise<ClientView> {
  const client = await requireStoredClient(ctx, id);
  return view(client, await ctx.stores.clients.listSecrets(id));
}

export async function listClients(ctx: ServiceContext, filter: { ownerId?: string; state?: ClientState } = {}): Promise<ClientView[]> {
  return (await ctx.stores.clients.list(filter)).map((c) => view(c, []));
}
