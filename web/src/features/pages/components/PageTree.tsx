// The side navigation of a space's pages. Only the rows in view are in the page (a space
// may hold thousands), so it is interactive at once; the open page's ancestors start open.
import { Box } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ancestorsOf, rowAfterKey, visibleRows, type PageIndex } from './pageTree.ts';
import { RowTitle, RowToggle } from './PageRow.tsx';

const ROW_HEIGHT = 34;

interface Props {
  index: PageIndex;
  currentPageId: string | undefined;
  /** The app path a page's path is under: /s/<space> or a revision's. */
  basePath: string;
  onNavigate?: () => void;
}

export function PageTree({ index, currentPageId, basePath, onNavigate }: Props) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(ancestorsOf(index, currentPageId)));
  useEffect(() => {
    // Opening a page from elsewhere (search, a link) opens its branch.
    const ancestors = ancestorsOf(index, currentPageId);
    setExpanded((open) => (ancestors.every((id) => open.has(id)) ? open : new Set([...open, ...ancestors])));
  }, [index, currentPageId]);
  const rows = useMemo(() => visibleRows(index, expanded), [index, expanded]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const currentRow = rows.findIndex((row) => row.page.id === currentPageId);
  const scrolledTo = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (currentRow < 0 || scrolledTo.current === currentPageId) return;
    scrolledTo.current = currentPageId;
    virtualizer.scrollToIndex(currentRow, { align: 'auto' });
  }, [currentRow, currentPageId, virtualizer]);
  const toggle = (pageId: string) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(pageId)) next.add(pageId);
      return next;
    });
  /**
   * Arrow keys move along the rows, rendered or not (Tab alone would stop at the last
   * row in the page); right and left open and close a branch.
   */
  const onKeyDown = (event: React.KeyboardEvent<HTMLUListElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!row) return;
    const index = Number(row.dataset.index);
    const entry = rows[index];
    let next = rowAfterKey(rows, index, event.key);
    if (next === undefined) {
      if ((event.key === 'ArrowRight' || event.key === 'ArrowLeft') && entry.hasChildren && entry.page.type !== 'group') {
        if (expanded.has(entry.page.id) !== (event.key === 'ArrowRight')) toggle(entry.page.id);
        next = index;
      } else return;
    }
    event.preventDefault();
    if (next === index || rows[next].page.type === 'group') return;
    virtualizer.scrollToIndex(next, { align: 'auto' });
    // The row is in the page once the list has rendered its new window.
    requestAnimationFrame(() => {
      const target = scroller.current?.querySelector(`[data-index="${next}"]`);
      (target?.querySelector('a') ?? target?.querySelector('button'))?.focus();
    });
  };
  if (rows.length === 0) return null;
  return (
    <Box ref={scroller} h="100%" style={{ overflowY: 'auto' }} py="xs">
      <ul onKeyDown={onKeyDown} style={{ listStyle: 'none', margin: 0, padding: 0, height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const { page, depth, hasChildren } = rows[item.index];
          const open = expanded.has(page.id);
          const current = page.id === currentPageId;
          return (
            <li
              key={page.id}
              data-index={item.index}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)`, display: 'flex', alignItems: 'center', paddingLeft: `calc(${depth} * 0.9rem + 0.5rem)`, paddingRight: '0.5rem' }}
            >
              <RowToggle page={page} hasChildren={hasChildren} open={open} onToggle={() => toggle(page.id)} />
              <RowTitle page={page} to={`${basePath}/${page.path}`} current={current} onNavigate={onNavigate} />
            </li>
          );
        })}
      </ul>
    </Box>
  );
}
