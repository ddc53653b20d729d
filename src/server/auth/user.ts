// The caller as the auth layer sees it: identify() produces it, authorize() reads it.
export interface AuthUser {
  id: number;
  username: string;
  roles: string[];
  isActive: boolean;
}

/** The role that is allowed every intent with no row scope (PROTOCOL.md 5). */
export const ADMIN_ROLE = 'admin';
