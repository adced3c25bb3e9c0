// Collection and space objects.
import type { CollectionRow } from '../db/repos/collections.ts';
import type { SpaceWithCounters } from '../db/repos/spaces.ts';
import { toCount } from '../db/dialect.ts';
import type { Role } from '../lib/roles.ts';
import { collectionPermissions, spacePermissions } from '../policies/content.ts';

/** Stored default levels: a role, "inherit", or "none" for null (no access by default). */
export function presentDefaultLevel(stored: string): Role | 'inherit' | null {
  return stored === 'none' ? null : (stored as Role | 'inherit');
}

export function storedDefaultLevel(level: Role | 'inherit' | null): string {
  return level ?? 'none';
}

export function presentCollection(publicUrl: string, collection: CollectionRow, role: Role | null) {
  return {
    object: 'collection' as const,
    id: collection.id,
    title: collection.title,
    ...(collection.description !== null ? { description: collection.description } : {}),
    organization: collection.organization_id,
    ...(collection.parent_id ? { parent: collection.parent_id } : {}),
    defaultLevel: presentDefaultLevel(collection.default_level),
    urls: {
      location: `${publicUrl}/v1/collections/${collection.id}`,
      app: `${publicUrl}/o/${collection.organization_id}/c/${collection.id}/`,
    },
    permissions: collectionPermissions(role),
  };
}

export function presentSpace(publicUrl: string, space: SpaceWithCounters, role: Role | null) {
  return {
    object: 'space' as const,
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility,
    createdAt: space.created_at,
    updatedAt: space.updated_at,
    ...(space.deleted_at ? { deletedAt: space.deleted_at } : {}),
    editMode: space.edit_mode,
    urls: {
      location: `${publicUrl}/v1/spaces/${space.id}`,
      app: `${publicUrl}/s/${space.id}/`,
    },
    organization: space.organization_id,
    ...(space.parent_id ? { parent: space.parent_id } : {}),
    revision: space.revision_id,
    defaultLevel: presentDefaultLevel(space.default_level),
    comments: toCount(space.comments_open),
    changeRequests: toCount(space.change_requests_total),
    changeRequestsOpen: toCount(space.change_requests_open),
    changeRequestsDraft: toCount(space.change_requests_draft),
    permissions: spacePermissions(role),
  };
}
