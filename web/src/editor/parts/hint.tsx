// GitBook's hint: blocks in a coloured box of one of four styles (`data.style`: info,
// success, warning, danger), drawn as the reader draws them, with a button at its side
// that names the style and changes it. The slash menu makes an info hint.
import { Menu, UnstyledButton } from '@mantine/core';
import { NodeViewContent, NodeViewWrapper, ReactNodeViewRenderer, type NodeViewProps } from '@tiptap/react';
import type { EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { controlsOwnTheirEvents, insertBlock } from './containers.ts';

/** GitBook's styles, named as its editor names them, in its order, with the colour each is drawn in. */
const STYLES = [
  { style: 'info', label: 'Info', color: 'blue' },
  { style: 'success', label: 'Success', color: 'green' },
  { style: 'warning', label: 'Warning', color: 'orange' },
  { style: 'danger', label: 'Danger', color: 'red' },
] as const;

type HintStyle = (typeof STYLES)[number];

// One glyph per style: i, a tick, !, and a cross.
const GLYPHS: Record<HintStyle['style'], string> = {
  info: 'M12 11v6M12 7.5v.5',
  success: 'M7.5 12.5l3 3 6-6.5',
  warning: 'M12 7v6M12 16.5v.5',
  danger: 'M8.5 8.5l7 7M15.5 8.5l-7 7',
};

function StyleIcon({ hint }: { hint: HintStyle }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" aria-hidden="true">
      <circle cx="12" cy="12" r="9.5" strokeWidth="1.8" />
      <path d={GLYPHS[hint.style]} />
    </svg>
  );
}

function HintView({ node, updateAttributes }: NodeViewProps) {
  const data = (node.attrs.data ?? {}) as Record<string, unknown>;
  const hint = STYLES.find((entry) => entry.style === data.style) ?? STYLES[0];
  return (
    <NodeViewWrapper className="quire-hint" data-style={hint.style} style={{ '--hint-color': `var(--mantine-color-${hint.color}-filled)`, '--hint-background': `var(--mantine-color-${hint.color}-light)` }}>
      <div contentEditable={false} data-controls className="quire-hint-style">
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <UnstyledButton className="quire-hint-button" aria-label={`${hint.label} hint: change its style`} title="Change the hint's style">
              <StyleIcon hint={hint} />
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Hint style</Menu.Label>
            {STYLES.map((entry) => (
              <Menu.Item
                key={entry.style}
                leftSection={<span style={{ color: `var(--mantine-color-${entry.color}-filled)`, display: 'inline-flex' }}><StyleIcon hint={entry} /></span>}
                aria-current={entry === hint ? 'true' : undefined}
                fw={entry === hint ? 700 : undefined}
                onClick={() => updateAttributes({ data: { ...data, style: entry.style } })}
              >
                {entry.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </div>
      <NodeViewContent className="quire-hint-content" />
    </NodeViewWrapper>
  );
}

export const part: EditorPart = {
  views: { hint: ReactNodeViewRenderer(HintView, { stopEvent: controlsOwnTheirEvents }) },
  slash: [
    {
      title: 'Hint',
      description: 'A note, tip, warning or danger, in a coloured box.',
      keywords: ['callout', 'note', 'info', 'tip', 'warning', 'danger', 'success', 'alert', 'admonition'],
      group: 'Blocks',
      insert: (editor, range) => {
        const { hint, paragraph } = editor.schema.nodes;
        insertBlock(editor, range, hint.create({ data: { style: 'info' } }, paragraph.create()));
      },
    },
  ],
  styles: `
.${EDITOR_CLASS} .quire-hint { display: flex; gap: 0.5rem; margin: 0.75rem 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--hint-color); border-radius: var(--mantine-radius-sm); background: var(--hint-background); }
.${EDITOR_CLASS} .quire-hint-style { flex: none; padding-top: 0.45rem; }
.${EDITOR_CLASS} .quire-hint-button { display: inline-flex; color: var(--hint-color); border-radius: 50%; }
.${EDITOR_CLASS} .quire-hint-button:focus-visible { outline: 2px solid var(--mantine-primary-color-filled); outline-offset: 2px; }
.${EDITOR_CLASS} .quire-hint-content { flex: 1; min-width: 0; }
.${EDITOR_CLASS} .quire-hint-content p { margin: 0.25rem 0; }
`,
};
