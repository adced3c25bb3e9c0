// GitBook's images: an `images` block holding `image`s side by side, each a picture
// (data.ref, a file of the change request or a web address) with its caption (the
// `caption` fragment, written in place), alt text, width, and a variant for dark mode
// (data.refDark); an image is replaced or deleted from its fields. The block's bar sets
// its alignment (`align`) and frame (`withFrame`) and adds images beside the others; the
// page-wide size is its `fullWidth`. Every field is GitBook's, so the reader and Git
// Sync's markdown (`<figure>`, `<picture>`, `<div align data-with-frame>`) keep what was set here.
import { Button, Checkbox, Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { NodeViewContent, NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import { contextOf, type EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { emptyCaption, IMAGE_ACCEPT, imageData, pickFiles, uploadForField, useFileSource } from '../uploads.ts';
import { controlsOwnTheirEvents, withData } from './containers.ts';

type Length = number | { unit: string; value: number };

/** Sizes offered: the picture's own, a share of the text's width, or the page's whole width (the images block's fullWidth). */
const SIZES = [
  { value: 'original', label: 'Original size' },
  { value: '25', label: 'Small (a quarter of the text width)' },
  { value: '50', label: 'Medium (half the text width)' },
  { value: '75', label: 'Large (three quarters)' },
  { value: '100', label: 'Text width' },
  { value: 'full', label: 'Full width of the page' },
];

function lengthCss(width: unknown): string | undefined {
  if (typeof width === 'number' && Number.isFinite(width)) return `${width}px`;
  const length = width as { unit?: string; value?: number } | undefined;
  if (length && typeof length.value === 'number' && /^(%|px|em|rem)$/.test(length.unit ?? 'px')) return `${length.value}${length.unit ?? 'px'}`;
  return undefined;
}

function sizeOf(width: unknown, fullWidth: boolean): string {
  if (fullWidth) return 'full';
  if (width === undefined) return 'original';
  const length = width as { unit?: string; value?: number };
  if (length.unit === '%' && [25, 50, 75, 100].includes(length.value ?? -1)) return String(length.value);
  return 'written';
}

function ImageView({ node, editor, getPos, updateAttributes }: ReactNodeViewProps) {
  const context = contextOf(editor);
  const data = (node.attrs.data ?? {}) as Record<string, unknown>;
  const source = useFileSource(context, data.ref);
  const dark = useFileSource(context, data.refDark);
  const set = (changes: Record<string, unknown>) => updateAttributes({ data: imageData({ ...data, ...changes }) });
  const alt = typeof data.alt === 'string' ? data.alt : '';

  // The images block around this image: its fullWidth is the widest size.
  const block = () => {
    const pos = getPos();
    if (pos === undefined) return undefined;
    const $pos = editor.state.doc.resolve(pos);
    return $pos.parent.type.name === 'images' ? { pos: $pos.before(), node: $pos.parent } : undefined;
  };
  const fullWidth = block()?.node.attrs.data?.fullWidth === true;
  const written = lengthCss(data.width);
  const size = sizeOf(data.width, fullWidth);

  const chooseSize = (value: string) => {
    const around = block();
    const tr = editor.state.tr;
    if (around) {
      const { fullWidth: _wide, ...rest } = (around.node.attrs.data ?? {}) as Record<string, unknown>;
      tr.setNodeAttribute(around.pos, 'data', value === 'full' ? { ...rest, fullWidth: true } : rest);
    }
    const pos = getPos();
    if (pos !== undefined) {
      const width: Length | undefined = value === 'original' || value === 'full' ? undefined : { unit: '%', value: Number(value) };
      tr.setNodeAttribute(pos, 'data', imageData({ ...data, width }));
    }
    editor.view.dispatch(tr);
  };

  const chooseDark = () =>
    pickFiles(IMAGE_ACCEPT, false, async ([file]) => {
      const uploaded = file && (await uploadForField(editor, file, 'image'));
      if (uploaded) set({ refDark: { kind: 'file', file: uploaded.id } });
    });

  const replace = () =>
    pickFiles(IMAGE_ACCEPT, false, async ([file]) => {
      const uploaded = file && (await uploadForField(editor, file, 'image'));
      if (uploaded) set({ ref: { kind: 'file', file: uploaded.id } });
    });
  // The last image takes its images block with it.
  const remove = () => {
    const pos = getPos();
    const around = block();
    if (pos === undefined) return;
    const [from, to] = around && around.node.childCount === 1 ? [around.pos, around.pos + around.node.nodeSize] : [pos, pos + node.nodeSize];
    editor.chain().focus().deleteRange({ from, to }).run();
  };

  const name = source.file?.name ?? 'the image';
  return (
    <NodeViewWrapper as="figure" className="quire-image">
      <div contentEditable={false} className="quire-image-picture">
        {source.url ? (
          <picture>
            {dark.url && <source srcSet={dark.url} media="(prefers-color-scheme: dark)" />}
            <img src={source.url} alt={alt} style={{ width: written }} draggable={false} />
          </picture>
        ) : (
          <Text size="sm" c="dimmed" p="md">
            {source.loading ? 'Loading the image…' : source.problem}
          </Text>
        )}
      </div>
      <NodeViewContent className="quire-caption" />
      <Group contentEditable={false} className="quire-image-fields" gap="xs" align="flex-end" wrap="wrap">
        <TextInput
          size="xs"
          label="Alt text"
          placeholder="What the image shows, for those who cannot see it"
          value={alt}
          onChange={(event) => set({ alt: event.currentTarget.value === '' ? undefined : event.currentTarget.value })}
          className="quire-image-alt"
        />
        <NativeSelect
          size="xs"
          label="Size"
          value={size}
          onChange={(event) => chooseSize(event.currentTarget.value)}
          data={size === 'written' ? [{ value: 'written', label: `As written (${written ?? 'custom'})` }, ...SIZES] : SIZES}
        />
        <Button size="xs" variant="default" onClick={replace}>
          Replace image
        </Button>
        <Button size="xs" variant="default" onClick={remove}>
          Delete image
        </Button>
        {data.refDark ? (
          <Group gap={4} wrap="nowrap" className="quire-image-dark">
            {dark.url && <img src={dark.url} alt={`Dark mode variant of ${name}`} className="quire-image-dark-thumbnail" />}
            <Text size="xs">{dark.problem ?? 'Dark mode variant'}</Text>
            <Button size="compact-xs" variant="default" onClick={() => set({ refDark: undefined })}>
              Remove
            </Button>
          </Group>
        ) : (
          <Button size="xs" variant="default" onClick={chooseDark}>
            Add a dark mode variant
          </Button>
        )}
      </Group>
    </NodeViewWrapper>
  );
}

const ALIGNMENTS = [
  { value: '', label: 'As the page' },
  { value: 'left', label: 'Left' },
  { value: 'center', label: 'Centre' },
  { value: 'right', label: 'Right' },
];

/** The images block: its bar (alignment, frame, more images) above its images. */
function ImagesView({ node, editor, getPos, updateAttributes }: ReactNodeViewProps) {
  const data = (node.attrs.data ?? {}) as Record<string, unknown>;
  const set = (changes: Record<string, unknown>) => updateAttributes({ data: withData(data, changes) });
  const align = typeof data.align === 'string' ? data.align : '';
  const addImages = () =>
    pickFiles(IMAGE_ACCEPT, true, async (files) => {
      for (const file of files) {
        const uploaded = await uploadForField(editor, file, 'image');
        const pos = getPos();
        const around = pos === undefined ? undefined : editor.state.doc.nodeAt(pos);
        if (!uploaded || pos === undefined || around?.type.name !== 'images') continue;
        const image = editor.schema.nodes.image.create({ data: imageData({ ref: { kind: 'file', file: uploaded.id } }), isVoid: true }, emptyCaption(editor.schema));
        editor.view.dispatch(editor.state.tr.insert(pos + around.nodeSize - 1, image));
      }
    });
  return (
    <NodeViewWrapper className="quire-images" data-align={align || undefined} data-frame={data.withFrame === true || undefined}>
      <Group contentEditable={false} data-controls className="quire-images-bar" gap="xs" align="flex-end" wrap="wrap">
        <NativeSelect size="xs" label="Alignment" data={ALIGNMENTS} value={align} onChange={(event) => set({ align: event.currentTarget.value || undefined })} />
        <Checkbox size="xs" label="Frame" checked={data.withFrame === true} onChange={(event) => set({ withFrame: event.currentTarget.checked || undefined })} />
        <Button size="xs" variant="default" onClick={addImages}>
          Add images beside
        </Button>
      </Group>
      <NodeViewContent className="quire-images-row" />
    </NodeViewWrapper>
  );
}

export const part: EditorPart = {
  views: { image: ReactNodeViewRenderer(ImageView), images: ReactNodeViewRenderer(ImagesView, { stopEvent: controlsOwnTheirEvents }) },
  styles: `
/* Its images are framed each: not the outlined box of blocks drawn by no part (styles.ts), hence the same selector's weight. A block asleep (wakingViews.ts) is drawn as its plain div. */
.${EDITOR_CLASS} div[data-type="images"]:not([data-type="fragment"]):not([data-type="codeLine"]), .${EDITOR_CLASS} .quire-images-row > [data-node-view-content-react] { border: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.75rem; }
.${EDITOR_CLASS} div[data-type="images"] > *, .${EDITOR_CLASS} .quire-images-row > [data-node-view-content-react] > * { flex: 1 1 16rem; min-width: 0; }
.${EDITOR_CLASS} .quire-images { margin: 0.5rem 0; }
.${EDITOR_CLASS} .quire-images[data-frame] { padding: 0.5rem; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-md); background: var(--mantine-color-default-hover); }
.${EDITOR_CLASS} .quire-images-bar { font-size: var(--mantine-font-size-xs); }
.${EDITOR_CLASS} .quire-images[data-align="left"] .quire-images-row > [data-node-view-content-react] > * { flex-grow: 0; }
.${EDITOR_CLASS} .quire-images[data-align="center"] .quire-images-row > [data-node-view-content-react] { justify-content: center; }
.${EDITOR_CLASS} .quire-images[data-align="center"] .quire-images-row > [data-node-view-content-react] > *, .${EDITOR_CLASS} .quire-images[data-align="right"] .quire-images-row > [data-node-view-content-react] > * { flex-grow: 0; }
.${EDITOR_CLASS} .quire-images[data-align="right"] .quire-images-row > [data-node-view-content-react] { justify-content: flex-end; }
.${EDITOR_CLASS} .quire-image { margin: 0.5rem 0; padding: 0.5rem; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-md); }
.${EDITOR_CLASS} .quire-image-picture { display: flex; justify-content: center; }
.${EDITOR_CLASS} .quire-image-picture img { max-width: 100%; height: auto; border-radius: var(--mantine-radius-sm); }
.${EDITOR_CLASS} .quire-image-fields { margin-top: 0.5rem; }
.${EDITOR_CLASS} .quire-image-alt { flex: 1 1 12rem; }
.${EDITOR_CLASS} .quire-caption:empty { display: none; }
.${EDITOR_CLASS} .quire-caption { color: var(--mantine-color-dimmed); font-size: 0.9em; text-align: center; }
.${EDITOR_CLASS} .quire-caption [data-type="fragment"] > p { margin: 0.25rem 0; }
.${EDITOR_CLASS} .quire-image-dark-thumbnail { height: 1.75rem; width: auto; border-radius: var(--mantine-radius-sm); }
.${EDITOR_CLASS} .quire-caption [data-type="fragment"] > p:only-child:has(> br.ProseMirror-trailingBreak:only-child) { position: relative; }
.${EDITOR_CLASS} .quire-caption [data-type="fragment"] > p:only-child:has(> br.ProseMirror-trailingBreak:only-child)::before { content: "Write a caption (optional)"; position: absolute; inset: 0; pointer-events: none; opacity: 0.7; }
`,
};
