// Request and response schemas of spaces, collections and their ordering.
import { Type } from '@sinclair/typebox';
import { ROLES, type Role } from '../../lib/roles.ts';

export const DefaultLevelSchema = Type.Unsafe<Role | 'inherit' | null>({
  type: 'string',
  enum: [...ROLES, 'inherit', null],
  nullable: true,
  description: 'Role members get by default: a role, "inherit" (from the parent collection or organization), or null',
});

export const VisibilitySchema = Type.Unsafe<'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private'>({
  type: 'string',
  enum: ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'],
  description: 'Who can read the space; "in-collection" only for spaces inside a collection',
});

export const EditModeSchema = Type.Unsafe<'live' | 'locked'>({
  type: 'string',
  enum: ['live', 'locked'],
  description: 'live: editable; locked: all edits refused',
});

export const SpaceTitle = Type.String({ maxLength: 50, description: 'Title of the space' });
export const Emoji = Type.String({ maxLength: 50, format: 'emoji', description: 'An emoji: its characters ("🎉") or code points in hex ("1f389")' });

const Pointer = Type.Union([
  Type.Object({ type: Type.Literal('space'), space: Type.String({ minLength: 1, maxLength: 100 }) }),
  Type.Object({ type: Type.Literal('collection'), collection: Type.String({ minLength: 1, maxLength: 100 }) }),
]);

export const PositionSchema = Type.Object(
  { before: Type.Optional(Pointer), after: Type.Optional(Pointer) },
  { description: 'Where to place the item among its siblings; omitted: at the end' },
);

export const MoveBody = Type.Object({
  parent: Type.Optional(
    Type.Unsafe<string | null>({ type: 'string', nullable: true, maxLength: 100, description: 'Parent collection id, or null for the top level' }),
  ),
  position: Type.Optional(PositionSchema),
});

const booleanFlag = (description: string) => Type.Boolean({ description });

export const SpaceSchema = Type.Object({
  object: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  emoji: Type.String(),
  visibility: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  deletedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the space was deleted (only for a space in the trash)' })),
  purgeAt: Type.Optional(Type.String({ format: 'date-time', description: 'Quire: when the purge job removes the deleted space for good' })),
  editMode: Type.String(),
  mergeRules: Type.Object({ type: Type.Literal('inherit') }, { description: "The organization's merge rules apply" }),
  urls: Type.Object({ location: Type.String(), app: Type.String() }),
  organization: Type.String(),
  parent: Type.Optional(Type.String({ description: 'Parent collection id' })),
  revision: Type.String({ description: 'Id of the active revision' }),
  defaultLevel: DefaultLevelSchema,
  comments: Type.Number({ description: 'Open comments' }),
  changeRequests: Type.Number({ description: 'All change requests' }),
  changeRequestsOpen: Type.Number(),
  changeRequestsDraft: Type.Number(),
  gitSync: Type.Optional(
    Type.Object(
      { repoName: Type.String(), installationProvider: Type.Optional(Type.String()), url: Type.String(), updatedAt: Type.String() },
      { description: 'The git repository the space syncs with (Git Sync)' },
    ),
  ),
  permissions: Type.Object({
    view: booleanFlag('Can the caller read the content'),
    access: booleanFlag('Can the caller open the space'),
    admin: booleanFlag('Can the caller manage the space'),
    viewInviteLinks: booleanFlag('Can the caller see invite links'),
    edit: booleanFlag('Can the caller edit the content'),
    triggerGitSync: booleanFlag('Can the caller trigger a git sync'),
    comment: booleanFlag('Can the caller comment'),
    merge: booleanFlag('Can the caller merge change requests'),
    review: booleanFlag('Can the caller review change requests'),
    installIntegration: booleanFlag('Can the caller install integrations'),
  }),
});

export const CollectionSchema = Type.Object({
  object: Type.Literal('collection'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  defaultLevel: DefaultLevelSchema,
  urls: Type.Object({ location: Type.String(), app: Type.String() }),
  permissions: Type.Object({
    view: booleanFlag('Can the caller see the collection'),
    admin: booleanFlag('Can the caller manage the collection'),
    viewInviteLinks: booleanFlag('Can the caller see invite links'),
    create: booleanFlag('Can the caller create content in it'),
  }),
});
