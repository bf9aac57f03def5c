// Connection requests (docs/rules.md#connect-pages). On the platform, GET
// /v2/calendars/:calendar/connect and GET /v2/conferencing/:app/oauth/auth-url answer the
// provider's authorization address, where the user consents and is sent back to the application.
// Gatehouse runs no Google, Microsoft or Zoom OAuth, so the address it answers is a page of its
// own web app (src/web/connect-pages.ts): the signed-in user confirms the connection there, it
// is recorded as POST …/connect records it (connectCalendar, connectConferencingApp), and the
// user is sent back. The request is kept by its token's hash for ten minutes and used once.
import type { PlatformDeps } from '../deps.ts';
import { type AccessPrincipal, buildRedirect, generateToken, hashToken, isLoopbackHost, isWellFormed, Refusal } from '../authorization-server.ts';
import { calendarApp, CALENDAR_PROVIDERS, connectCalendar } from '../connected-apps/service.ts';
import { CONFERENCING_APPS, connectConferencingApp } from '../conferencing/service.ts';
import { invalid } from '../input.ts';
import type { ConnectionKind, ConnectionRequest, ConnectionRequestForPage } from './store.ts';

/** Ten minutes, as long as an authorization code lives at most (RFC 6749 §4.1.2): enough to log in and confirm. */
export const CONNECTION_REQUEST_TTL_MS = 10 * 60 * 1000;

/** The web app's connect page (src/web/connect-pages.ts serves it): the token is its path's last segment, which logs redact (docs/rules.md#private-records). */
const CONNECT_PAGE = '/settings/connect';

/** Who runs each provider's OAuth, as the page names them. */
const RUN_BY: Record<string, string> = { google: 'Google', office365: 'Microsoft', zoom: 'Zoom', msteams: 'Microsoft' };

/** The origin of a registered redirect URI; none for one that does not parse (a legacy client's may not). */
function originOf(uri: string): string[] {
  try {
    return [new URL(uri).origin];
  } catch {
    return [];
  }
}

/**
 * The check of the return addresses a request names, for the client whose token asked: an
 * absolute https address (http only on a loopback host, as docs/rules.md#redirect-uris allows
 * a redirect URI) on the origin of one of the client's registered redirect URIs. Anything else
 * would make the connect page an open redirector (RFC 9700 §4.11.2): 400 naming the field.
 */
export async function returnAddressCheck(deps: PlatformDeps, clientId: string): Promise<(value: string, field: string) => string> {
  const client = await deps.services.stores.clients.find(clientId);
  const origins = [...new Set((client?.redirectUris ?? []).flatMap(originOf))];
  return (value, field) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw invalid(field, 'must be an absolute address such as https://app.example.com/connected');
    }
    const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
    if (!scheme) throw invalid(field, 'must use https (http only on localhost, 127.0.0.1 or [::1])');
    if (url.username !== '' || url.password !== '') throw invalid(field, 'must not hold a user name or password (user:password@)');
    if (!origins.includes(url.origin)) {
      throw invalid(field, `must be on the origin of one of your application's redirect URIs (${origins.join(', ') || 'none registered'}), so that the page sends the user back to your application and nowhere else`);
    }
    // The address as the URL parser wrote it: what was checked is what is kept and redirected
    // to, and a character a Location header cannot carry is already percent-encoded.
    return url.href;
  };
}

export interface ConnectionAsked {
  kind: ConnectionKind;
  provider: string;
  returnTo: string | null;
  onErrorReturnTo: string | null;
}

/**
 * Keeps the request of the token's user and client (return addresses already checked) and
 * answers the connect page's address. A dry run keeps nothing: its address leads to the page
 * of an unknown request, as an expired one does.
 */
export async function requestConnection(deps: PlatformDeps, principal: AccessPrincipal, asked: ConnectionAsked, options: { dryRun: boolean }): Promise<string> {
  const token = generateToken('connectionRequestToken');
  if (!options.dryRun) {
    const now = deps.services.clock();
    await deps.services.stores.api.connectionRequests.insert({
      tokenHash: hashToken(token),
      userId: principal.userId,
      clientId: principal.clientId,
      ...asked,
      createdAt: now,
      expiresAt: now + CONNECTION_REQUEST_TTL_MS,
    });
  }
  return `${deps.config.appUrl}${CONNECT_PAGE}/${token}`;
}

/** A waiting request as the connect page shows it. */
export interface PendingConnection {
  userId: string;
  clientId: string;
  clientName: string;
  kind: ConnectionKind;
  /** What is connected: Google Calendar, Outlook Calendar, Zoom, Microsoft Teams. */
  title: string;
  /** Whose OAuth the platform would run, and Gatehouse does not: Google, Microsoft, Zoom. */
  runBy: string;
  returnTo: string | null;
  onErrorReturnTo: string | null;
  expiresAt: number;
}

export type Confirmation =
  /** Unknown, expired or used: the page of a link that does not work. */
  | { outcome: 'gone' }
  /** Made for another user: nothing is used or recorded. */
  | { outcome: 'not_yours' }
  /** Recorded and used; back to the application, or a page saying so when it gave no address. */
  | { outcome: 'connected'; request: PendingConnection; goTo: string | null }
  /** A conferencing app connected already: used, and the application hears error=already_connected. */
  | { outcome: 'already_connected'; goTo: string }
  /** A calendar account refused (400 not an address, 409 connected already): the request waits, the form says why. */
  | { outcome: 'refused'; request: PendingConnection; status: 400 | 409; message: string };

export type Cancellation = { outcome: 'gone' } | { outcome: 'not_yours' } | { outcome: 'cancelled'; goTo: string | null };

const pending = (r: ConnectionRequestForPage): PendingConnection => ({
  userId: r.userId,
  clientId: r.clientId,
  clientName: r.clientName,
  kind: r.kind,
  title: r.kind === 'calendar' ? calendarApp(CALENDAR_PROVIDERS[r.provider]!).title : CONFERENCING_APPS[r.provider]!.title,
  runBy: RUN_BY[r.provider]!,
  returnTo: r.returnTo,
  onErrorReturnTo: r.onErrorReturnTo,
  expiresAt: r.expiresAt,
});

/** Where the application hears that the connection was not made, as the platform's OAuth return would tell it. */
function errorReturn(request: ConnectionRequest, error: 'access_denied' | 'already_connected'): string | null {
  const to = request.kind === 'conferencing' ? request.onErrorReturnTo : request.returnTo;
  return to === null ? null : buildRedirect(to, { error });
}

/**
 * What the connect page asks of the requests: find one, confirm it, cancel it. The web app may
 * not import the platform wing (ARCHITECTURE.md), so app.ts hands this to the page.
 */
export function connectionRequestPages(deps: PlatformDeps) {
  const stores = deps.services.stores;
  const requests = stores.api.connectionRequests;
  const live = async (token: string) => (isWellFormed('connectionRequestToken', token) ? requests.findLive(hashToken(token), deps.services.clock()) : undefined);

  return {
    /** The live request of that token; undefined when it is malformed, unknown, expired or used. */
    find: async (token: string): Promise<PendingConnection | undefined> => {
      const found = await live(token);
      return found && pending(found);
    },

    /**
     * Uses the user's request and records its connection in one transaction: a refused
     * connection rolls the use back with it, so a calendar's form can be sent again.
     */
    confirm: async (userId: string, token: string, account: string): Promise<Confirmation> => {
      const found = await live(token);
      if (found === undefined) return { outcome: 'gone' };
      if (found.userId !== userId) return { outcome: 'not_yours' };
      const now = deps.services.clock();
      try {
        return await stores.transaction(async (tx): Promise<Confirmation> => {
          const request = await tx.api.connectionRequests.consume(found.tokenHash, userId, now);
          if (request === undefined) return { outcome: 'gone' };
          const inTx = { ...deps.services, stores: tx };
          if (request.kind === 'calendar') await connectCalendar(inTx, userId, request.provider, { account });
          else await connectConferencingApp(inTx, userId, request.provider);
          return { outcome: 'connected', request: pending(found), goTo: request.returnTo };
        });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        if (found.kind === 'calendar') {
          const { title } = pending(found);
          return error.kind === 'conflict'
            ? { outcome: 'refused', request: pending(found), status: 409, message: `That ${title} account is already connected to your account: enter another address, or cancel.` }
            : { outcome: 'refused', request: pending(found), status: 400, message: `Enter the e-mail address of your ${title} account, such as ann@example.com (at most 254 characters).` };
        }
        // The app is connected already: the request ends here, as the provider's error would end it on the platform.
        const used = await requests.consume(found.tokenHash, userId, now);
        return used === undefined ? { outcome: 'gone' } : { outcome: 'already_connected', goTo: errorReturn(used, 'already_connected')! };
      }
    },

    /** Uses the user's request, recording nothing; the application hears error=access_denied. */
    cancel: async (userId: string, token: string): Promise<Cancellation> => {
      const found = await live(token);
      if (found === undefined) return { outcome: 'gone' };
      if (found.userId !== userId) return { outcome: 'not_yours' };
      const used = await requests.consume(found.tokenHash, userId, deps.services.clock());
      return used === undefined ? { outcome: 'gone' } : { outcome: 'cancelled', goTo: errorReturn(used, 'access_denied') };
    },
  };
}
