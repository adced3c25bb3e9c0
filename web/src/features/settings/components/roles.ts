import type { Role } from '../api/organization.ts';

/** The roles from least to most, as people read them; '' is a guest (no role in the organization). */
export const ROLE_OPTIONS: Array<{ value: Role | ''; label: string }> = [
  { value: 'read', label: 'Reader' },
  { value: 'comment', label: 'Commenter' },
  { value: 'edit', label: 'Editor' },
  { value: 'review', label: 'Reviewer' },
  { value: 'create', label: 'Creator' },
  { value: 'admin', label: 'Administrator' },
];

export const GUEST_OPTION = { value: '', label: 'Guest (no role)' };

export const roleLabel = (role: Role | null) => ROLE_OPTIONS.find((option) => option.value === role)?.label ?? 'Guest';
