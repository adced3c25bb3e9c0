// The role ladder shared by organizations, collections and spaces.
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && value in RANK;
}

/** true when `role` is at least `required`; a guest (null) or non-member reaches nothing. */
export function roleAtLeast(role: Role | null | undefined, required: Role): boolean {
  return role != null && RANK[role] >= RANK[required];
}

export function highestRole(...roles: Array<Role | null | undefined>): Role | null {
  let best: Role | null = null;
  for (const role of roles) if (role && (!best || RANK[role] > RANK[best])) best = role;
  return best;
}
