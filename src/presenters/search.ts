// Search results as GitBook answers them: a space, its matching pages (each with its
// score, its rank among all pages found, its description and ancestors), and in each
// page the matching sections with an excerpt around the match.
import { pageAppUrl } from './page.ts';
import type { OutlinePage, TreeOutline } from '../content/tree.ts';
import type { SectionHit } from '../db/schema.ts';

/** A matching section and its relevance: higher is better. */
export type ScoredHit = SectionHit & { score: number };

export interface FoundPage {
  page: OutlinePage;
  sections: ScoredHit[];
  /** One-based position among every page found, best first. */
  rank: number;
}

function ancestorsOf(tree: TreeOutline, page: OutlinePage): Array<{ title: string }> {
  const ancestors: Array<{ title: string }> = [];
  for (let parent = page.parentId && tree.get(page.parentId); parent; parent = parent.parentId && tree.get(parent.parentId)) ancestors.unshift({ title: parent.meta.title });
  return ancestors;
}

export function presentSearchSpace(publicUrl: string, spaceId: string, spaceTitle: string, tree: TreeOutline, pages: FoundPage[], excerpt: (text: string) => string) {
  const best = (found: FoundPage) => Math.max(...found.sections.map((section) => section.score));
  return {
    type: 'space' as const,
    id: spaceId,
    title: spaceTitle,
    score: Math.max(...pages.map(best)),
    urls: { app: `${publicUrl}/s/${spaceId}/` },
    pages: pages.map((found) => {
      const [first] = found.sections;
      const pageUrl = pageAppUrl(publicUrl, spaceId, first.page_path);
      // Matched on its title when its best section is the one holding the title.
      const resultType = first.section_index === 0 && first.anchor === '' ? ('page' as const) : ('section' as const);
      return {
        id: found.page.id,
        title: found.page.meta.title,
        description: typeof found.page.meta.description === 'string' ? found.page.meta.description : '',
        path: first.page_path,
        score: best(found),
        rank: found.rank,
        resultType,
        ancestors: ancestorsOf(tree, found.page),
        urls: { app: pageUrl },
        sections: found.sections.map((section) => {
          const id = section.anchor || found.page.id;
          const anchor = section.anchor ? `#${section.anchor}` : '';
          return {
            id,
            title: section.heading,
            path: `${section.page_path}${anchor}`,
            score: section.score,
            resultType: section.anchor ? ('section' as const) : ('page' as const),
            body: excerpt(section.body || section.heading),
            urls: { app: `${pageUrl}${anchor}` },
          };
        }),
      };
    }),
  };
}
