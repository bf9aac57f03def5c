// Admin review addresses (docs/rules.md#surfaces).
export const ADMIN_CLIENTS = '/admin/oauth-clients';

export function adminClientPath(clientId: string): string {
  return `${ADMIN_CLIENTS}/${encodeURIComponent(clientId)}`;
}
