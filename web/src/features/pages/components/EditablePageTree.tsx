// The page tree of a change request, for its writer: as the reader's side navigation
// (only the rows in view are in the page), and each row can be renamed, moved by drag or
// by Alt-Shift-Arrow, given sub-pages, settings, or deleted. Every change is one content
// batch of the public API; the tree shows what the change request holds once it is read
// again.
import { ActionIcon, Box, Button, Group, Menu, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { isSafeLinkUrl, SAFE_LINK_SCHEMES } from '../../../../../src/content/gitbook/safety.ts';
import { uniquePath } from '../../../../../src/lib/slugs.ts';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { Dialog } from '../../spaces/components/Dialog.tsx';
import type { FileEntry } from '../api/content.ts';
import type { PageChange, PageDetails } from '../api/pageChanges.ts';
import { usePageChanges } from '../queries/pageChanges.ts';
import { RowTitle, RowToggle } from './PageRow.tsx';
import {
  ancestorsOf,
  childrenOf,
  dropPlacement,
  holdsPages,
  keyboardPlacement,
  rowAfterKey,
  slugAfterRename,
  visibleRows,
  type DropPosition,
  type KeyboardMove,
  type PageIndex,
  type Placement,
} from './pageTree.ts';

const PageSettings = lazy(async () => ({ default: (await import('./PageSettings.tsx')).PageSettings }));

const ROW_HEIGHT = 34;
const MOVE_KEYS: Record<string, KeyboardMove> = { ArrowUp: 'up', ArrowDown: 'down', ArrowRight: 'in', ArrowLeft: 'out' };
const NEW_TITLES = { document: 'Untitled', group: 'Untitled group' } as const;
/** The moves the keys make, also in each row's menu: a phone has no keyboard, and a touch does not drag. */
const MOVES = [
  ['up', 'Move up', '↑'],
  ['down', 'Move down', '↓'],
  ['in', 'Move into the page above', '→'],
  ['out', 'Move out of its parent', '←'],
] as const;

interface Props {
  spaceId: string;
  changeRequestId: string;
  index: PageIndex;
  files: FileEntry[];
  currentPageId: string | undefined;
  /** The change request's app path: rows open their page in the editor under it. */
  basePath: string;
}

export function EditablePageTree({ spaceId, changeRequestId, index, files, currentPageId, basePath }: Props) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(ancestorsOf(index, currentPageId)));
  useEffect(() => {
    const ancestors = ancestorsOf(index, currentPageId);
    setExpanded((open) => (ancestors.every((id) => open.has(id)) ? open : new Set([...open, ...ancestors])));
  }, [index, currentPageId]);
  const rows = useMemo(() => visibleRows(index, expanded), [index, expanded]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const changes = usePageChanges(spaceId, changeRequestId);
  const [renaming, setRenaming] = useState<string>();
  const [dragged, setDragged] = useState<string>();
  const [dropTarget, setDropTarget] = useState<{ id: string; position: DropPosition }>();
  const [settingsOf, setSettingsOf] = useState<string>();
  const [deleting, setDeleting] = useState<string>();
  const [linkInto, setLinkInto] = useState<{ into?: string }>();
  const [announcement, setAnnouncement] = useState('');
  /** The row to focus once the tree shows a change (a page moved by keyboard keeps the focus). */
  const focusAfter = useRef<string>(undefined);
  const details = (pageId: string) => index.byId.get(pageId)?.page as PageDetails | undefined;
  const siblingSlugs = (pageId: string) =>
    childrenOf(index, index.byId.get(pageId)?.parent)
      .filter((entry) => entry.page.id !== pageId)
      .map((entry) => (entry.page as PageDetails).slug);

  const focusRow = (pageId: string) => {
    const at = rows.findIndex((row) => row.page.id === pageId);
    if (at < 0) return;
    virtualizer.scrollToIndex(at, { align: 'auto' });
    requestAnimationFrame(() => {
      const row = scroller.current?.querySelector(`[data-index="${at}"]`);
      (row?.querySelector<HTMLElement>('a, input') ?? row?.querySelector<HTMLElement>('button'))?.focus();
    });
  };
  useEffect(() => {
    if (!focusAfter.current) return;
    focusRow(focusAfter.current);
    focusAfter.current = undefined;
  });

  const open = (pageId: string) => setExpanded((was) => (was.has(pageId) ? was : new Set([...was, pageId])));
  const toggle = (pageId: string) =>
    setExpanded((was) => {
      const next = new Set(was);
      if (!next.delete(pageId)) next.add(pageId);
      return next;
    });

  const move = (pageId: string, placement: Placement) => {
    const page = details(pageId);
    if (!page) return;
    if (changes.isPending) {
      setAnnouncement('Still saving the last change: try again in a moment.');
      return;
    }
    const siblings = childrenOf(index, placement.into ?? undefined).filter((entry) => entry.page.id !== pageId);
    const position = (placement.at ?? siblings.length) + 1;
    const where = placement.into ? `in ${details(placement.into)?.title}` : 'at the top level';
    // Two pages beside each other may not share a slug: the moved one takes the next free one, as GitBook does.
    const taken = siblings.map((entry) => (entry.page as PageDetails).slug);
    const slug = taken.includes(page.slug) ? { slug: uniquePath(page.slug, taken) } : {};
    changes.mutate([{ operation: 'update_page', page: pageId, into: placement.into, ...(placement.at !== undefined ? { at: placement.at } : {}), ...slug }], {
      onSuccess: () => {
        if (placement.into) open(placement.into);
        focusAfter.current = pageId;
        setAnnouncement(`${page.title} moved: ${position} of ${siblings.length + 1} ${where}.`);
      },
    });
  };

  const add = (type: 'document' | 'group', into?: string, at?: number) => {
    const change: PageChange = { operation: 'insert_page', type, title: NEW_TITLES[type], ...(type === 'document' ? { document: '' } : {}), ...(into ? { into } : {}), ...(at !== undefined ? { at } : {}) };
    changes.mutate([change], {
      onSuccess: (answer) => {
        const made = answer.changes[0];
        if (into) open(into);
        if (made.object !== 'created_page') return;
        setRenaming(made.page.id);
        focusAfter.current = made.page.id;
        setAnnouncement(`${NEW_TITLES[type]} added. Type its title, then Enter.`);
      },
    });
  };

  const rename = (pageId: string, title: string) => {
    setRenaming(undefined);
    const page = details(pageId);
    const wanted = title.trim();
    focusAfter.current = pageId;
    if (!page || !wanted || wanted === page.title) return;
    const slug = slugAfterRename(page, wanted, siblingSlugs(pageId));
    changes.mutate([{ operation: 'update_page', page: pageId, title: wanted, ...(slug !== page.slug ? { slug } : {}) }], {
      onSuccess: () => setAnnouncement(`Renamed to ${wanted}.`),
    });
  };

  /** Alt-Shift-Arrow moves the focused row's page; the other arrows, Home and End go along the rows and open or close a branch. */
  const onKeyDown = (event: React.KeyboardEvent<HTMLUListElement>) => {
    if ((event.target as HTMLElement).tagName === 'INPUT') return;
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!row) return;
    const at = Number(row.dataset.index);
    const entry = rows[at];
    if (event.altKey && event.shiftKey && MOVE_KEYS[event.key]) {
      event.preventDefault();
      const placement = keyboardPlacement(index, entry.page.id, MOVE_KEYS[event.key]);
      if (placement) move(entry.page.id, placement);
      else setAnnouncement(`${entry.page.title} cannot move that way.`);
      return;
    }
    if (event.altKey || event.shiftKey || event.ctrlKey || event.metaKey) return;
    let next = rowAfterKey(rows, at, event.key);
    if (next === undefined) {
      if ((event.key === 'ArrowRight' || event.key === 'ArrowLeft') && entry.hasChildren && entry.page.type !== 'group') {
        if (expanded.has(entry.page.id) !== (event.key === 'ArrowRight')) toggle(entry.page.id);
        next = at;
      } else return;
    }
    event.preventDefault();
    if (next !== at) focusRow(rows[next].page.id);
  };

  const dropPositionAt = (event: React.DragEvent<HTMLElement>, page: PageDetails): DropPosition => {
    const box = event.currentTarget.getBoundingClientRect();
    const y = (event.clientY - box.top) / box.height;
    if (!holdsPages(page)) return y < 0.5 ? 'before' : 'after';
    return y < 0.25 ? 'before' : y > 0.75 ? 'after' : 'inside';
  };
  const endDrag = () => {
    setDragged(undefined);
    setDropTarget(undefined);
  };

  const settingsPage = settingsOf ? details(settingsOf) : undefined;
  const deletingPage = deleting ? details(deleting) : undefined;
  const subPages = deleting ? index.ordered.filter((entry) => ancestorsOf(index, entry.page.id).includes(deleting)).length : 0;

  return (
    <Stack gap="xs">
      <ErrorAlert error={changes.error} />
      <Box ref={scroller} style={{ maxHeight: '60vh', overflowY: 'auto' }} aria-busy={changes.isPending}>
        <ul aria-label="Pages of the change request" onKeyDown={onKeyDown} style={{ listStyle: 'none', margin: 0, padding: 0, height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const { depth, hasChildren } = rows[item.index];
            const page = rows[item.index].page as PageDetails;
            const expandedRow = expanded.has(page.id);
            const current = page.id === currentPageId;
            const drop = dropTarget?.id === page.id ? dropTarget.position : undefined;
            return (
              <li
                key={page.id}
                data-index={item.index}
                data-drop={drop}
                draggable={renaming !== page.id}
                onDragStart={(event) => {
                  event.dataTransfer.setData('text/plain', page.id);
                  event.dataTransfer.effectAllowed = 'move';
                  setDragged(page.id);
                }}
                onDragOver={(event) => {
                  if (!dragged) return;
                  const position = dropPositionAt(event, page);
                  if (!dropPlacement(index, dragged, page.id, position)) {
                    setDropTarget(undefined);
                    return;
                  }
                  event.preventDefault();
                  event.dataTransfer.dropEffect = 'move';
                  if (drop !== position) setDropTarget({ id: page.id, position });
                }}
                onDrop={(event) => {
                  event.preventDefault();
                  const placement = dragged ? dropPlacement(index, dragged, page.id, dropPositionAt(event, page)) : undefined;
                  if (dragged && placement) move(dragged, placement);
                  endDrag();
                }}
                onDragEnd={endDrag}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                  display: 'flex',
                  alignItems: 'center',
                  gap: 2,
                  paddingLeft: `calc(${depth} * 0.9rem + 0.25rem)`,
                  paddingRight: '0.25rem',
                  borderRadius: 'var(--mantine-radius-sm)',
                  opacity: dragged === page.id ? 0.5 : undefined,
                  background: drop === 'inside' ? 'var(--mantine-primary-color-light)' : undefined,
                  boxShadow:
                    drop === 'before'
                      ? 'inset 0 2px 0 0 var(--mantine-primary-color-filled)'
                      : drop === 'after'
                        ? 'inset 0 -2px 0 0 var(--mantine-primary-color-filled)'
                        : drop === 'inside'
                          ? 'inset 0 0 0 1px var(--mantine-primary-color-filled)'
                          : undefined,
                }}
              >
                <Text span c="dimmed" size="xs" aria-hidden="true" style={{ cursor: 'grab', flex: 'none', width: 12, userSelect: 'none' }}>
                  ⋮⋮
                </Text>
                <RowToggle page={page} hasChildren={hasChildren} open={expandedRow} onToggle={() => toggle(page.id)} />
                {renaming === page.id ? (
                  <RenameInput page={page} onDone={(title) => rename(page.id, title ?? page.title)} />
                ) : (
                  <RowTitle page={page} to={`${basePath}/${page.path}?edit`} current={current} draggable={false} />
                )}
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Actions for ${page.title}`} style={{ flex: 'none' }}>
                      <span aria-hidden="true">…</span>
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {holdsPages(page) && (
                      <>
                        <Menu.Item onClick={() => add('document', page.id)}>Add page inside</Menu.Item>
                        <Menu.Item onClick={() => setLinkInto({ into: page.id })}>Add link inside</Menu.Item>
                      </>
                    )}
                    <Menu.Item onClick={() => add('group', index.byId.get(page.id)?.parent, childrenOf(index, index.byId.get(page.id)?.parent).findIndex((entry) => entry.page.id === page.id) + 1)}>
                      Add group below
                    </Menu.Item>
                    <Menu.Divider />
                    {MOVES.map(([way, words, arrow]) => {
                      const placement = keyboardPlacement(index, page.id, way);
                      return (
                        <Menu.Item key={way} disabled={!placement} onClick={() => placement && move(page.id, placement)} rightSection={<Text size="xs" c="dimmed" aria-hidden="true">Alt+Shift+{arrow}</Text>}>
                          {words}
                        </Menu.Item>
                      );
                    })}
                    <Menu.Divider />
                    <Menu.Item onClick={() => setRenaming(page.id)}>Rename</Menu.Item>
                    <Menu.Item onClick={() => setSettingsOf(page.id)}>Page settings</Menu.Item>
                    <Menu.Item color="red" onClick={() => setDeleting(page.id)}>
                      Delete
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </li>
            );
          })}
        </ul>
      </Box>
      <Group gap="xs">
        <Button variant="subtle" size="compact-sm" onClick={() => add('document')} loading={changes.isPending && changes.variables?.[0]?.operation === 'insert_page'}>
          + Add page
        </Button>
        <Button variant="subtle" size="compact-sm" color="gray" onClick={() => add('group')}>
          + Add group
        </Button>
        <Button variant="subtle" size="compact-sm" color="gray" onClick={() => setLinkInto({})}>
          + Add link
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        Drag a page to move it, or use its … menu; Alt+Shift+Arrow keys move the focused page.
      </Text>
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
      <AddLinkModal
        opened={linkInto !== undefined}
        onClose={() => setLinkInto(undefined)}
        onAdd={(title, href) => {
          const into = linkInto?.into;
          setLinkInto(undefined);
          changes.mutate([{ operation: 'insert_page', type: 'link', title, href, ...(into ? { into } : {}) }], {
            onSuccess: () => {
              if (into) open(into);
              setAnnouncement(`Link ${title} added.`);
            },
          });
        }}
      />
      <Dialog opened={deletingPage !== undefined} onClose={() => setDeleting(undefined)} title={`Delete “${deletingPage?.title}”?`}>
        <Stack gap="md">
          <Text size="sm">
            {subPages > 0 ? `Its ${subPages} sub-page${subPages === 1 ? '' : 's'} go with it. ` : ''}It leaves this change request; the space keeps it until the change request is merged.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(undefined)}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                const page = deletingPage!;
                setDeleting(undefined);
                changes.mutate([{ operation: 'delete_page', page: page.id }], { onSuccess: () => setAnnouncement(`${page.title} deleted.`) });
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Dialog>
      {settingsPage && (
        <Suspense fallback={null}>
          <PageSettings
            page={settingsPage}
            siblingSlugs={siblingSlugs(settingsPage.id)}
            files={files}
            saving={changes.isPending}
            error={changes.error}
            onClose={() => setSettingsOf(undefined)}
            onSave={(fields) =>
              changes.mutate([{ operation: 'update_page', page: settingsPage.id, ...fields }], {
                onSuccess: () => {
                  setSettingsOf(undefined);
                  setAnnouncement(`Settings of ${fields.title ?? settingsPage.title} saved.`);
                },
              })
            }
          />
        </Suspense>
      )}
    </Stack>
  );
}

/** The title in place of the row's: Enter saves, Escape leaves it as it was, leaving the field saves. */
function RenameInput({ page, onDone }: { page: PageDetails; onDone: (title: string | undefined) => void }) {
  const ended = useRef(false);
  const end = (title: string | undefined) => {
    if (ended.current) return;
    ended.current = true;
    onDone(title);
  };
  return (
    <TextInput
      size="xs"
      autoFocus
      defaultValue={page.title}
      aria-label={`Title of ${page.title}`}
      onFocus={(event) => event.currentTarget.select()}
      onKeyDown={(event) => {
        if (event.key === 'Enter') end(event.currentTarget.value);
        else if (event.key === 'Escape') end(undefined);
      }}
      onBlur={(event) => end(event.currentTarget.value)}
      style={{ flex: 1 }}
    />
  );
}

/** Asks a link page's title and where it leads. */
function AddLinkModal({ opened, onClose, onAdd }: { opened: boolean; onClose: () => void; onAdd: (title: string, href: string) => void }) {
  const [title, setTitle] = useState('');
  const [href, setHref] = useState('');
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!opened) return;
    setTitle('');
    setHref('');
    setError(undefined);
  }, [opened]);
  return (
    <Dialog opened={opened} onClose={onClose} title="Add a link">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!isSafeLinkUrl(href.trim())) setError(`Give a path such as /guide, or a URL of ${SAFE_LINK_SCHEMES.join(', ')}, such as https://github.com/acme.`);
          else onAdd(title.trim() || href.trim(), href.trim());
        }}
      >
        <Stack gap="sm">
          <TextInput label="Title" value={title} onChange={(event) => setTitle(event.currentTarget.value)} placeholder="GitHub" data-autofocus />
          <TextInput label="URL" required value={href} onChange={(event) => setHref(event.currentTarget.value)} error={error} placeholder="https://github.com/acme" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Add link</Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
