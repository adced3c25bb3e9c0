// Changes to a change request's page tree and pages' fields, through the content batch
// of the public API (insert_page, update_page, delete_page), as a script would send them.
import { api, segment } from '../../../api/client.ts';
import type { PageEntry } from './content.ts';

/** GitBook's image reference of a cover: a file of the change request, or a URL. */
export type CoverRef = { kind: 'file'; file: string } | { kind: 'url'; url: string };

export interface PageCover {
  ref: CoverRef;
  yPos?: number;
}

/** GitBook's layout options of a document page (RevisionPageLayoutOptions). */
export interface PageLayout {
  width: 'default' | 'wide';
  cover: boolean;
  coverSize: 'hero' | 'full' | 'background';
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
  metadata: boolean;
  [option: string]: boolean | string;
}

/** A page with the fields its settings change, as the content API gives them. */
export interface PageDetails extends PageEntry {
  slug: string;
  icon?: string;
  description?: string;
  cover?: PageCover;
  layout?: PageLayout;
}

export interface PageFieldChanges {
  title?: string;
  /** Where a link page leads. */
  href?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  cover?: PageCover | null;
  layout?: Partial<PageLayout>;
}

export type PageChange =
  | ({ operation: 'insert_page'; type: 'document' | 'group' | 'link'; title: string; href?: string; document?: string; into?: string; at?: number } & PageFieldChanges)
  | ({ operation: 'update_page'; page: string; into?: string | null; at?: number } & PageFieldChanges)
  | { operation: 'delete_page'; page: string };

export interface PageChangesAnswer {
  changes: Array<{ object: 'created_page' | 'updated_page'; page: { id: string } } | { object: 'deleted_page'; page: string }>;
}

/** Applies the changes, all or none, as one new revision of the change request. */
export const changePages = (spaceId: string, changeRequestId: string, changes: PageChange[]) =>
  api.post<PageChangesAnswer>(`/v1/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/content?compat=false`, { changes });
