// Words on the pages: a redirect URI with a query string is
// allowed but warned about, on the form and on the client page; a name or a reviewer's note
// that ends in "." gets no second one; the page for an unknown address offers a logged-in
// user their account, not "Log in". How they look at 390 and 1280 px is
// test/e2e/browser-pages.test.ts's (its rough-edges block).
import { beforeAll, describe, expect, it } from 'vitest';
import { reviewClient } from '../../../src/services/clients/review.ts';
import { addMember, createOrganization, createTeam } from '../../../src/services/teams/teams.ts';
import type { Backend } from '../../helpers/backends.ts';
import { loggedIn, open, submit, textOf, visibleText } from '../../helpers/pages.ts';
import type { TestServer } from '../../helpers/server.ts';

const LIST = '/settings/developer/oauth-clients';
const NEW = `${LIST}/new`;
const withQuery = 'https://sync.example.com/cb?tenant=acme';

export function pageWords({ available }: Backend, shared: () => TestServer): void {
  describe('page words', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = shared();
    });

    it.skipIf(!available)('the registration form says what a query string in a redirect URI does; one given is registered and warned about (RFC 6749 §3.1.2)', async () => {
      const { browser } = await loggedIn(server);
      const form = await open(browser, NEW);
      expect(textOf(form.body, 'redirect_uris-hint')).toContain(
        'Avoid a query string (?…): some libraries, openid-client among them, leave it out of the code exchange, which then fails.',
      );
      expect(textOf(form.body, 'redirect_uris-query')).toBeNull();

      const posted = await submit(browser, NEW, LIST, {
        name: 'Tenant Sync',
        kind: 'confidential',
        redirect_uris: `https://sync.example.com/cb\n${withQuery}`,
        scopes: ['PROFILE_READ'],
      });
      expect(posted.status).toBe(303);
      const page = await browser.follow(posted);
      expect(page.status).toBe(200);
      expect(textOf(page.body, 'redirect-query-warning')).toBe(
        `A redirect URI has a query string: ${withQuery} Gatehouse accepts it and compares it exactly, but some client libraries, openid-client among them, ` +
          'send the redirect URI without its query in the code exchange, which then fails with invalid_grant. Put what varies in the path instead ' +
          '(/callback/acme rather than /callback?tenant=acme), or check that your library sends the URI as registered.',
      );
      const clientId = textOf(page.body, 'client-id')!;
      const edit = await open(browser, `${LIST}/${clientId}/edit`);
      expect(textOf(edit.body, 'redirect_uris-query')).toMatch(new RegExp(`^A redirect URI has a query string: ${withQuery.replace(/[?.]/g, '\\$&')} Gatehouse accepts it`));

      // A form sent back with an error warns as well, beside the field.
      const refused = await submit(browser, NEW, LIST, { name: '', kind: 'confidential', redirect_uris: withQuery, scopes: ['PROFILE_READ'] });
      expect(refused.status).toBe(400);
      expect(textOf(refused.body, 'redirect_uris-query')).toContain(withQuery);

      // Without a query string, no warning.
      const plain = await submit(browser, NEW, LIST, { name: 'Plain Sync', kind: 'confidential', redirect_uris: 'https://sync.example.com/cb', scopes: ['PROFILE_READ'] });
      expect(textOf((await browser.follow(plain)).body, 'redirect-query-warning')).toBeNull();
    });

    it.skipIf(!available)('a reviewer’s note or an organization’s name that ends in "." gets no second one', async () => {
      const { user, browser } = await loggedIn(server);
      const rejected = await server.client(user, { name: 'Rejected App', state: 'pending' });
      await reviewClient(server.services, rejected.clientId, 'reject', null, 'Uses a redirect URI on another domain.');
      expect(textOf((await open(browser, `${LIST}/${rejected.clientId}`)).body, 'state-note')).toMatch(/^Rejected by a platform admin: Uses a redirect URI on another domain\. Fix what/);
      const suspended = await server.client(user, { name: 'Suspended App' });
      await reviewClient(server.services, suspended.clientId, 'suspend', null, 'Sent spam!');
      expect(textOf((await open(browser, `${LIST}/${suspended.clientId}`)).body, 'state-note')).toMatch(/^Suspended by a platform admin: Sent spam! Its tokens/);
      // A note without one still ends its sentence.
      const other = await server.client(user, { name: 'Other App', state: 'pending' });
      await reviewClient(server.services, other.clientId, 'reject', null, 'No privacy policy');
      expect(textOf((await open(browser, `${LIST}/${other.clientId}`)).body, 'state-note')).toMatch(/^Rejected by a platform admin: No privacy policy\. Fix what/);

      const owner = await server.user({ name: 'Olive Owner' });
      const org = await createOrganization(server.services, { name: 'Acme Inc.', ownerId: owner.id });
      const team = await createTeam(server.services, { name: 'Sales', ownerId: owner.id, organizationId: org.id });
      await addMember(server.services, { teamId: team.id }, user.id, 'member');
      const teams = visibleText((await open(browser, '/settings/teams')).body);
      expect(teams).toContain('Sales Team in Acme Inc. Your role: member');
      expect(teams).not.toContain('Inc..');
    });

    it.skipIf(!available)('the page for an unknown address offers a logged-in user their account, not "Log in"', async () => {
      const { browser } = await loggedIn(server, { name: 'Nadia Known' });
      const missing = await browser.get('/no-such-page');
      expect(missing.status).toBe(404);
      const header = /<header class="top">[\s\S]*?<\/header>/.exec(missing.body)![0];
      expect(visibleText(header)).toContain('Nadia Known');
      expect(header).toContain('href="/logout"');
      expect(header).not.toContain('href="/login"');
      expect(textOf(missing.body, 'error-message')).not.toBeNull();

      // Nobody logged in (or a session that ended): "Log in", as before.
      const anonymous = await server.browser().get('/no-such-page');
      expect(anonymous.status).toBe(404);
      expect(/<header class="top">[\s\S]*?<\/header>/.exec(anonymous.body)![0]).toContain('href="/login"');
      const stale = await fetch(`${server.url}/no-such-page`, { headers: { cookie: 'gh_session=not-a-session' } });
      expect(stale.status).toBe(404);
      expect(await stale.text()).toContain('<a href="/login">Log in</a>');
      // An unknown API address still answers the envelope.
      const api = await fetch(`${server.url}/v2/nothing-here`, { headers: { cookie: browser.cookieHeader() } });
      expect(api.status).toBe(404);
      expect(await api.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    });
  });
}
