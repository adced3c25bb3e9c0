// Links: GitBook's `link` inline, whose `data.ref` is a content reference (a page, a
// heading of a page, a file of the change request, or a web address), never a written
// URL for what the change request holds. Ctrl/⌘+K or the toolbar's Link opens the
// picker on the selection; a link under the cursor shows a small bar to open, edit or
// remove it; a URL pasted on selected words links them. A reference that leads nowhere
// in the change request (its page, heading or file is gone) is underlined in red as the
// writer writes, and again whenever the change request's pages change.
import { ActionIcon, Alert, Anchor, Button, Group, Paper, Portal, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Dialog } from '../../features/spaces/components/Dialog.tsx';
import { useQuery } from '@tanstack/react-query';
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode, Fragment as ProseMirrorFragment } from '@tiptap/pm/model';
import { Plugin, PluginKey, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { insideWindow, usePlaced } from '../floating.ts';
import { changedRanges } from './containers.ts';
import type { ContentRef } from '../../../../src/content/gitbook/model.ts';
import { getContent } from '../../features/pages/api/content.ts';
import { indexPages, type IndexedPage } from '../../features/pages/components/pageTree.ts';
import { contentKeys } from '../../features/pages/queries/content.ts';
import type { EditorContext, EditorPart, PartProps } from '../part.ts';
import {
  anchorPages,
  brokenReason,
  linkablePages,
  pageGlyph,
  refLabel,
  typedUrl,
  useChangeRequestContent,
  useHeadings,
  useHeadingsOf,
  type KnownTargets,
} from '../references.ts';

/** What the picker is asked for: by the link part, or by a block that points at a page (pageLink). */
export interface PickerRequest {
  purpose: 'link' | 'pageLink';
  title: string;
  /** The reference being changed, when editing one. */
  current?: ContentRef;
  /** Shown above the search, e.g. why the selection is not linked as it is. */
  note?: string;
  onPick: (ref: ContentRef, label: string) => void;
  /** Offered when editing an existing link. */
  onRemove?: () => void;
}

/** What one editor has asked a part's dialog to show (undefined while it is closed), for the part's overlay to draw. */
export class DialogRequest<T> {
  request: T | undefined;
  private listeners = new Set<() => void>();
  constructor(private readonly editor: Editor) {}
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  set(request: T | undefined) {
    // What is typed before the dialog takes the focus must not replace the page's selection.
    if (request !== undefined) this.editor.view.dom.blur();
    this.request = request;
    for (const listener of this.listeners) listener();
  }
}

/** A DialogRequest per editor. */
export function dialogRequests<T>(): (editor: Editor) => DialogRequest<T> {
  const requests = new WeakMap<Editor, DialogRequest<T>>();
  return (editor) => {
    let request = requests.get(editor);
    if (!request) requests.set(editor, (request = new DialogRequest<T>(editor)));
    return request;
  };
}

/** The request a dialog shows, kept current. */
export const useDialogRequest = <T,>(dialog: DialogRequest<T>): T | undefined => useSyncExternalStore(dialog.subscribe, () => dialog.request);

// One reference picker per editor, drawn by this part's overlay.
const pickerOf = dialogRequests<PickerRequest>();

/** Opens the reference picker over the editor. */
export function openReferencePicker(editor: Editor, request: PickerRequest): void {
  pickerOf(editor).set(request);
}

/** The link the cursor (or the whole selection) is in, with where it starts. */
function linkAt(state: EditorState): { pos: number; node: ProseMirrorNode } | undefined {
  const { $from, $to } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    if ($from.node(depth).type.name === 'link') {
      const pos = $from.before(depth);
      return $to.pos <= pos + $from.node(depth).nodeSize ? { pos, node: $from.node(depth) } : undefined;
    }
  }
  return undefined;
}

/** What a link holds: its words and inline images, never another link (those give their words). */
function linkContent(editor: Editor, content: ProseMirrorFragment): ProseMirrorNode[] | undefined {
  const nodes: ProseMirrorNode[] = [];
  content.forEach((node) => (node.type.name === 'link' ? node.content.forEach((child) => void nodes.push(child)) : void nodes.push(node)));
  const link = editor.schema.nodes.link;
  return nodes.every((node) => link.contentMatch.matchType(node.type)) ? nodes : undefined;
}

/**
 * Mod-K and the toolbar's Link: edits the link under the cursor, links the selected
 * words, or adds a link at the cursor named after what it leads to.
 */
export function linkSelection(editor: Editor): void {
  const { state } = editor;
  const existing = linkAt(state);
  if (existing) {
    const ref = existing.node.attrs.data?.ref as ContentRef | undefined;
    openReferencePicker(editor, {
      purpose: 'link',
      title: 'Edit the link',
      current: ref,
      onPick: (picked) => editLink(editor, existing.pos, picked),
      onRemove: () => removeLink(editor, existing.pos),
    });
    return;
  }
  let { from, to } = state.selection;
  const $from = state.doc.resolve(from);
  const $to = state.doc.resolve(to);
  // A selection reaching into a link takes the whole link, which becomes part of the new one.
  if ($from.parent.type.name === 'link') from = $from.before();
  if ($to.parent.type.name === 'link') to = $to.after();
  const $start = state.doc.resolve(from);
  const sameBlock = $start.parent === state.doc.resolve(to).parent && $start.parent.inlineContent;
  const content = from < to && sameBlock ? linkContent(editor, state.doc.slice(from, to).content) : undefined;
  const note =
    from === to ? undefined
    : !sameBlock ? 'The selection spans several blocks: the link is added after it, named after what it leads to.'
    : !content ? 'A link holds only words and inline images: the link is added after the selection, named after what it leads to.'
    : undefined;
  openReferencePicker(editor, {
    purpose: 'link',
    title: 'Link',
    note,
    onPick: (ref, label) => {
      const link = editor.schema.nodes.link;
      editor
        .chain()
        .focus()
        .command(({ tr }) => {
          if (content) {
            tr.replaceWith(from, to, link.create({ data: { ref } }, content));
            tr.setSelection(TextSelection.create(tr.doc, tr.mapping.map(to)));
          } else {
            const at = Math.max(from, to);
            tr.insert(at, link.create({ data: { ref } }, editor.schema.text(label)));
            tr.setSelection(TextSelection.create(tr.doc, tr.mapping.map(at)));
          }
          return true;
        })
        .run();
    },
  });
}

function editLink(editor: Editor, pos: number, ref: ContentRef) {
  editor
    .chain()
    .focus()
    .command(({ tr }) => {
      const node = tr.doc.nodeAt(pos);
      if (node?.type.name !== 'link') return false;
      tr.setNodeMarkup(pos, undefined, { ...node.attrs, data: { ...(node.attrs.data ?? {}), ref } });
      return true;
    })
    .run();
}

/** The link goes; its words stay. */
function removeLink(editor: Editor, pos: number) {
  editor
    .chain()
    .focus()
    .command(({ tr }) => {
      const node = tr.doc.nodeAt(pos);
      if (node?.type.name !== 'link') return false;
      tr.replaceWith(pos, pos + node.nodeSize, node.content);
      return true;
    })
    .run();
}

/** The app's address of the change request being written (`/s/{space}/~/changes/{number}`), where its pages open. */
// —— The picker ——

function ReferencePicker({ editor, context }: PartProps) {
  const store = pickerOf(editor);
  const request = useDialogRequest(store);
  const phone = useMediaQuery('(max-width: 36em)');
  const close = () => {
    store.set(undefined);
    editor.commands.focus();
  };
  return (
    <Dialog opened={request !== undefined} onClose={close} title={request?.title ?? 'Link'} fullScreen={phone} size="lg" returnFocus={false}>
      {request && <PickerBody key={request.title} request={request} context={context} done={close} />}
    </Dialog>
  );
}

interface Result {
  key: string;
  ref: ContentRef;
  label: string;
  detail?: string;
  glyph?: string;
  /** A page whose headings may be listed instead. */
  headingsOf?: IndexedPage;
}

function PickerBody({ request, context, done }: { request: PickerRequest; context: EditorContext; done: () => void }) {
  const { data, index, error, isPending } = useChangeRequestContent(context);
  const [query, setQuery] = useState('');
  const [drilled, setDrilled] = useState<IndexedPage | undefined>();
  const headings = useHeadings(context, drilled?.page.id);
  const list = useRef<HTMLDivElement>(null);
  const id = useId();
  const linking = request.purpose === 'link';

  const pick = (result: Result) => {
    request.onPick(result.ref, result.label);
    done();
  };

  const typed = query.trim();
  // Something with a scheme or a dot and no spaces is an address; anything else searches.
  const address = linking && typed && (/^[a-z][a-z0-9+.-]*:/i.test(typed) || /^[^\s]+\.[^\s]+$/.test(typed)) ? typedUrl(typed) : undefined;

  const results: Result[] = useMemo(() => {
    if (!index || !data) return [];
    if (drilled) {
      const page = drilled.page;
      return [
        { key: 'page', ref: { kind: 'page', page: page.id }, label: page.title, detail: 'The whole page', glyph: pageGlyph(page.emoji) },
        ...(headings.data ?? []).map((heading) => ({
          key: `#${heading.anchor}`,
          ref: { kind: 'anchor', page: page.id, anchor: heading.anchor } as ContentRef,
          label: heading.title,
          detail: `${'·'.repeat(heading.level)} Heading in ${page.title}`,
        })),
      ];
    }
    const words = typed.toLowerCase();
    const pages = linkablePages(index)
      .filter((entry) => entry.page.title.toLowerCase().includes(words) || (entry.page.path ?? '').toLowerCase().includes(words))
      .slice(0, 40)
      .map((entry): Result => ({
        key: `page-${entry.page.id}`,
        ref: { kind: 'page', page: entry.page.id },
        label: entry.page.title,
        detail: entry.page.id === context.pageId ? 'This page' : entry.page.path,
        glyph: pageGlyph(entry.page.emoji),
        headingsOf: linking ? entry : undefined,
      }));
    const files = linking
      ? data.files
          .filter((file) => file.name.toLowerCase().includes(words))
          .slice(0, 20)
          .map((file): Result => ({ key: `file-${file.id}`, ref: { kind: 'file', file: file.id }, label: file.name, detail: 'File' }))
      : [];
    return [...pages, ...files];
  }, [index, data, drilled, headings.data, typed, linking, context.pageId]);

  const addressResult: Result | undefined = address && 'url' in address ? { key: 'url', ref: { kind: 'url', url: address.url }, label: address.url, detail: 'Web address' } : undefined;
  const choices = addressResult ? [addressResult, ...results] : results;

  const moveFocus = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...(list.current?.querySelectorAll<HTMLElement>('[data-choice]') ?? [])];
    if (!buttons.length) return;
    event.preventDefault();
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const next = event.key === 'ArrowDown' ? Math.min(at + 1, buttons.length - 1) : at - 1;
    if (next < 0) document.getElementById(`${id}-search`)?.focus();
    else buttons[next].focus();
  };

  return (
    <Stack gap="sm" onKeyDown={moveFocus}>
      {request.note && (
        <Text size="sm" c="dimmed">
          {request.note}
        </Text>
      )}
      {request.current && (
        <Text size="sm">
          Now leads to: <strong>{refLabel(request.current, data, index)}</strong>
        </Text>
      )}
      {drilled ? (
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" fw={600}>
            Headings of {drilled.page.title}
          </Text>
          <Button size="xs" variant="subtle" onClick={() => setDrilled(undefined)}>
            Back to all pages
          </Button>
        </Group>
      ) : (
        <TextInput
          id={`${id}-search`}
          data-autofocus
          label={linking ? 'Search pages and files, or type a web address' : 'Search pages'}
          placeholder={linking ? 'Page title, file name or https://…' : 'Page title'}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            if (choices[0] && !(address && 'refused' in address)) pick(choices[0]);
          }}
          aria-describedby={address && 'refused' in address ? `${id}-refused` : undefined}
        />
      )}
      {address && 'refused' in address && (
        <Alert color="red" role="alert" id={`${id}-refused`} variant="light">
          This address cannot be linked: {address.refused}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert" variant="light">
          The change request’s pages could not be read: {error.message} Close this and try again.
        </Alert>
      )}
      {isPending && <Text size="sm" c="dimmed">Loading the pages…</Text>}
      {drilled && headings.isPending && <Text size="sm" c="dimmed">Loading the headings…</Text>}
      {drilled && headings.data?.length === 0 && <Text size="sm" c="dimmed">This page has no headings yet.</Text>}
      <ScrollArea.Autosize mah="min(24rem, 55vh)" type="auto">
        <Stack gap={2} ref={list} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Where the link can lead">
          {choices.map((choice) => (
            <Group component="li" key={choice.key} gap={4} wrap="nowrap">
              <UnstyledButton data-choice className="quire-reference-choice" onClick={() => pick(choice)}>
                <Text size="sm" fw={500} span>
                  {choice.glyph && <span aria-hidden="true">{choice.glyph} </span>}
                  {choice.label}
                </Text>
                {choice.detail && (
                  <Text size="xs" c="dimmed" display="block" span>
                    {choice.detail}
                  </Text>
                )}
              </UnstyledButton>
              {choice.headingsOf && (
                <ActionIcon
                  data-choice
                  variant="subtle"
                  size="lg"
                  aria-label={`Headings of ${choice.label}`}
                  title="Link to a heading of this page"
                  onClick={() => setDrilled(choice.headingsOf)}
                >
                  <span aria-hidden="true">#</span>
                </ActionIcon>
              )}
            </Group>
          ))}
        </Stack>
      </ScrollArea.Autosize>
      {!isPending && !drilled && choices.length === 0 && !(address && 'refused' in address) && (
        <Text size="sm" c="dimmed" role="status">
          {typed ? `No page${linking ? ' or file' : ''} matches “${typed}”.` : 'This change request has no pages yet.'}
        </Text>
      )}
      {request.onRemove && (
        <Group justify="flex-end">
          <Button
            variant="default"
            color="red"
            onClick={() => {
              request.onRemove?.();
              done();
            }}
          >
            Remove the link
          </Button>
        </Group>
      )}
    </Stack>
  );
}

// —— The bar over a link ——

function LinkBar({ editor, context }: PartProps) {
  const [link, setLink] = useState<{ pos: number; node: ProseMirrorNode } | undefined>();
  const [position, setPosition] = useState<{ top: number; left: number } | undefined>();
  const bar = useRef<HTMLDivElement>(null);
  const { data, index } = useChangeRequestContent(context);

  useEffect(() => {
    const update = () => {
      const found = linkAt(editor.state);
      const focused = editor.isFocused || (bar.current?.contains(document.activeElement) ?? false);
      setLink(found && focused ? found : undefined);
    };
    update();
    editor.on('transaction', update);
    editor.on('focus', update);
    editor.on('blur', update);
    return () => {
      editor.off('transaction', update);
      editor.off('focus', update);
      editor.off('blur', update);
    };
  }, [editor]);

  usePlaced(
    () => {
      const box = (editor.view.nodeDOM(link!.pos) as HTMLElement | null)?.getBoundingClientRect?.();
      if (box) setPosition({ top: box.bottom + 6, left: insideWindow(box.left, bar.current?.offsetWidth ?? 280) });
    },
    link !== undefined,
    [editor, link],
  );

  if (!link) return null;
  const ref = link.node.attrs.data?.ref as ContentRef | undefined;
  const label = refLabel(ref, data, index);
  const broken = brokenReason(ref, knownTargetsOf(editor.state));
  const base = context.basePath;
  const pathOf = (pageId: string | undefined) => (pageId ? index?.byId.get(pageId)?.page.path : undefined);
  const href =
    ref?.kind === 'url' ? ref.url
    : ref?.kind === 'page' && pathOf(ref.page) !== undefined && base ? `${base}/${pathOf(ref.page)}${ref.anchor ? `#${ref.anchor}` : ''}`
    : ref?.kind === 'anchor' && base && pathOf(ref.page ?? context.pageId) !== undefined ? `${base}/${pathOf(ref.page ?? context.pageId)}#${ref.anchor}`
    : ref?.kind === 'file' ? data?.files.find((file) => file.id === ref.file)?.downloadURL
    : undefined;
  return (
    // In the main landmark, where axe-core wants every part of the screen.
    <Portal target="main">
      <Paper
        ref={bar}
        shadow="md"
        withBorder
        radius="md"
        px="xs"
        py={4}
        role="group"
        aria-label="Link"
        style={{ position: 'fixed', top: position?.top ?? -1000, left: position?.left ?? 0, zIndex: 250, maxWidth: 'calc(100vw - 1rem)' }}
        // Clicking the bar keeps the cursor (and the bar) in the link.
        onMouseDown={(event) => event.preventDefault()}
      >
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" truncate="end" maw="16rem" className={broken ? 'quire-reference-problem' : undefined} title={broken}>
            {broken ? `${broken}: ` : ''}
            {label}
          </Text>
          {href && (
            <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
              Open
            </Anchor>
          )}
          <Button size="compact-sm" variant="subtle" onClick={() => linkSelection(editor)}>
            Edit
          </Button>
          <Button size="compact-sm" variant="subtle" onClick={() => removeLink(editor, link.pos)}>
            Remove
          </Button>
        </Group>
      </Paper>
    </Portal>
  );
}

// —— References that lead nowhere ——

interface BrokenState {
  known: KnownTargets | undefined;
  decorations: DecorationSet;
  /** Counts the changes that may have added, removed or altered a reference, so that the headings to load are looked for again only then. */
  referencesVersion: number;
}

const brokenKey = new PluginKey<BrokenState>('brokenReferences');

/** What the change request holds, when a transaction brings the editor news of it (once it is read, and when it changes). */
export const knownTargetsIn = (tr: Transaction): KnownTargets | undefined => tr.getMeta(brokenKey) as KnownTargets | undefined;

/** The nodes whose `data.ref` is checked: links, mentions and page links. */
const CHECKED = new Set(['link', 'mention', 'contentRef']);

function brokenDecoration(node: ProseMirrorNode, pos: number, known: KnownTargets): Decoration | undefined {
  const reason = brokenReason(node.attrs.data?.ref, known);
  return reason ? Decoration.node(pos, pos + node.nodeSize, { class: 'quire-broken-reference', title: reason, 'data-broken': 'true' }) : undefined;
}

/** Every reference of the document checked: only when what the change request holds changes. */
function brokenDecorations(doc: ProseMirrorNode, known: KnownTargets | undefined): DecorationSet {
  if (!known) return DecorationSet.empty;
  const decorations: Decoration[] = [];
  doc.descendants((node, pos) => {
    const decoration = CHECKED.has(node.type.name) ? brokenDecoration(node, pos, known) : undefined;
    if (decoration) decorations.push(decoration);
    return true;
  });
  return DecorationSet.create(doc, decorations);
}

/** Whether a checked node between `from` and `to` was put there, taken away or changed there (the links the range is only inside of were not). */
function touchesReference(doc: ProseMirrorNode, from: number, to: number): boolean {
  let touched = false;
  doc.nodesBetween(from, to, (node, pos) => {
    if (touched) return false;
    if (CHECKED.has(node.type.name) && (pos >= from || pos + node.nodeSize <= to)) touched = true;
    return !touched;
  });
  return touched;
}

/** Whether a transaction took away or changed a reference of the document it started from, looked for only where each step replaced something. */
function removedReference(tr: Transaction): boolean {
  return tr.steps.some((step, index) => {
    const before = tr.docs[index];
    let touched = false;
    let replaced = false;
    tr.mapping.maps[index].forEach((oldStart, oldEnd) => {
      replaced = true;
      touched ||= touchesReference(before, oldStart, oldEnd);
    });
    // A step that changes a node's attributes replaces nothing: the node at its position is the one changed.
    const position = (step as { pos?: unknown }).pos;
    if (!replaced && typeof position === 'number') touched = CHECKED.has(before.nodeAt(position)?.type.name ?? '');
    return touched;
  });
}

/**
 * A key typed must not walk a page of thousands of blocks: the red underlines are
 * moved with the change, and only the references in what it changed are checked again.
 */
function brokenPlugin() {
  return new Plugin<BrokenState>({
    key: brokenKey,
    state: {
      init: (): BrokenState => ({ known: undefined, decorations: DecorationSet.empty, referencesVersion: 0 }),
      apply(tr, value, _old, state): BrokenState {
        const known = knownTargetsIn(tr) ?? value.known;
        if (known === value.known && !tr.docChanged) return value;
        let referencesChanged = tr.docChanged && removedReference(tr);
        if (known !== value.known) {
          if (!referencesChanged && tr.docChanged) referencesChanged = changedRanges([tr]).some(([from, to]) => touchesReference(state.doc, from, to));
          return { known, decorations: brokenDecorations(state.doc, known), referencesVersion: value.referencesVersion + (referencesChanged ? 1 : 0) };
        }
        let decorations = value.decorations.map(tr.mapping, state.doc);
        for (const [from, to] of changedRanges([tr])) {
          // The underlines of the references the change is in or around go, and those references are checked again as they are now.
          const stale = decorations.find(from, to).filter((decoration) => decoration.from < to && decoration.to > from);
          if (stale.length) decorations = decorations.remove(stale);
          const fresh: Decoration[] = [];
          state.doc.nodesBetween(from, to, (node, pos) => {
            if (!CHECKED.has(node.type.name)) return true;
            if (pos >= from || pos + node.nodeSize <= to) referencesChanged = true;
            const decoration = known ? brokenDecoration(node, pos, known) : undefined;
            if (decoration) fresh.push(decoration);
            return true;
          });
          if (fresh.length) decorations = decorations.add(state.doc, fresh);
        }
        return { known, decorations, referencesVersion: value.referencesVersion + (referencesChanged ? 1 : 0) };
      },
    },
    props: { decorations: (state) => brokenKey.getState(state)?.decorations },
  });
}

/** What the change request holds as far as the editor knows it (undefined before its content is read). */
export function knownTargetsOf(state: EditorState): KnownTargets | undefined {
  return brokenKey.getState(state)?.known;
}

function referencesOf(doc: ProseMirrorNode): unknown[] {
  const refs: unknown[] = [];
  doc.descendants((node) => {
    if (CHECKED.has(node.type.name) && node.attrs.data?.ref) refs.push(node.attrs.data.ref);
    return true;
  });
  return refs;
}

/** Feeds the plugin what the change request holds: its pages and files, read again every 30 s and when they change here, and the headings of pages links name. */
function BrokenReferences({ editor, context }: PartProps) {
  const source = { kind: 'changeRequest' as const, changeRequestId: context.changeRequestId };
  const content = useQuery({ queryKey: contentKeys.content(context.spaceId, source), queryFn: () => getContent(context.spaceId, source), refetchInterval: 30_000 });
  const [anchorPageIds, setAnchorPageIds] = useState<string[]>([]);
  useEffect(() => {
    // The document is read again only after a change that may have touched a reference, never for every key.
    let seen: number | undefined;
    const update = () => {
      const version = brokenKey.getState(editor.state)?.referencesVersion;
      if (version === seen) return;
      seen = version;
      const next = anchorPages(referencesOf(editor.state.doc), context.pageId);
      setAnchorPageIds((previous) => (previous.join() === next.join() ? previous : next));
    };
    update();
    editor.on('update', update);
    return () => void editor.off('update', update);
  }, [editor, context.pageId]);
  const headings = useHeadingsOf(context, anchorPageIds);
  const anchorsKey = JSON.stringify([...headings].map(([page, list]) => [page, list?.map((heading) => heading.anchor)]));
  const known = useMemo((): KnownTargets | undefined => {
    if (!content.data) return undefined;
    const { data } = content;
    // One walk of the tree: the index gives the pages' ids and the labels their titles.
    const index = indexPages(data.pages);
    const anchors = new Map((JSON.parse(anchorsKey) as Array<[string, string[] | undefined]>).map(([page, list]) => [page, list && new Set(list)]));
    return { pages: new Set(index.byId.keys()), files: new Set(data.files.map((file) => file.id)), anchors, pageId: context.pageId, label: (ref) => refLabel(ref, data, index) };
  }, [content.data, anchorsKey, context.pageId]);
  useEffect(() => {
    if (known && !editor.isDestroyed) editor.view.dispatch(editor.state.tr.setMeta(brokenKey, known).setMeta('addToHistory', false));
  }, [editor, known]);
  return null;
}

function LinkOverlay(props: PartProps) {
  return (
    <>
      <BrokenReferences {...props} />
      <LinkBar {...props} />
      <ReferencePicker {...props} />
    </>
  );
}

function LinkButton({ editor }: PartProps) {
  return (
    <Button size="compact-sm" variant="default" onClick={() => linkSelection(editor)} title="Link (Ctrl+K or ⌘K)" aria-keyshortcuts="Control+K Meta+K">
      Link
    </Button>
  );
}

/** The position just outside a link when `pos` is at its very end (after it) or start (before it). */
function outsideLinkEdge(state: EditorState, pos: number): number | undefined {
  const $pos = state.doc.resolve(pos);
  if ($pos.parent.type.name !== 'link') return undefined;
  if ($pos.parentOffset === $pos.parent.content.size) return $pos.after();
  if ($pos.parentOffset === 0) return $pos.before();
  return undefined;
}

/**
 * A link does not grow with what is typed at its edges, as GitBook's do not: the
 * browser puts the caret inside the link's last word (Ctrl+End, a click after it), and
 * words typed there go after the link. Enter in a link ends the paragraph there: at an
 * edge outside the link, in its middle between its two halves.
 */
function linkEdgesPlugin() {
  return new Plugin({
    key: new PluginKey('linkEdges'),
    props: {
      handleTextInput(view, from, to, text) {
        const at = from === to ? outsideLinkEdge(view.state, from) : undefined;
        if (at === undefined) return false;
        const tr = view.state.tr.insertText(text, at);
        view.dispatch(tr.setSelection(TextSelection.create(tr.doc, at + text.length)));
        return true;
      },
      handleKeyDown(view, event) {
        const { $from, empty } = view.state.selection;
        if (event.key !== 'Enter' || event.shiftKey || event.isComposing || !empty || $from.parent.type.name !== 'link') return false;
        const edge = outsideLinkEdge(view.state, $from.pos);
        const tr = view.state.tr;
        if (edge !== undefined) tr.setSelection(TextSelection.create(tr.doc, edge));
        else tr.split($from.pos).setSelection(TextSelection.create(tr.doc, $from.pos + 1));
        view.dispatch(tr);
        // The paragraph is split by Enter's own handling, now outside the link.
        return false;
      },
    },
  });
}

/** A URL pasted on selected words links them (a web address; anything else pastes as text). */
function pastePlugin(editor: Editor) {
  return new Plugin({
    key: new PluginKey('pasteLink'),
    props: {
      handlePaste(view, event) {
        const text = event.clipboardData?.getData('text/plain')?.trim() ?? '';
        const { from, to, empty } = view.state.selection;
        if (empty || !/^(https?:\/\/|mailto:)\S+$/i.test(text) || linkAt(view.state)) return false;
        const address = typedUrl(text);
        const $from = view.state.doc.resolve(from);
        if (!('url' in address) || $from.parent !== view.state.doc.resolve(to).parent || $from.parent.type.name === 'link') return false;
        const content = linkContent(editor, view.state.doc.slice(from, to).content);
        if (!content) return false;
        view.dispatch(view.state.tr.replaceWith(from, to, editor.schema.nodes.link.create({ data: { ref: { kind: 'url', url: address.url } } }, content)));
        return true;
      },
    },
  });
}

export const part: EditorPart = {
  order: 40,
  keys: (editor) => ({
    'Mod-k': () => {
      linkSelection(editor);
      return true;
    },
  }),
  plugins: (editor) => [brokenPlugin(), pastePlugin(editor), linkEdgesPlugin()],
  toolbar: LinkButton,
  overlay: LinkOverlay,
  styles: `
.quire-editor a[data-type="link"] { color: var(--mantine-color-anchor); text-decoration: underline; cursor: text; }
.quire-editor .quire-broken-reference, .quire-editor a[data-type="link"].quire-broken-reference { text-decoration: underline wavy var(--mantine-color-red-filled); text-decoration-skip-ink: none; text-underline-offset: 3px; }
.quire-editor div.quire-broken-reference { outline: 2px dashed var(--mantine-color-red-filled); outline-offset: 2px; text-decoration: none; }
.quire-reference-problem { color: var(--mantine-color-red-9); }
[data-mantine-color-scheme="dark"] .quire-reference-problem { color: var(--mantine-color-red-4); }
.quire-reference-choice { flex: 1; min-width: 0; padding: 0.35rem 0.6rem; border-radius: var(--mantine-radius-sm); }
.quire-reference-choice:hover, .quire-reference-choice:focus-visible { background: var(--mantine-primary-color-light); }
`,
};
