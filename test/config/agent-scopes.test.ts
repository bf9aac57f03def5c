// SPEC §10.2–10.4 and the MCP authorization spec's scope selection (SEP-835): an agent asks
// for the scopes /mcp names, so /mcp names what an agent nobody made by hand can be given
// through every door that is open — a metadata document (CIMD_SCOPES) and registration
// (DCR_SCOPES) — and the operator is told when the two disagree.
import { describe, expect, it } from 'vitest';
import { defaultUnreviewedScopes, loadConfig } from '../../src/config/index.ts';

describe('the scopes /mcp names for agents', () => {
  it('are the personal read scopes by default, where both settings start', () => {
    expect(loadConfig({}).agentScopes).toEqual(defaultUnreviewedScopes);
  });

  it('follow CIMD_SCOPES while registration is off (the default), and DCR_SCOPES while metadata documents are off', () => {
    expect(loadConfig({ CIMD_SCOPES: 'PROFILE_READ,BOOKING_WRITE', DCR_SCOPES: 'PROFILE_READ' }).agentScopes).toEqual(['BOOKING_WRITE', 'PROFILE_READ']); // in the registry's order
    expect(loadConfig({ CIMD_POLICY: 'off', DCR_POLICY: 'open', CIMD_SCOPES: 'PROFILE_READ,BOOKING_WRITE', DCR_SCOPES: 'PROFILE_READ' }).agentScopes).toEqual(['PROFILE_READ']);
  });

  it('are what both doors grant when both are open, with a warning that names the two settings', () => {
    const config = loadConfig({ DCR_POLICY: 'open', CIMD_SCOPES: 'PROFILE_READ,BOOKING_READ,BOOKING_WRITE', DCR_SCOPES: 'PROFILE_READ,BOOKING_READ,SCHEDULE_READ' });
    expect(config.agentScopes).toEqual(['BOOKING_READ', 'PROFILE_READ']);
    expect(config.warnings.join('\n')).toMatch(/CIMD_SCOPES and DCR_SCOPES differ: \/mcp names only the scopes both allow \(BOOKING_READ PROFILE_READ\)/);
    expect(loadConfig({ DCR_POLICY: 'open' }).warnings.join('\n')).not.toMatch(/CIMD_SCOPES and DCR_SCOPES/);
  });
});
