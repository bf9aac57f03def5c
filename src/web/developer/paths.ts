// Developer settings addresses (docs/rules.md#surfaces).
export const DEVELOPER_CLIENTS = '/settings/developer/oauth-clients';

export function clientPath(clientId: string): string {
  return clientId === '' ? DEVELOPER_CLIENTS : `${DEVELOPER_CLIENTS}/${encodeURIComponent(clientId)}`;
}
