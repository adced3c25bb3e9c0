// GitBook's marks: a formatting bar above the page (each button says whether the
// selection has its mark, and names its key), the keys themselves, markdown shortcuts
// (**bold**, *italic*, `code`, ~~strikethrough~~) and the colour mark drawn in the page
// with GitBook's colour names (the schema keeps a colour in the mark's data, which the
// page's HTML does not show, so decorations draw it).
import { ActionIcon, Button, Group, Paper, Popover, SimpleGrid, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { markInputRule, type Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, TextSelection, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { useEditorState } from '@tiptap/react';
import { useEffect, useId, useRef, useState } from 'react';
import { insideWindow, usePlaced } from '../floating.ts';
import type { EditorPart, PartProps } from '../part.ts';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
/** A key as the writer's keyboard names it: `Mod-Shift-s` is Ctrl+Shift+S, or ⌘⇧S on a Mac. */
export const keyName = (key: string) =>
  key
    .split('-')
    .map((part) => (part === 'Mod' ? (MAC ? '⌘' : 'Ctrl') : part === 'Shift' ? (MAC ? '⇧' : 'Shift') : part === 'Alt' ? (MAC ? '⌥' : 'Alt') : part.length === 1 ? part.toUpperCase() : part))
    .join(MAC ? '' : '+');

type SimpleMark = 'bold' | 'italic' | 'strikethrough' | 'code' | 'keyboard' | 'superscript' | 'subscript';

/** The marks with no data, in GitBook's order, each with its keys (the first is the one the button names) and the glyph its button shows. */
const MARKS: Array<{ mark: SimpleMark; title: string; glyph: string; keys: string[] }> = [
  { mark: 'bold', title: 'Bold', glyph: 'B', keys: ['Mod-b'] },
  { mark: 'italic', title: 'Italic', glyph: 'I', keys: ['Mod-i'] },
  { mark: 'strikethrough', title: 'Strikethrough', glyph: 'S', keys: ['Mod-Shift-s', 'Mod-Shift-x'] },
  { mark: 'code', title: 'Code', glyph: '</>', keys: ['Mod-e'] },
  { mark: 'keyboard', title: 'Keyboard key', glyph: 'Kbd', keys: ['Mod-Alt-k'] },
  { mark: 'superscript', title: 'Superscript', glyph: 'x²', keys: ['Mod-.'] },
  { mark: 'subscript', title: 'Subscript', glyph: 'x₂', keys: ['Mod-,'] },
];

/** Superscript and subscript exclude each other, as a number cannot be both. */
const OPPOSITE: Partial<Record<SimpleMark, SimpleMark>> = { superscript: 'subscript', subscript: 'superscript' };

function toggle(editor: Editor, mark: SimpleMark): boolean {
  const opposite = OPPOSITE[mark];
  const chain = editor.chain().focus();
  return (opposite ? chain.unsetMark(opposite) : chain).toggleMark(mark).run();
}

/** GitBook's named colours (DocumentTextColor), as its colour picker offers them, and how the page draws each. */
const COLORS = ['default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan'] as const;
type Color = (typeof COLORS)[number];
interface ColorData {
  text: string;
  background: string;
}

// Mantine's palette, which follows the light or dark scheme; GitBook's semantic `$…` tokens as the nearest.
const MANTINE_NAME: Record<string, string> = { purple: 'grape', primary: 'blue', info: 'blue', success: 'green', warning: 'orange', danger: 'red', tint: 'gray' };
const mantineName = (token: string) => MANTINE_NAME[token] ?? token;
const TOKENS = [...COLORS.slice(1), 'primary', 'info', 'success', 'warning', 'danger', 'tint'];

/** A colour token as a class name: letters and dashes only (the reader's rule). */
const safeToken = (value: unknown) => String(value ?? 'default').replace(/^\$/, '').replace(/[^A-Za-z0-9-]/g, '') || 'default';

const colorClasses = (data: Partial<ColorData> | null) => `quire-color-text-${safeToken(data?.text)} quire-color-background-${safeToken(data?.background)}`;

// Coloured words must stay readable (WCAG AA, 4.5:1): Mantine's `-text` shades fall to about 3:1 on white for red, orange and
// yellow, so light pages take the darkest shade deepened further, dark pages a light one.
const colorStyles = TOKENS.map((token) => {
  const name = mantineName(token);
  return [
    `.quire-color-text-${token} { color: color-mix(in srgb, var(--mantine-color-${name}-9) 70%, black); }`,
    `[data-mantine-color-scheme="dark"] .quire-color-text-${token} { color: var(--mantine-color-${name}-3); }`,
    `.quire-color-background-${token} { background: color-mix(in srgb, var(--mantine-color-${name}-filled) 22%, transparent); border-radius: 3px; }`,
  ].join('\n');
}).join('\n');

/** The colour decorations of the text in one block. */
function colorDecorations(block: ProseMirrorNode, start: number, into: Decoration[]) {
  block.descendants((node, position) => {
    const color = node.isText ? node.marks.find((mark) => mark.type.name === 'color') : undefined;
    if (color) into.push(Decoration.inline(start + position, start + position + node.nodeSize, { class: colorClasses(color.attrs.data) }));
    return !node.isText;
  });
}

/** The stretch of the final document that a transaction's steps touched (marks included, which move nothing), for decorations redone only there. */
export function touched(tr: Transaction): [number, number] {
  let from = tr.doc.content.size;
  let to = 0;
  tr.steps.forEach((step, index) => {
    const after = tr.mapping.slice(index + 1);
    const ranges: Array<[number, number]> = [];
    step.getMap().forEach((_oldStart, _oldEnd, newStart, newEnd) => ranges.push([newStart, newEnd]));
    // A mark step moves nothing, so its map is empty: its own from and to say what it touched.
    const marked = step as unknown as { from?: number; to?: number };
    if (typeof marked.from === 'number' && typeof marked.to === 'number') ranges.push([step.getMap().map(marked.from, -1), step.getMap().map(marked.to, 1)]);
    for (const [start, end] of ranges) {
      from = Math.min(from, after.map(start, -1));
      to = Math.max(to, after.map(end, 1));
    }
  });
  return [from, Math.max(from, to)];
}

const colorKey = new PluginKey<DecorationSet>('colorMarks');

const colorMarks = new Plugin<DecorationSet>({
  key: colorKey,
  state: {
    init: (_config, state) => {
      const found: Decoration[] = [];
      state.doc.descendants((node, position) => {
        if (node.isTextblock) colorDecorations(node, position + 1, found);
        return !node.isTextblock;
      });
      return DecorationSet.create(state.doc, found);
    },
    // Only the blocks the change touched are looked at again: a keystroke in a long page stays cheap.
    apply: (tr, old) => {
      if (!tr.docChanged) return old;
      let set = old.map(tr.mapping, tr.doc);
      const [from, to] = touched(tr);
      tr.doc.nodesBetween(from, Math.min(to, tr.doc.content.size), (node, position) => {
        if (!node.isTextblock) return true;
        const found: Decoration[] = [];
        colorDecorations(node, position + 1, found);
        set = set.remove(set.find(position, position + node.nodeSize)).add(tr.doc, found);
        return false;
      });
      return set;
    },
  },
  props: { decorations: (state) => colorKey.getState(state) },
});

/** The colour the colour key gives: the last one chosen in the bar, else GitBook's yellow highlight. */
const lastColor = new WeakMap<Editor, ColorData>();
const DEFAULT_COLOR: ColorData = { text: 'default', background: 'yellow' };

function applyColor(editor: Editor, data: ColorData) {
  lastColor.set(editor, data);
  const plain = data.text === 'default' && data.background === 'default';
  return plain ? editor.chain().focus().unsetMark('color').run() : editor.chain().focus().setMark('color', { data }).run();
}

function toggleColor(editor: Editor): boolean {
  if (editor.isActive('color')) return editor.chain().focus().unsetMark('color').run();
  return applyColor(editor, lastColor.get(editor) ?? DEFAULT_COLOR);
}

const COLOR_KEY = 'Mod-Shift-h';
const BOLD = [/(?:^|\s)(\*\*(?!\s+\*\*)((?:[^*]+))\*\*(?!\s+\*\*))$/, /(?:^|\s)(__(?!\s+__)((?:[^_]+))__(?!\s+__))$/];
const ITALIC = [/(?:^|\s)(\*(?!\s+\*)((?:[^*]+))\*(?!\s+\*))$/, /(?:^|\s)(_(?!\s+_)((?:[^_]+))_(?!\s+_))$/];
const CODE = /(^|[^`])`([^`]+)`(?!`)$/;
const STRIKE = /(?:^|\s)(~~(?!\s+~~)((?:[^~]+))~~(?!\s+~~))$/;

function Swatch({ color, kind, chosen, onChoose }: { color: Color; kind: 'text' | 'background'; chosen: boolean; onChoose: () => void }) {
  const name = color === 'default' ? (kind === 'text' ? 'Default text' : 'No background') : `${color[0].toUpperCase()}${color.slice(1)} ${kind}`;
  return (
    <Tooltip label={name} openDelay={300}>
      <UnstyledButton aria-label={name} aria-pressed={chosen} onClick={onChoose} className={`quire-swatch ${colorClasses(kind === 'text' ? { text: color } : { background: color })}`}>
        A
      </UnstyledButton>
    </Tooltip>
  );
}

function ColorPicker({ editor, current, opened, onOpen }: { editor: Editor; current: ColorData | null; opened: boolean; onOpen: (opened: boolean) => void }) {
  const id = useId();
  const chosen = current ?? { text: 'default', background: 'default' };
  const choose = (next: ColorData) => {
    applyColor(editor, next);
    onOpen(false);
  };
  return (
    <Popover opened={opened} onChange={onOpen} position="bottom-start" shadow="md" withinPortal trapFocus returnFocus={false}>
      <Popover.Target>
        <ActionIcon variant={current ? 'light' : 'subtle'} color="gray" size="lg" aria-pressed={!!current} aria-label="Colour" title={`Colour (${keyName(COLOR_KEY)} for the last colour)`} onClick={() => onOpen(!opened)}>
          <span aria-hidden="true" className={colorClasses(current)} style={{ fontWeight: 700, padding: '0 3px' }}>
            A
          </span>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        <Stack gap="xs">
          <Text size="xs" fw={600} id={`${id}-text`}>
            Text colour
          </Text>
          <SimpleGrid cols={5} spacing={4} role="group" aria-labelledby={`${id}-text`}>
            {COLORS.map((color) => (
              <Swatch key={color} color={color} kind="text" chosen={chosen.text === color} onChoose={() => choose({ ...chosen, text: color })} />
            ))}
          </SimpleGrid>
          <Text size="xs" fw={600} id={`${id}-background`}>
            Background
          </Text>
          <SimpleGrid cols={5} spacing={4} role="group" aria-labelledby={`${id}-background`}>
            {COLORS.map((color) => (
              <Swatch key={color} color={color} kind="background" chosen={chosen.background === color} onChoose={() => choose({ ...chosen, background: color })} />
            ))}
          </SimpleGrid>
          <Button size="xs" variant="default" disabled={!current} onClick={() => choose({ text: 'default', background: 'default' })}>
            Remove colour
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** The marks on the selection (or to be typed next), as the buttons show them pressed. */
function useMarks(editor: Editor) {
  return useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      active: Object.fromEntries(MARKS.map(({ mark }) => [mark, current.isActive(mark)])) as Record<SimpleMark, boolean>,
      color: current.isActive('color') ? ((current.getAttributes('color').data as ColorData | null) ?? null) : null,
    }),
  });
}

/** The mark buttons and the colour picker, in a toolbar named `label`. */
function MarkButtons({ editor, label, pickerOpen, onPickerOpen }: { editor: Editor; label: string; pickerOpen: boolean; onPickerOpen: (opened: boolean) => void }) {
  const state = useMarks(editor);
  return (
    <Group gap={2} role="toolbar" aria-label={label} wrap="wrap">
      {MARKS.map(({ mark, title, glyph, keys }) => (
        <ActionIcon
          key={mark}
          variant={state.active[mark] ? 'light' : 'subtle'}
          color="gray"
          size="lg"
          aria-label={title}
          aria-pressed={state.active[mark]}
          title={`${title} (${keys.map(keyName).join(' or ')})`}
          // The page keeps its selection while the button is pressed.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => toggle(editor, mark)}
        >
          {/* The glyph is drawn by CSS: a picture of the mark, while the button's name says what it is. */}
          <span aria-hidden="true" className="quire-mark-glyph" data-glyph={glyph} data-mark={mark} />
        </ActionIcon>
      ))}
      <ColorPicker editor={editor} current={state.color} opened={pickerOpen} onOpen={onPickerOpen} />
    </Group>
  );
}

function FormattingBar({ editor }: PartProps) {
  const [pickerOpen, setPickerOpen] = useState(false);
  return <MarkButtons editor={editor} label="Formatting" pickerOpen={pickerOpen} onPickerOpen={setPickerOpen} />;
}

// On a touch screen the system's own menu stands above a selection: the bar goes below it there.
const TOUCH = typeof window !== 'undefined' && window.matchMedia('(pointer: coarse)').matches;

/**
 * The same buttons beside the selected words, as GitBook shows them, so that a long page
 * need not be scrolled back to its top to mark a word. Shown once the selection is made
 * (not while the mouse is still selecting), while the page or the bar's colour picker
 * has the focus.
 */
function SelectionBar({ editor }: PartProps) {
  const [pickerOpen, setPickerOpen] = useState(false);
  const [selecting, setSelecting] = useState(false);
  const bar = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const selection = useEditorState({
    editor,
    selector: ({ editor: current }) => {
      const { from, to, empty } = current.state.selection;
      return { from, to, words: current.state.selection instanceof TextSelection && !empty, focused: current.isFocused };
    },
  });
  const shown = selection.words && (selection.focused || pickerOpen) && !selecting;

  useEffect(() => {
    const page = editor.view.dom;
    const down = () => setSelecting(true);
    const up = () => setSelecting(false);
    page.addEventListener('pointerdown', down);
    window.addEventListener('pointerup', up);
    return () => {
      page.removeEventListener('pointerdown', down);
      window.removeEventListener('pointerup', up);
    };
  }, [editor]);

  useEffect(() => {
    if (!shown) setPosition(null);
  }, [shown]);
  usePlaced(
    () => {
      const start = editor.view.coordsAtPos(selection.from);
      const end = editor.view.coordsAtPos(selection.to);
      const above = start.top - (bar.current?.offsetHeight ?? 0) - 8;
      // Below on a touch screen, where the system's own selection menu stands above.
      setPosition({ top: TOUCH || above < 8 ? end.bottom + 8 : above, left: insideWindow(start.left, bar.current?.offsetWidth ?? 0) });
    },
    shown,
    [editor, selection.from, selection.to],
  );

  if (!shown) return null;
  return (
    <Paper
      ref={bar}
      shadow="md"
      withBorder
      radius="md"
      p={2}
      style={{ position: 'fixed', top: position?.top ?? 0, left: position?.left ?? 0, zIndex: 250, visibility: position ? 'visible' : 'hidden', maxWidth: 'calc(100vw - 1rem)' }}
    >
      <MarkButtons editor={editor} label="Formatting of the selection" pickerOpen={pickerOpen} onPickerOpen={setPickerOpen} />
    </Paper>
  );
}

export const part: EditorPart = {
  order: 10,
  toolbar: FormattingBar,
  overlay: SelectionBar,
  keys: (editor) => ({
    ...Object.fromEntries(MARKS.flatMap(({ mark, keys }) => keys.map((key) => [key, () => toggle(editor, mark)]))),
    [COLOR_KEY]: () => toggleColor(editor),
  }),
  inputRules: (editor) => {
    const { marks } = editor.schema;
    return [
      ...BOLD.map((find) => markInputRule({ find, type: marks.bold })),
      ...ITALIC.map((find) => markInputRule({ find, type: marks.italic })),
      markInputRule({ find: CODE, type: marks.code }),
      markInputRule({ find: STRIKE, type: marks.strikethrough }),
    ];
  },
  plugins: () => [colorMarks],
  styles: `
.quire-editor [data-mark="superscript"] { vertical-align: super; font-size: 0.75em; line-height: 0; }
.quire-editor [data-mark="subscript"] { vertical-align: sub; font-size: 0.75em; line-height: 0; }
.quire-editor [data-mark="keyboard"] { border: 1px solid var(--mantine-color-default-border); border-bottom-width: 2px; }
.quire-mark-glyph::before { content: attr(data-glyph); }
.quire-mark-glyph[data-mark="bold"] { font-weight: 800; }
.quire-mark-glyph[data-mark="italic"] { font-style: italic; font-family: Georgia, serif; }
.quire-mark-glyph[data-mark="strikethrough"] { text-decoration: line-through; }
.quire-mark-glyph[data-mark="code"] { font-family: var(--mantine-font-family-monospace); font-size: 0.8em; }
.quire-mark-glyph[data-mark="keyboard"] { font-size: 0.7em; padding: 0 2px; border: 1px solid currentColor; border-bottom-width: 2px; border-radius: 3px; }
.quire-swatch { width: 1.75rem; height: 1.75rem; display: grid; place-items: center; font-weight: 700; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-sm); }
.quire-swatch[aria-pressed="true"] { outline: 2px solid var(--mantine-primary-color-filled); outline-offset: 1px; }
${colorStyles}
`,
};
