import { describe, expect, it } from 'vitest';
import { Forbidden, NotFound } from '../../src/errors.ts';
import { ROLES, highestRole, roleAtLeast } from '../../src/lib/roles.ts';
import { authorizeOrganization, organizationPermissions, teamPermissions } from '../../src/policies/organization.ts';

describe('roles', () => {
  it('orders read < comment < edit < review < create < admin', () => {
    expect(ROLES).toEqual(['read', 'comment', 'edit', 'review', 'create', 'admin']);
    for (const [index, role] of ROLES.entries()) {
      for (const [other, required] of ROLES.entries()) expect(roleAtLeast(role, required)).toBe(index >= other);
    }
    expect(roleAtLeast(null, 'read')).toBe(false);
    expect(highestRole('edit', null, 'review', 'read')).toBe('review');
    expect(highestRole(null, undefined)).toBeNull();
  });
});

describe('organization policy', () => {
  it('grants each permission from the role, and nothing to non-members', () => {
    const admin = organizationPermissions({ isMember: true, role: 'admin', ownsTeam: false });
    expect(Object.values(admin).filter((granted) => !granted)).toEqual([false]);
    expect(admin.ownTeam).toBe(false);
    const reader = organizationPermissions({ isMember: true, role: 'read', ownsTeam: true });
    expect(reader).toMatchObject({ view: true, admin: false, ownTeam: true, createContent: false, listMembers: true });
    const guest = organizationPermissions({ isMember: true, role: null, ownsTeam: false });
    expect(guest).toMatchObject({ view: true, listMembers: false, listTeams: false });
    const outsider = organizationPermissions({ isMember: false, role: 'admin', ownsTeam: true });
    expect(Object.values(outsider).every((granted) => !granted)).toBe(true);
  });

  it('answers 404 to non-members and 403 to members without the permission', () => {
    expect(() => authorizeOrganization(undefined, 'view', 'o1')).toThrow(NotFound);
    expect(() => authorizeOrganization({ isMember: false, role: null, ownsTeam: false }, 'view', 'o1')).toThrow(NotFound);
    expect(() => authorizeOrganization({ isMember: true, role: 'create', ownsTeam: false }, 'admin', 'o1')).toThrow(Forbidden);
    expect(authorizeOrganization({ isMember: true, role: 'create', ownsTeam: false }, 'createContent', 'o1').role).toBe('create');
  });

  it('lets organization admins and team owners manage a team', () => {
    expect(teamPermissions({ isMember: true, role: 'admin', ownsTeam: false }, null)).toEqual({ admin: true, view: true });
    expect(teamPermissions({ isMember: true, role: 'read', ownsTeam: true }, 'owner')).toEqual({ admin: true, view: true });
    expect(teamPermissions({ isMember: true, role: 'edit', ownsTeam: false }, 'member')).toEqual({ admin: false, view: true });
  });
});
