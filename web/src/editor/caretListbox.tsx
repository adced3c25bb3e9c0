// A list of choices at the caret: the slash menu's blocks, the mentions' people and
// pages, the emoji. The page keeps the focus, so typing goes on narrowing the list; it
// names the active choice (aria-activedescendant) for screen readers, and the parts'
// own keys move it and choose. Fixed to the window beside the caret (floating.ts), in
// the page's main landmark, where axe-core wants every part of the screen.
import { Paper, ScrollArea, Text } from '@mantine/core';
import type { Editor } from '@tiptap/core';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { besideCaret, usePlaced } from './floating.ts';

export interface CaretChoice {
  key: string;
  label: ReactNode;
  detail?: string;
  choose: () => void;
}

export interface CaretListboxProps {
  editor: Editor;
  open: boolean;
  /** Where the typed trigger starts, which the list stands beside. */
  from: number;
  title: string;
  /** The choices, in groups each under its name, or one group with none; the active one is counted across them. */
  groups: Array<{ name?: string; choices: CaretChoice[] }>;
  active: number;
  onHover: (index: number) => void;
  /** What shows when nothing is listed. */
  empty: string;
  width: string;
  maxHeight: string;
}

export function CaretListbox({ editor, open, from, title, groups, active, onHover, empty, width, maxHeight }: CaretListboxProps) {
  const id = useId();
  const paper = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState({ top: -1000, left: 0 });
  const optionId = (index: number) => `${id}-option-${index}`;
  const count = groups.reduce((sum, group) => sum + group.choices.length, 0);
  const listed = open && count > 0;

  useEffect(() => {
    if (!listed) return;
    const page = editor.view.dom;
    page.setAttribute('aria-activedescendant', optionId(active));
    page.setAttribute('aria-controls', `${id}-list`);
    document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
    return () => {
      page.removeAttribute('aria-activedescendant');
      page.removeAttribute('aria-controls');
    };
  }, [editor, id, listed, active]);

  usePlaced(() => setPosition(besideCaret(editor.view.coordsAtPos(from), paper.current)), open, [editor, from, count]);

  if (!open) return null;
  let index = -1;
  const option = (choice: CaretChoice) => {
    index += 1;
    const at = index;
    return (
      <div
        key={choice.key}
        id={optionId(at)}
        role="option"
        // Focusable by script only (the page keeps the focus), which lets the scrolled list count as reachable.
        tabIndex={-1}
        aria-selected={at === active}
        className="quire-caret-option"
        data-active={at === active || undefined}
        onMouseEnter={() => onHover(at)}
        onClick={choice.choose}
      >
        <Text size="sm" fw={500} component="span" display="block">
          {choice.label}
        </Text>
        {choice.detail && (
          <Text size="xs" c="dimmed" component="span" display="block">
            {choice.detail}
          </Text>
        )}
      </div>
    );
  };
  return (
    <Paper
      ref={paper}
      shadow="md"
      withBorder
      radius="md"
      p={4}
      style={{ position: 'fixed', top: position.top, left: position.left, zIndex: 300, width: `min(${width}, calc(100vw - 1rem))` }}
      // A click in the list must not take the focus (and what was typed) from the page.
      onMouseDown={(event) => event.preventDefault()}
    >
      <Text id={`${id}-label`} size="xs" fw={600} c="dimmed" px="xs" pt={4}>
        {title}
      </Text>
      <ScrollArea.Autosize mah={maxHeight} type="auto">
        {listed && (
          <div role="listbox" id={`${id}-list`} aria-labelledby={`${id}-label`}>
            {groups.map((group, groupIndex) =>
              group.name === undefined ? (
                group.choices.map(option)
              ) : group.choices.length > 0 ? (
                <div key={group.name} role="group" aria-labelledby={`${id}-group-${groupIndex}`}>
                  <Text id={`${id}-group-${groupIndex}`} size="xs" c="dimmed" px="xs" pt={6} pb={2} tt="uppercase" fw={600}>
                    {group.name}
                  </Text>
                  {group.choices.map(option)}
                </div>
              ) : null,
            )}
          </div>
        )}
        {count === 0 && (
          <Text size="sm" c="dimmed" px="xs" py="xs" role="status">
            {empty}
          </Text>
        )}
      </ScrollArea.Autosize>
    </Paper>
  );
}

