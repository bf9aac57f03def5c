// docs/rules.md#protected-resource-metadata, docs/rules.md#client-metadata-documents, docs/rules.md#dynamic-registration and the MCP authorization spec's scope selection (SEP-835): an agent asks
// for the scopes /mcp names, so /mcp names what an agent nobody made by hand can be given
// through every door that is open — a metadata document (CIMD_SCOPES) and registration
// (DCR_SCOPES) — and the operator is told when the two disagree.
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultUnreviewedScopes, loadConfig } from '../../src/config/index.ts';

describe('the scopes /mcp names for agents', () => {
  it('are the personal read scopes by default, where both settings start', () => {
    expect(loadConfig({}).agentScopes).toEqual(defaultUnreviewedScopes);
  });

  it('follow CIMD_SCOPES while registration is off (the default), and DCR_SCOPES while metadata documents are off', () => {
    expect(loadConfig({ CIMD_SCOPES: 'PROFILE_READ,BOOKING_WRITE', DCR_SCOPES: 'PROFILE_READ' }).agentScopes).toEqual(['BOOKING_WRITE', 'PROFILE_READ']); // in the registry's order
    expect(loadConfig({ CIMD_POLICY: 'off', DCR_POLICY: 'open', CIMD_SCOPES: 'PROFILE_READ,BOOKING_WRITE', DCR_SCOPES: 'PROFILE_READ' }).agentScopes).toEqual(['PROFILE_READ']);
  });

  it("docs/integrating.md#sign-in-with-gatehouse: OpenID Connect's identity scopes pass through both doors as the platform's do", () => {
    const config = loadConfig({ CIMD_SCOPES: 'openid,profile,email,PROFILE_READ', DCR_SCOPES: 'openid,email,PROFILE_READ' });
    expect(config.clientMetadata.scopes).toEqual(['openid', 'profile', 'email', 'PROFILE_READ']);
    expect(config.registration.scopes).toEqual(['openid', 'email', 'PROFILE_READ']);
    expect(() => loadConfig({ CIMD_SCOPES: 'openid,nonsense' })).toThrow(ConfigError);
  });

  it('are what both doors grant when both are open, with a warning that names the two settings', () => {
    const config = loadConfig({ DCR_POLICY: 'open', CIMD_SCOPES: 'PROFILE_READ,BOOKING_READ,BOOKING_WRITE', DCR_SCOPES: 'PROFILE_READ,BOOKING_READ,SCHEDULE_READ' });
    expect(config.agentScopes).toEqual(['BOOKING_READ', 'PROFILE_READ']);
    expect(config.warnings.join('\n')).toMatch(/CIMD_SCOPES and DCR_SCOPES differ while metadata documents and open registration are both on: \/mcp names only the scopes both allow \(BOOKING_READ PROFILE_READ\)/);
    expect(loadConfig({ DCR_POLICY: 'open' }).warnings.join('\n')).not.toMatch(/CIMD_SCOPES and DCR_SCOPES/);
  });
  it('under DCR_POLICY=review, which accepts any scope for an admin to judge, follow the metadata documents, or DCR_SCOPES (what a registration asking for none gets) when they are off', () => {
    const both = { DCR_POLICY: 'review', CIMD_SCOPES: 'PROFILE_READ,BOOKING_WRITE', DCR_SCOPES: 'PROFILE_READ' };
    expect(loadConfig(both).agentScopes).toEqual(['BOOKING_WRITE', 'PROFILE_READ']);
    expect(loadConfig(both).warnings.join('\n')).not.toMatch(/CIMD_SCOPES and DCR_SCOPES/);
    expect(loadConfig({ ...both, CIMD_POLICY: 'off' }).agentScopes).toEqual(['PROFILE_READ']);
  });

  it('refuse to start when both doors hold agents to sets with nothing in common, naming the settings', () => {
    const disjoint = { DCR_POLICY: 'open', CIMD_SCOPES: 'BOOKING_WRITE', DCR_SCOPES: 'PROFILE_READ' };
    expect(() => loadConfig(disjoint)).toThrow(ConfigError);
    expect(() => loadConfig(disjoint)).toThrow(/^CIMD_SCOPES and DCR_SCOPES have no scope in common/);
    expect(loadConfig({ ...disjoint, DCR_POLICY: 'review' }).agentScopes).toEqual(['BOOKING_WRITE']);
  });
});
