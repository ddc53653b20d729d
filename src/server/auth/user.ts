// The caller as the auth layer sees it: identify() produces it, authorize() reads it.
export interface AuthUser {
  id: number;
  username: string;
  roles: string[];
  isActive: boolean;
}

/** The role that is allowed every intent with no row scope (docs/protocol.md "Permissions and row scopes"). */
export const ADMIN_ROLE = 'admin';
