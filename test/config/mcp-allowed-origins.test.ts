// MCP_ALLOWED_ORIGINS (docs/rules.md#mcp-server): the origins of web pages, beyond Gatehouse's own
// and its approved applications', whose requests /mcp serves. Each entry is an origin as a
// browser's Origin header writes it; anything else fails at start with a message naming the
// variable. And the public booking limits' defaults (docs/rules.md#rate-limits).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

describe('MCP_ALLOWED_ORIGINS', () => {
  it('is empty by default', () => {
    expect(loadConfig({}).mcpAllowedOrigins).toEqual([]);
  });

  it('takes comma-separated origins and keeps them as an Origin header writes them (lower-case host, no default port, no slash)', () => {
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: ' https://Agent.Example.com/ ,http://localhost:6274,https://tools.example.net:443, https://agent.example.com' }).mcpAllowedOrigins).toEqual([
      'https://agent.example.com',
      'http://localhost:6274',
      'https://tools.example.net',
    ]);
  });

  it('refuses anything that is not an origin at start, naming MCP_ALLOWED_ORIGINS and the entry', () => {
    for (const value of ['*', 'null', 'agent.example.com', 'https://agent.example.com/mcp', 'https://agent.example.com?x=1', 'https://user@agent.example.com', 'ftp://agent.example.com', 'https://*.example.com', 'https://agent.example.com#top']) {
      expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: `https://ok.example.com, ${value}` }), value).toThrow(ConfigError);
      expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: `https://ok.example.com, ${value}` }), value).toThrow(new RegExp(`^MCP_ALLOWED_ORIGINS must list origins.*"${value.replace(/[.*?+^$()|[\]\\]/g, '\\$&')}" is not one`));
    }
  });
});

describe('public booking limits', () => {
  it('count 20 writes per IP and 60 per event type an hour by default; 0 turns each off (docs/rules.md#rate-limits)', () => {
    expect(loadConfig({}).rateLimits).toMatchObject({ publicBookingsPerIpPerHour: 20, publicBookingsPerEventTypePerHour: 60 });
    expect(loadConfig({ RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR: '0', RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR: '0' }).rateLimits).toMatchObject({ publicBookingsPerIpPerHour: 0, publicBookingsPerEventTypePerHour: 0 });
    expect(() => loadConfig({ RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR: 'many' })).toThrow(/^RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR/);
  });
});
