// GitBook's tag library in a repository, `.gitbook/tags.yaml`: a list of tags, each its
// `tag` (the slug pages name), `label`, `icon` or `emoji`, and `color`, in that order.
import { dump as dumpYaml, load as loadYaml } from 'js-yaml';
import { NO_TAGS, sameTags, type TagEntry, type TagLibrary } from '../tagLibrary.ts';

export const TAGS_FILE = '.gitbook/tags.yaml';

/** The library a tags.yaml holds; entries without a slug are reported and left out, a file that is not a list of tags holds none. */
export function readTagsFile(text: string, warnings: string[]): TagLibrary {
  let entries: unknown;
  try {
    entries = loadYaml(text);
  } catch (error) {
    warnings.push(`${TAGS_FILE} is not YAML (${(error as Error).message.split('\n')[0]}); the space has no tags`);
    return NO_TAGS;
  }
  if (entries === undefined || entries === null) return NO_TAGS;
  if (!Array.isArray(entries)) {
    warnings.push(`${TAGS_FILE} is not a list of tags; the space has no tags`);
    return NO_TAGS;
  }
  const tags: TagEntry[] = [];
  const scalar = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);
  for (const [index, entry] of entries.entries()) {
    const fields = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const slug = scalar(fields.tag);
    if (!slug || tags.some((tag) => tag.slug === slug)) {
      warnings.push(`${TAGS_FILE}: entry ${index + 1} ${slug ? `repeats the tag "${slug}"` : 'names no tag'}; it is left out`);
      continue;
    }
    const tag: TagEntry = { slug, label: scalar(fields.label) ?? slug };
    for (const field of ['icon', 'emoji', 'color'] as const) {
      const value = scalar(fields[field]);
      if (value !== undefined) tag[field] = value;
    }
    tags.push(tag);
  }
  // Kept as written where an export would write it otherwise; a file read is never "no tags" once it holds some.
  return tags.length === 0 ? NO_TAGS : { tags, ...(writeTagsFile({ tags }) !== text ? { written: text } : {}) };
}

/** The file an export writes: as it was read while its tags are the ones read from it, else in GitBook's form. */
export function writeTagsFile(library: TagLibrary): string {
  if (library.written !== undefined && sameTags(readTagsFile(library.written, []).tags, library.tags)) return library.written;
  return dumpYaml(
    library.tags.map((tag) => ({
      tag: tag.slug,
      label: tag.label,
      ...(tag.icon !== undefined ? { icon: tag.icon } : {}),
      ...(tag.emoji !== undefined ? { emoji: tag.emoji } : {}),
      ...(tag.color !== undefined ? { color: tag.color } : {}),
    })),
  );
}
