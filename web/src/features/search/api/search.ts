// Full-text search over an organization's spaces or one space (GitBook's search answers).
import { api, segment } from '../../../api/client.ts';

export interface SectionHit {
  id: string;
  title: string;
  resultType: 'page' | 'section';
  body?: string;
  urls: { app: string };
}

export interface PageHit {
  id: string;
  title: string;
  ancestors?: Array<{ title: string }>;
  sections: SectionHit[];
  urls: { app: string };
}

export interface SpaceHits {
  id: string;
  title: string;
  pages: PageHit[];
}

/** The pages found, each with the space it is in (a space's own search leaves it out). */
export interface SearchAnswer {
  items: Array<SpaceHits | PageHit>;
}

export const searchOrganization = (organizationId: string, query: string) =>
  api.get<SearchAnswer>(`/v1/orgs/${segment(organizationId)}/search?query=${encodeURIComponent(query)}&limit=20`);

export const searchSpace = (spaceId: string, query: string) => api.get<SearchAnswer>(`/v1/spaces/${segment(spaceId)}/search?query=${encodeURIComponent(query)}&limit=20`);
