// Change request objects.
import { presentUser } from './user.ts';
import { baseOf, type ChangeRequestWithAuthor, type SpaceRow } from '../db/schema.ts';

export function presentChangeRequest(publicUrl: string, space: SpaceRow, changeRequest: ChangeRequestWithAuthor) {
  const base = baseOf(changeRequest);
  return {
    object: 'change-request' as const,
    id: changeRequest.id,
    number: changeRequest.number,
    status: changeRequest.status,
    subject: changeRequest.subject,
    createdBy: presentUser(publicUrl, {
      id: changeRequest.created_by,
      email: changeRequest.author_email,
      display_name: changeRequest.author_display_name,
      photo_url: changeRequest.author_photo_url,
    }),
    createdAt: changeRequest.created_at,
    updatedAt: changeRequest.updated_at,
    space: space.id,
    revision: changeRequest.revision_id,
    revisionInitial: changeRequest.revision_initial,
    ...(changeRequest.revision_merged_ancestor ? { revisionMergedAncestor: changeRequest.revision_merged_ancestor } : {}),
    ...(changeRequest.revision_merged ? { revisionMerged: changeRequest.revision_merged } : {}),
    comments: changeRequest.comments_open,
    // Behind when the space moved on since the change request last took its content.
    outdated: changeRequest.status !== 'merged' && space.revision_id !== base,
    urls: {
      location: `${publicUrl}/v1/spaces/${space.id}/change-requests/${changeRequest.id}`,
      app: `${publicUrl}/s/${space.id}/~/changes/${changeRequest.number}/`,
    },
  };
}
