import { describe, expect, it } from 'vitest';
import { Forbidden, NotFound } from '../../src/errors.ts';
import { ROLES, highestRole, roleAtLeast } from '../../src/lib/roles.ts';
import { authorizeOrganization, organizationPermissions, teamPermissions } from '../../src/policies/organization.ts';
import { authorizeSpaceStanding, spacePermissions, spaceRole, spaceStanding } from '../../src/policies/content.ts';
import { authorizeComment, commentPermissions, type CommentPermissions } from '../../src/policies/comment.ts';

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

describe('space policy', () => {
  const outsider = { organization: undefined, collections: new Map(), grants: new Map() };
  const member = { organization: { isMember: true, role: 'read' as const, ownsTeam: false }, collections: new Map(), grants: new Map() };
  const space = { id: 's1', parentId: null, defaultLevel: 'inherit', visibility: 'private', shareKey: 'key' };

  it('gives outsiders of an opened space the published standing, never a role', () => {
    expect(spaceStanding(outsider, space)).toBeNull();
    expect(spaceStanding(outsider, { ...space, visibility: 'public' })).toBe('published');
    expect(spaceStanding(outsider, { ...space, visibility: 'share-link' }, 'key')).toBe('published');
    expect(spaceStanding(outsider, { ...space, visibility: 'share-link' }, 'other')).toBeNull();
    expect(spaceStanding(outsider, { ...space, publishedOpenly: true })).toBe('published');
    expect(spaceStanding(member, { ...space, visibility: 'public' })).toBe('read');
    expect(spaceRole(outsider, { ...space, visibility: 'public' })).toBeNull();
  });

  it('lets the published standing view and nothing else, and hides drafts from it with 404', () => {
    const permissions = spacePermissions('published');
    expect(Object.entries(permissions).filter(([, granted]) => granted).map(([name]) => name).sort()).toEqual(['access', 'view']);
    expect(authorizeSpaceStanding('published', 'view', 's1')).toBe('published');
    expect(() => authorizeSpaceStanding('published', 'edit', 's1')).toThrow(Forbidden);
    expect(() => authorizeSpaceStanding('published', 'view', 's1', 'drafts')).toThrow(NotFound);
    expect(authorizeSpaceStanding('read', 'view', 's1', 'drafts')).toBe('read');
    expect(() => authorizeSpaceStanding(null, 'view', 's1')).toThrow(NotFound);
  });
});

describe('comment policy', () => {
  const comment = { postedBy: 'author' };

  it('lets the author edit and delete, an admin delete, and anyone who may comment reply', () => {
    expect(commentPermissions('author', 'comment', comment)).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(commentPermissions('author', 'read', comment)).toEqual({ view: true, edit: true, reply: false, delete: true });
    expect(commentPermissions('other', 'admin', comment)).toEqual({ view: true, edit: false, reply: true, delete: true });
    expect(commentPermissions('other', 'review', comment)).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(commentPermissions('other', 'read', comment)).toEqual({ view: true, edit: false, reply: false, delete: false });
  });

  it('refuses with 403 exactly what the permissions object leaves out', () => {
    for (const [userId, role] of [['author', 'read'], ['other', 'admin'], ['other', 'comment']] as const) {
      for (const [permission, granted] of Object.entries(commentPermissions(userId, role, comment))) {
        const check = () => authorizeComment(userId, role, comment, permission as keyof CommentPermissions);
        if (granted) expect(check).not.toThrow();
        else expect(check).toThrow(Forbidden);
      }
    }
    expect(() => authorizeComment('other', 'admin', comment, 'edit')).toThrow('Only the author may change what a comment says');
    expect(() => authorizeComment('other', 'review', comment, 'delete')).toThrow('Only the author or an administrator of the space may delete this');
  });
});
