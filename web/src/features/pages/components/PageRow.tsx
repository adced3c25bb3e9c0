// What a row of a page tree shows, the reader's (PageTree) and the writer's
// (EditablePageTree) alike: the toggle that opens a page's pages, and the page's title,
// a group's name or a link page's address.
import { Anchor, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import type { PageEntry } from '../api/content.ts';
import { PageMark } from './PageMark.tsx';

/** Opens or closes the pages inside a page; a space of its width where there are none (a group's are always shown). */
export function RowToggle({ page, hasChildren, open, onToggle }: { page: PageEntry; hasChildren: boolean; open: boolean; onToggle: () => void }) {
  if (!hasChildren || page.type === 'group') return <span style={{ width: 22, flex: 'none' }} />;
  return (
    <UnstyledButton onClick={onToggle} aria-expanded={open} aria-label={`${open ? 'Close' : 'Open'} ${page.title}`} w={22} ta="center" c="dimmed" style={{ flex: 'none' }}>
      <span aria-hidden="true" style={{ display: 'inline-block', transform: open ? 'rotate(90deg)' : undefined }}>
        ›
      </span>
    </UnstyledButton>
  );
}

/**
 * A group's name, a link page's address (opened elsewhere) or a page's title leading to
 * `to`, marked as the current page. In a tree whose rows are dragged, the links are not
 * (`draggable`), so that the row is.
 */
export function RowTitle({ page, to, current, draggable, onNavigate }: { page: PageEntry; to: string; current: boolean; draggable?: false; onNavigate?: () => void }) {
  const label = (
    <>
      <PageMark page={page} />
      {page.title || 'Untitled'}
    </>
  );
  if (page.type === 'group') {
    return (
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" truncate style={{ flex: 1 }}>
        {label}
      </Text>
    );
  }
  if (page.type === 'link') {
    return (
      <Anchor href={page.href} size="sm" truncate target="_blank" rel="noreferrer" c="inherit" draggable={draggable} style={{ flex: 1 }}>
        {label} <span aria-hidden="true">↗</span>
      </Anchor>
    );
  }
  return (
    <Anchor
      component={Link}
      to={to}
      size="sm"
      truncate
      draggable={draggable}
      onClick={onNavigate}
      aria-current={current ? 'page' : undefined}
      fw={current ? 700 : undefined}
      c={current ? undefined : 'inherit'}
      underline={current ? 'always' : 'hover'}
      style={{ flex: 1 }}
    >
      {label}
    </Anchor>
  );
}
