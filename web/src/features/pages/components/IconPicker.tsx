// Choosing a page's icon from Font Awesome Free's, by name or by the words Font Awesome
// gives each (/app/icons.json, src/lib/icons.ts): a search and a grid of the icons found.
// The name field beside it still takes any name, as GitBook's Pro icons are kept as given.
import { Button, Popover, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { findIcons, type IconEntry } from './iconSearch.ts';
import { Icon } from './PageMark.tsx';

/** Shown at once: a page of a grid, enough to scan without scrolling far. */
const SHOWN = 60;

async function fetchIcons(): Promise<IconEntry[]> {
  const response = await fetch('/app/icons.json', { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The icons could not be read (error ${response.status}).`);
  return (await response.json()) as IconEntry[];
}

export function IconPicker({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const [opened, setOpened] = useState(false);
  const [query, setQuery] = useState('');
  const icons = useQuery({ queryKey: ['icons'], queryFn: fetchIcons, staleTime: Infinity, enabled: opened });
  const found = useMemo(() => (icons.data ? findIcons(icons.data, query) : []), [icons.data, query]);
  const choose = (name: string) => {
    onChange(name);
    setOpened(false);
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} trapFocus shadow="md">
      <Popover.Target>
        <Button variant="default" onClick={() => setOpened((open) => !open)} leftSection={value ? <Icon name={value} /> : undefined} aria-haspopup="dialog" aria-expanded={opened}>
          Choose an icon
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="dialog" aria-label="Icons">
          <TextInput label="Find an icon" placeholder="rocket, book, gear…" value={query} onChange={(event) => setQuery(event.currentTarget.value)} data-autofocus />
          {icons.error && (
            <Text size="sm" c="red" role="alert">
              {icons.error.message} Close this and try again.
            </Text>
          )}
          {icons.isPending && <Text size="sm">Loading the icons…</Text>}
          {icons.data && (
            <Text size="xs" c="dimmed" role="status">
              {found.length === 0 ? 'No icon has that name.' : found.length > SHOWN ? `${found.length} icons: the first ${SHOWN} are shown.` : `${found.length} ${found.length === 1 ? 'icon' : 'icons'}`}
            </Text>
          )}
          <SimpleGrid cols={6} spacing={4} verticalSpacing={4} style={{ maxHeight: 240, overflowY: 'auto' }}>
            {found.slice(0, SHOWN).map((icon) => (
              <UnstyledButton
                key={icon.name}
                onClick={() => choose(icon.name)}
                aria-label={icon.label}
                title={icon.name}
                aria-pressed={icon.name === value}
                style={{ display: 'grid', placeItems: 'center', height: 44, borderRadius: 'var(--mantine-radius-sm)', border: icon.name === value ? '2px solid var(--mantine-primary-color-filled)' : '1px solid var(--mantine-color-default-border)' }}
              >
                <Icon name={icon.name} size="1.3rem" />
              </UnstyledButton>
            ))}
          </SimpleGrid>
          {value && (
            <Button variant="subtle" size="xs" onClick={() => choose('')}>
              No icon
            </Button>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
