// A page's settings in a change request, GitBook's fields: title, emoji or icon,
// description, slug, and for a document page its cover and layout options. Saving
// sends only the fields changed, as one update_page; the slug is checked with the
// API's own rule before it is sent.
import { Button, Divider, Drawer, Group, Image, SegmentedControl, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { gemoji } from 'gemoji';
import { useState } from 'react';
import { isSafeLinkUrl, SAFE_LINK_SCHEMES } from '../../../../../src/content/gitbook/safety.ts';
import { isPageSlug, PAGE_SLUG_RULE } from '../../../../../src/content/pageSlug.ts';
import { isEmoji } from '../../../../../src/lib/emoji.ts';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import type { FileEntry } from '../api/content.ts';
import type { PageCover, PageDetails, PageFieldChanges, PageLayout } from '../api/pageChanges.ts';
import { IconPicker } from './IconPicker.tsx';
import { slugAfterRename } from './pageTree.ts';

/** GitBook's layout of a page nobody has changed: every part shown. */
const DEFAULT_LAYOUT: PageLayout = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
};

/** The parts a writer shows or hides, in GitBook's words. */
const LAYOUT_SWITCHES = [
  ['cover', 'Cover'],
  ['title', 'Title'],
  ['description', 'Description'],
  ['tableOfContents', 'Table of contents'],
  ['outline', 'Page outline'],
  ['pagination', 'Next and previous links'],
  ['metadata', 'Page metadata (last updated)'],
] as const;

const EMOJI_CHOICES = gemoji.map((entry) => ({ value: entry.emoji, label: `${entry.emoji} ${entry.names[0].replace(/_/g, ' ')}` }));
const IMAGE = /\.(png|jpe?g|gif|webp|avif|svg)$/i;

type CoverSource = 'none' | 'file' | 'url';

interface Props {
  page: PageDetails;
  /** The slugs of the pages beside it: two may not share one. */
  siblingSlugs: string[];
  files: FileEntry[];
  saving: boolean;
  error: Error | null;
  onSave: (fields: PageFieldChanges) => void;
  onClose: () => void;
}

export function PageSettings({ page, siblingSlugs, files, saving, error, onSave, onClose }: Props) {
  const phone = useMediaQuery('(max-width: 48em)');
  const isDocument = page.type === 'document';
  const [title, setTitle] = useState(page.title);
  const [emoji, setEmoji] = useState(page.emoji ?? '');
  const [icon, setIcon] = useState(page.icon ?? '');
  const [description, setDescription] = useState(page.description ?? '');
  const [href, setHref] = useState(page.href ?? '');
  const [slug, setSlug] = useState(page.slug);
  const [coverSource, setCoverSource] = useState<CoverSource>(page.cover ? page.cover.ref.kind : 'none');
  const [coverFile, setCoverFile] = useState(page.cover?.ref.kind === 'file' ? page.cover.ref.file : '');
  const [coverUrl, setCoverUrl] = useState(page.cover?.ref.kind === 'url' ? page.cover.ref.url : '');
  const [layout, setLayout] = useState<PageLayout>({ ...DEFAULT_LAYOUT, ...page.layout });
  const images = files.filter((file) => IMAGE.test(file.name) || (file as { contentType?: string }).contentType?.startsWith('image/'));

  const slugError = !isPageSlug(slug)
    ? `A slug may hold ${PAGE_SLUG_RULE}: “${slug}” does not. Try ${slugSuggestion(slug)}.`
    : siblingSlugs.includes(slug)
      ? `Another page beside this one already has the slug “${slug}”. Choose another.`
      : undefined;
  const emojiError = isEmoji(emoji) ? undefined : 'Give one emoji, such as 📘, or pick one from the list.';
  const coverUrlError = coverSource === 'url' && !/^https?:\/\/\S+$/i.test(coverUrl) ? 'Give the address of an image, starting with https://.' : undefined;
  const coverFileError = coverSource === 'file' && !coverFile ? 'Pick an image of this change request.' : undefined;
  const hrefError = page.type === 'link' && !isSafeLinkUrl(href.trim()) ? `Give a path such as /guide, or a URL of ${SAFE_LINK_SCHEMES.join(', ')}, such as https://github.com/acme.` : undefined;
  const invalid = !title.trim() || slugError || emojiError || coverUrlError || coverFileError || hrefError;

  // The app's policy lets images come from https only.
  const coverPreview = coverSource === 'file' ? images.find((file) => file.id === coverFile)?.downloadURL : coverSource === 'url' && /^https:\/\/\S+$/i.test(coverUrl.trim()) ? coverUrl.trim() : undefined;
  const cover: PageCover | null = coverSource === 'file' ? { ref: { kind: 'file', file: coverFile } } : coverSource === 'url' ? { ref: { kind: 'url', url: coverUrl.trim() } } : null;
  const changed = (): PageFieldChanges => {
    const fields: PageFieldChanges = {};
    if (title.trim() !== page.title) fields.title = title.trim();
    if (emoji !== (page.emoji ?? '')) fields.emoji = emoji;
    if (icon.trim() !== (page.icon ?? '')) fields.icon = icon.trim();
    if (description !== (page.description ?? '')) fields.description = description;
    if (page.type === 'link' && href.trim() !== page.href) fields.href = href.trim();
    // A new title brings a new slug when the old one was made from the old title, as a rename in the tree does.
    const wantedSlug = slug === page.slug && fields.title ? slugAfterRename(page, fields.title, siblingSlugs) : slug;
    if (wantedSlug !== page.slug) fields.slug = wantedSlug;
    if (isDocument) {
      if (JSON.stringify(cover) !== JSON.stringify(page.cover ? { ref: page.cover.ref } : null)) fields.cover = cover && page.cover?.yPos !== undefined ? { ...cover, yPos: page.cover.yPos } : cover;
      const before = { ...DEFAULT_LAYOUT, ...page.layout };
      if (Object.keys(DEFAULT_LAYOUT).some((option) => layout[option] !== before[option])) fields.layout = { ...page.layout, ...layout };
    }
    return fields;
  };

  return (
    // In the main landmark with a named close button, as spaces' Dialog is, for axe-core.
    <Drawer opened onClose={onClose} position="right" size={phone ? '100%' : 'md'} title={`Settings of “${page.title}”`} portalProps={{ target: 'main' }} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (invalid) return;
          const fields = changed();
          if (Object.keys(fields).length === 0) onClose();
          else onSave(fields);
        }}
      >
        <Stack gap="md">
          <TextInput label="Title" required value={title} onChange={(event) => setTitle(event.currentTarget.value)} error={title.trim() ? undefined : 'A page needs a title.'} maxLength={200} />
          <Group align="flex-start" grow>
            <TextInput label="Emoji" description="One emoji, or empty for none" value={emoji} onChange={(event) => setEmoji(event.currentTarget.value.trim())} error={emojiError} maxLength={50} />
            <Select
              label="Find an emoji"
              description="Search by name"
              searchable
              clearable
              limit={40}
              data={EMOJI_CHOICES}
              value={EMOJI_CHOICES.some((choice) => choice.value === emoji) ? emoji : null}
              onChange={(value) => setEmoji(value ?? '')}
              nothingFoundMessage="No emoji has that name"
              placeholder="rocket"
            />
          </Group>
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              label="Icon"
              description="A Font Awesome icon’s name, such as gear; shown where no emoji is set"
              value={icon}
              onChange={(event) => setIcon(event.currentTarget.value)}
              maxLength={50}
              style={{ flex: 1 }}
            />
            <IconPicker value={icon.trim()} onChange={setIcon} />
          </Group>
          <Textarea label="Description" description="Shown under the title and in search results" value={description} onChange={(event) => setDescription(event.currentTarget.value)} autosize minRows={2} maxLength={1000} />
          {page.type === 'link' && <TextInput label="URL" required value={href} onChange={(event) => setHref(event.currentTarget.value)} error={hrefError} maxLength={2048} />}
          {page.type !== 'link' && (
            <TextInput label="Slug" description="The page’s name in its address, under its parent’s" value={slug} onChange={(event) => setSlug(event.currentTarget.value.trim())} error={slugError} maxLength={100} />
          )}
          {isDocument && (
            <>
              <Divider label="Cover" labelPosition="left" />
              <SegmentedControl
                aria-label="Cover image"
                value={coverSource}
                onChange={(value) => setCoverSource(value as CoverSource)}
                data={[
                  { value: 'none', label: 'None' },
                  { value: 'file', label: 'A file', disabled: images.length === 0 },
                  { value: 'url', label: 'A URL' },
                ]}
              />
              {images.length === 0 && (
                <Text size="xs" c="dimmed">
                  This change request has no image yet: add one in the editor to use it as a cover, or give a URL.
                </Text>
              )}
              {coverSource === 'file' && (
                <Select label="Image" data={images.map((file) => ({ value: file.id, label: file.name }))} value={coverFile || null} onChange={(value) => setCoverFile(value ?? '')} error={coverFileError} />
              )}
              {coverSource === 'url' && <TextInput label="Image URL" value={coverUrl} onChange={(event) => setCoverUrl(event.currentTarget.value)} error={coverUrlError} placeholder="https://example.com/cover.png" />}
              {coverPreview && <Image src={coverPreview} alt="The cover, as chosen" h={120} radius="sm" fit="cover" />}
              <Divider label="Layout" labelPosition="left" />
              <Stack gap="xs">
                {LAYOUT_SWITCHES.map(([option, label]) => (
                  <Switch key={option} label={label} checked={layout[option] === true} onChange={(event) => setLayout({ ...layout, [option]: event.currentTarget.checked })} />
                ))}
                <Switch label="Wide page" checked={layout.width === 'wide'} onChange={(event) => setLayout({ ...layout, width: event.currentTarget.checked ? 'wide' : 'default' })} />
                <SegmentedControl
                  aria-label="Cover size"
                  value={layout.coverSize === 'full' ? 'full' : 'hero'}
                  onChange={(value) => setLayout({ ...layout, coverSize: value as 'hero' | 'full' })}
                  data={[
                    { value: 'hero', label: 'Cover: hero' },
                    { value: 'full', label: 'Cover: full width' },
                  ]}
                />
              </Stack>
            </>
          )}
          <ErrorAlert error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving} disabled={Boolean(invalid)}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}

/** A slug close to what was typed that the rule allows, to offer in the error. */
function slugSuggestion(typed: string): string {
  const near = typed.replace(/\.md$/i, '').replace(/[^a-z0-9._+-]+/gi, '-').replace(/^-+|-+$/g, '').slice(0, 100);
  return isPageSlug(near) ? `“${near}”` : '“my-page”';
}
