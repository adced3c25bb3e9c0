// A space's content as the API gives it: the page tree and files of a revision (the
// space's current one, an older one, or a change request's), and one page's document.
import { api, segment } from '../../../api/client.ts';
import type { JSONDocument } from '../../../../../src/content/gitbook/model.ts';

/** Which content of a space: its current revision, a past one, or a change request's proposal. */
export type ContentSource = { kind: 'current' } | { kind: 'revision'; revisionId: string } | { kind: 'changeRequest'; changeRequestId: string };

export interface PageEntry {
  id: string;
  title: string;
  emoji?: string;
  /** A Font Awesome icon's name (GitBook's), shown where no emoji is set. */
  icon?: string;
  kind: 'sheet' | 'group' | 'link';
  type: 'document' | 'group' | 'link';
  path?: string;
  href?: string;
  /** The hash of the page's content: a page whose content changed has another. */
  documentId?: string;
  pages?: PageEntry[];
}

export interface FileEntry {
  id: string;
  name: string;
  downloadURL: string;
}

/** One of a revision's reusable contents: `document` names its blocks, so it changes with them. */
export interface ReusableContentEntry {
  id: string;
  title: string;
  document?: string;
  git?: { path?: string };
}

export interface RevisionContent {
  id: string;
  pages: PageEntry[];
  reusableContents?: ReusableContentEntry[];
  files: FileEntry[];
  createdAt: string;
}

export interface PageWithDocument extends PageEntry {
  description?: string;
  document: JSONDocument;
}

export function contentBase(spaceId: string, source: ContentSource): string {
  const space = `/v1/spaces/${segment(spaceId)}`;
  if (source.kind === 'revision') return `${space}/revisions/${segment(source.revisionId)}`;
  if (source.kind === 'changeRequest') return `${space}/change-requests/${segment(source.changeRequestId)}/content`;
  return `${space}/content`;
}

export const getContent = (spaceId: string, source: ContentSource) => api.get<RevisionContent>(contentBase(spaceId, source));

/** The page's GitBook document, reusable contents put in place as the published site shows them. */
export const getPageDocument = (spaceId: string, source: ContentSource, pageId: string) =>
  api.get<PageWithDocument>(`${contentBase(spaceId, source)}/page/${segment(pageId)}?format=document&dereferenced=true`);
