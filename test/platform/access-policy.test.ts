// The platform API's access decision, pure (ARCHITECTURE.md#three-layers-of-tests, first layer): scope match
// (docs/rules.md#scope-checks) and the membership rules of docs/rules.md#membership-rules.
import { describe, expect, it } from 'vitest';
import { decideMembership, type AccessFacts } from '../../src/platform/membership.ts';
import { grantSatisfies } from '../../src/oauth/scopes.ts';

const team = (role: 'member' | 'admin' | 'owner' | null, orgRole: 'member' | 'admin' | 'owner' | null = null, organizationId: string | null = 'org1'): AccessFacts => ({
  team: { id: 't1', organizationId, role, organizationRole: orgRole },
});

describe('grantSatisfies', () => {
  it('a legacy grant passes every scope check (docs/rules.md#scope-checks)', () => {
    expect(grantSatisfies(null, 'ORG_WEBHOOK_WRITE')).toBe(true);
  });
  it('ORG_<X> satisfies TEAM_<X> and nothing else (docs/rules.md#scope-checks)', () => {
    expect(grantSatisfies(['ORG_BOOKING_READ'], 'TEAM_BOOKING_READ')).toBe(true);
    expect(grantSatisfies(['ORG_BOOKING_READ'], 'BOOKING_READ')).toBe(false);
    expect(grantSatisfies(['TEAM_BOOKING_READ'], 'ORG_BOOKING_READ')).toBe(false);
    expect(grantSatisfies(['ORG_BOOKING_READ'], 'TEAM_BOOKING_WRITE')).toBe(false);
  });
  it('the scope itself matches directly', () => {
    expect(grantSatisfies(['TEAM_BOOKING_READ'], 'TEAM_BOOKING_READ')).toBe(true);
  });
});

describe('decideMembership (docs/rules.md#membership-rules)', () => {
  const read = { membership: 'team-member' as const };
  const write = { membership: 'team-admin' as const };

  it('team reads need membership; writes need admin or owner', () => {
    expect(decideMembership(read, team('member'), undefined)).toBeNull();
    expect(decideMembership(read, team(null), undefined)?.code).toBe('forbidden');
    expect(decideMembership(write, team('member'), undefined)?.code).toBe('forbidden');
    expect(decideMembership(write, team('admin'), undefined)).toBeNull();
    expect(decideMembership(write, team('owner'), undefined)).toBeNull();
  });

  it("an organization admin may use the organization's team routes without being in the team", () => {
    expect(decideMembership(write, team(null, 'admin'), undefined)).toBeNull();
    expect(decideMembership(write, team(null, 'member'), undefined)?.code).toBe('forbidden');
  });

  it('ORG_<X> passes the scope check; team and organization roles then decide as for TEAM_<X> (docs/rules.md#scope-checks, docs/rules.md#membership-rules)', () => {
    expect(decideMembership(read, team(null, 'owner'), undefined)).toBeNull();
    expect(decideMembership(read, team('member', null), undefined)).toBeNull();
    expect(decideMembership(write, team('member', null), undefined)?.code).toBe('forbidden');
    expect(decideMembership(read, team(null, 'member'), undefined)?.code).toBe('forbidden');
  });

  it('a legacy grant gets no bypass: its user’s real memberships decide', () => {
    expect(decideMembership(read, team(null), undefined)?.code).toBe('forbidden');
    expect(decideMembership(read, team('member'), undefined)).toBeNull();
    expect(decideMembership({ membership: 'org-admin' }, { organization: { id: 'o', role: 'member' } }, undefined)?.code).toBe('forbidden');
  });

  it('an unknown team, or a team outside the organization of the path, is 404', () => {
    expect(decideMembership(read, { team: null }, undefined)?.status).toBe(404);
    expect(decideMembership(read, team('owner', 'owner', 'org1'), 'org2')?.status).toBe(404);
    expect(decideMembership(read, team('owner', null, null), 'org1')?.status).toBe(404);
    expect(decideMembership(read, team('owner', 'owner', 'org1'), 'org1')).toBeNull();
  });

  it('organization routes need admin or owner in the organization; an unknown one is 404', () => {
    const org = { membership: 'org-admin' as const };
    expect(decideMembership(org, { organization: { id: 'o', role: 'admin' } }, 'o')).toBeNull();
    expect(decideMembership(org, { organization: { id: 'o', role: 'member' } }, 'o')?.code).toBe('forbidden');
    expect(decideMembership(org, { organization: { id: 'o', role: null } }, 'o')?.code).toBe('forbidden');
    expect(decideMembership(org, { organization: null }, 'o')?.status).toBe(404);
  });

  it("a member's own view of the organization needs membership of any role; an unknown one is 404", () => {
    const mine = { membership: 'org-member' as const };
    expect(decideMembership(mine, { organization: { id: 'o', role: 'member' } }, 'o')).toBeNull();
    expect(decideMembership(mine, { organization: { id: 'o', role: 'owner' } }, 'o')).toBeNull();
    expect(decideMembership(mine, { organization: { id: 'o', role: null } }, 'o')?.code).toBe('forbidden');
    expect(decideMembership(mine, { organization: null }, 'o')?.status).toBe(404);
  });
});
