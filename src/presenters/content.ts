// Collection and space objects.
import { presentSpaceGitSync } from './gitSync.ts';
import type { Role } from '../lib/roles.ts';
import { purgeDate } from '../lib/spaceRetention.ts';
import { collectionPermissions, spacePermissions, type SpaceStanding } from '../policies/content.ts';
import type { SpaceWithCounters, CollectionRow } from '../db/schema.ts';

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

/**
 * A space as a caller with `standing` sees it. Readers of its published content (and
 * callers with no role on it, as in a site's structure) see no private fields: not the
 * collection it sits in, its default level, nor the counts of its drafts and comments.
 */
export function presentSpace(publicUrl: string, space: SpaceWithCounters, standing: SpaceStanding) {
  const member = standing !== null && standing !== 'published';
  return {
    object: 'space' as const,
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility,
    createdAt: space.created_at,
    updatedAt: space.updated_at,
    ...(space.deleted_at ? { deletedAt: space.deleted_at, purgeAt: purgeDate(space.deleted_at) } : {}),
    editMode: space.edit_mode,
    // Quire's merge rules are the organization's, for every space.
    mergeRules: { type: 'inherit' as const },
    urls: {
      location: `${publicUrl}/v1/spaces/${space.id}`,
      app: `${publicUrl}/s/${space.id}/`,
    },
    organization: space.organization_id,
    ...(member && space.parent_id ? { parent: space.parent_id } : {}),
    revision: space.revision_id,
    defaultLevel: member ? presentDefaultLevel(space.default_level) : null,
    comments: member ? space.comments_open : 0,
    changeRequests: member ? space.change_requests_total : 0,
    changeRequestsOpen: member ? space.change_requests_open : 0,
    changeRequestsDraft: member ? space.change_requests_draft : 0,
    ...(member && space.git_url ? { gitSync: presentSpaceGitSync({ url: space.git_url, provider: space.git_provider, tree_url: space.git_tree_url, updated_at: space.git_updated_at! }) } : {}),
    permissions: spacePermissions(standing),
  };
}
