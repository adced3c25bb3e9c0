// GitBook's `embed` block: a web address (data.url) the reader shows as a link card, with
// the caption Quire keeps with it. The editor shows the address as a card too: it frames
// no other site's page, whatever the address. The slash menu's Embed asks for the
// address in the block itself, and takes only http and https.
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import { useState, type FormEvent } from 'react';
import type { EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { CaptionSlot } from './file.tsx';

/** The address as typed, made whole (`example.com/x` → `https://example.com/x`), or why it cannot be embedded. */
export function embedAddress(typed: string): { url: string } | { problem: string } {
  const text = typed.trim();
  if (text === '') return { problem: 'Enter the address of what to embed, such as https://www.youtube.com/watch?v=…' };
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { problem: `“${text}” is not a web address. Check it, or copy it from the browser's address bar.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'Only web addresses (starting with https:// or http://) can be embedded.' };
  return { url: url.href };
}

function EmbedView(props: ReactNodeViewProps) {
  const { node, updateAttributes } = props;
  const data = (node.attrs.data ?? {}) as Record<string, unknown>;
  const url = typeof data.url === 'string' ? data.url : '';
  const [editing, setEditing] = useState(url === '');
  const [typed, setTyped] = useState(url);
  const [problem, setProblem] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const answer = embedAddress(typed);
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    setEditing(false);
    updateAttributes({ data: { ...data, url: answer.url } });
  };

  let host = '';
  try {
    host = new URL(url).host;
  } catch {
    host = '';
  }
  return (
    <NodeViewWrapper className="quire-embed">
      {editing ? (
        <form contentEditable={false} onSubmit={submit} noValidate>
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              size="sm"
              style={{ flex: 1 }}
              label="Address to embed"
              placeholder="https://…"
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              error={problem}
              autoFocus={url === ''}
              type="url"
            />
            <Button type="submit" size="sm" mt={25}>
              Embed
            </Button>
          </Group>
        </form>
      ) : (
        <Group contentEditable={false} gap="sm" wrap="nowrap" justify="space-between">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed">
              Embedded from {host || 'the web'}
            </Text>
            <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm" className="quire-embed-url">
              {url}
            </Anchor>
          </Stack>
          <Button size="compact-xs" variant="default" onClick={() => setEditing(true)}>
            Change address
          </Button>
        </Group>
      )}
      <CaptionSlot {...props} />
    </NodeViewWrapper>
  );
}

export const part: EditorPart = {
  views: { embed: ReactNodeViewRenderer(EmbedView) },
  slash: [
    {
      title: 'Embed',
      description: 'A video, a design or any page, by its web address',
      keywords: ['youtube', 'video', 'iframe', 'link', 'url', 'figma', 'codepen'],
      group: 'Media',
      insert: (editor, range) => {
        editor.chain().focus().deleteRange(range).insertContent({ type: 'embed', attrs: { data: { url: '' }, isVoid: true } }).run();
      },
    },
  ],
  styles: `
.${EDITOR_CLASS} .quire-embed { margin: 0.5rem 0; padding: 0.5rem 0.75rem; border: 1px solid var(--mantine-color-default-border); border-left: 3px solid var(--mantine-primary-color-filled); border-radius: var(--mantine-radius-md); }
.${EDITOR_CLASS} .quire-embed .quire-caption { text-align: left; }
.${EDITOR_CLASS} .quire-embed-url { overflow-wrap: anywhere; }
`,
};
