// Admin review addresses (SPEC §1).
export const ADMIN_CLIENTS = '/admin/oauth-clients';

export function adminClientPath(clientId: string): string {
  return `${ADMIN_CLIENTS}/${encodeURIComponent(clientId)}`;
}
