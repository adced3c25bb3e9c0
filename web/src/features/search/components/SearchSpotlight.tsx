// Search from any screen: Ctrl-K (⌘K) or the header's button opens it. Results list pages
// and their sections; arrow keys move, Enter opens the page at the section's anchor.
import '@mantine/spotlight/styles.css';
import { Button, Kbd, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Spotlight, spotlight } from '@mantine/spotlight';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { lastOrganization } from '../../organizations/queries/organizations.ts';
import type { PageHit, SearchAnswer, SpaceHits } from '../api/search.ts';
import { useSearch, type SearchScope } from '../queries/search.ts';

interface Hit {
  key: string;
  label: string;
  description?: string;
  to: string;
}

/** An app URL the API hands out, as the app's path (with the section's anchor). */
const pathOf = (url: string) => {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}${parsed.hash}`;
};

function hitsOf(page: PageHit): Hit[] {
  const trail = page.ancestors?.map((ancestor) => ancestor.title).join(' › ');
  return [
    { key: page.id, label: page.title, description: trail || undefined, to: pathOf(page.urls.app) },
    ...page.sections
      .filter((section) => section.resultType === 'section')
      .map((section) => ({ key: `${page.id}#${section.id}`, label: `${page.title} › ${section.title}`, description: section.body?.slice(0, 140), to: pathOf(section.urls.app) })),
  ];
}

function groupsOf(answer: SearchAnswer): Array<{ key: string; label?: string; hits: Hit[] }> {
  return answer.items.map((item) =>
    'pages' in item ? { key: item.id, label: (item as SpaceHits).title, hits: (item as SpaceHits).pages.flatMap(hitsOf) } : { key: item.id, hits: hitsOf(item as PageHit) },
  );
}

export function SearchSpotlight() {
  const { spaceId, organizationId } = useParams();
  const scope: SearchScope | undefined = spaceId ? { kind: 'space', spaceId } : (organizationId ?? lastOrganization.get()) ? { kind: 'organization', organizationId: (organizationId ?? lastOrganization.get())! } : undefined;
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 200);
  const navigate = useNavigate();
  const search = useSearch(scope, debounced);
  const groups = search.data && debounced ? groupsOf(search.data) : [];
  const label = scope?.kind === 'space' ? 'Search this space' : 'Search all spaces';
  const empty = debounced && search.data && groups.every((group) => group.hits.length === 0);
  return (
    <>
      <Button variant="default" size="xs" onClick={() => spotlight.open()} aria-keyshortcuts="Control+K Meta+K" rightSection={<Kbd size="xs" visibleFrom="sm">Ctrl K</Kbd>}>
        Search
      </Button>
      {/* The query is emptied when the search opens, not when its closing transition ends: that ended after a quick Ctrl-K on the next screen had opened it again, wiping what was being typed. */}
      <Spotlight.Root query={query} onQueryChange={setQuery} shortcut={['mod + K']} clearQueryOnClose={false} onSpotlightOpen={() => setQuery('')} scrollable maxHeight="60vh">
        <Spotlight.Search
          placeholder={label}
          aria-label={label}
          // Mantine's spotlight dialog has no title to be named by.
          ref={(input) => input?.closest('[role="dialog"]')?.setAttribute('aria-label', 'Search')}
        />
        <Spotlight.ActionsList aria-label="Results">
          {!debounced && <Spotlight.Empty>Type words to find pages and sections.</Spotlight.Empty>}
          {search.error && <Spotlight.Empty>{search.error instanceof Error ? search.error.message : 'Search failed. Try again.'}</Spotlight.Empty>}
          {empty && <Spotlight.Empty>Nothing found for “{debounced}”. Try other or fewer words.</Spotlight.Empty>}
          {groups.map((group) => {
            const actions = group.hits.map((hit) => (
              <Spotlight.Action key={hit.key} onClick={() => navigate(hit.to)}>
                <div style={{ minWidth: 0, textAlign: 'left' }}>
                  <Text size="sm" fw={600} truncate>
                    {hit.label}
                  </Text>
                  {hit.description && (
                    <Text size="xs" c="dimmed" lineClamp={2}>
                      {hit.description}
                    </Text>
                  )}
                </div>
              </Spotlight.Action>
            ));
            return group.label ? (
              <Spotlight.ActionsGroup key={group.key} label={group.label}>
                {actions}
              </Spotlight.ActionsGroup>
            ) : (
              actions
            );
          })}
        </Spotlight.ActionsList>
      </Spotlight.Root>
    </>
  );
}
