export const ROLES = ['user', 'super_admin', 'data_entry'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  user: 'User',
  super_admin: 'Super Admin',
  data_entry: 'Data Entry Officer',
};
