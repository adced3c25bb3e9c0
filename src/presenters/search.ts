// Search results as GitBook answers them: a space, its matching pages, and in each
// page the matching sections with an excerpt around the match.
import { pageAppUrl } from './page.ts';
import type { SectionHit } from '../db/schema.ts';

export function presentSearchSpace(
  publicUrl: string,
  spaceId: string,
  pages: Map<string, SectionHit[]>,
  excerpt: (text: string) => string,
) {
  return {
    id: spaceId,
    title: pages.values().next().value![0].space_title,
    urls: { app: `${publicUrl}/s/${spaceId}/` },
    pages: [...pages].map(([pageId, sections]) => {
      const pageUrl = pageAppUrl(publicUrl, spaceId, sections[0].page_path);
      return {
        id: pageId,
        title: sections[0].page_title,
        path: sections[0].page_path,
        urls: { app: pageUrl },
        sections: sections.map((section) => {
          const id = section.anchor || pageId;
          const anchor = section.anchor ? `#${section.anchor}` : '';
          return {
            id,
            title: section.heading,
            path: `${section.page_path}${anchor}`,
            body: excerpt(section.body || section.heading),
            urls: { app: `${pageUrl}${anchor}` },
          };
        }),
      };
    }),
  };
}
