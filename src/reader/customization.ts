// What of a site's customization shapes its pages: the theme (primary colour, corners,
// font), the header's logo and links, the footer, the announcement banner and the
// favicon. Customization is stored as the site's managers gave it, so every value is
// checked for its shape here (the theme's in theme.ts): URLs safe, texts bounded.
import { glyphOf } from '../content/gitbook/emoji.ts';
import { isSafeLinkUrl } from '../content/gitbook/safety.ts';
import type { ContentRef } from '../content/gitbook/model.ts';
import { conditionHolds } from '../lib/conditions.ts';
import { presentCustomization } from '../presenters/siteCustomization.ts';
import type { SiteRow } from '../db/schema.ts';
import { record, themeOf, type SiteTheme } from './theme.ts';

export interface FrameLink {
  title: string;
  href: string;
}

/** The site's frame around every page: its theme, header, footer, banner and icon. */
export interface SiteFrame {
  title: string;
  home: string;
  theme: SiteTheme;
  logo?: { light: string; dark?: string };
  favicon?: string;
  /** The header's links; a link with `links` is a menu of them. */
  links: Array<FrameLink & { primary: boolean; links: FrameLink[] }>;
  footer: { groups: Array<{ title: string; links: FrameLink[] }>; copyright?: string; logo?: { light: string; dark?: string } };
  announcement?: { message: string; style: 'info' | 'warning' | 'danger' | 'success'; link?: FrameLink };
}


const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown, max = 200): string | undefined => (typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : undefined);

/** An image URL a page may show: http(s), or a data: image. */
function imageUrl(value: unknown): string | undefined {
  return typeof value === 'string' && (/^https?:\/\//i.test(value) || /^data:image\/(png|gif|jpeg|webp);/i.test(value)) ? value : undefined;
}

function themedImage(value: unknown): { light: string; dark?: string } | undefined {
  const light = imageUrl(record(value).light);
  return light ? { light, dark: imageUrl(record(value).dark) } : undefined;
}


/** How the frame resolves a customization link: a URL, or a page of the space being read. */
export type LinkResolver = (ref: ContentRef) => string | undefined;

export function siteFrame(site: SiteRow, home: string, claims: Record<string, unknown>, resolve: LinkResolver = (ref) => (ref.kind === 'url' ? ref.url : undefined)): SiteFrame {
  const customization = presentCustomization(site.title, site.customization);
  const link = (value: unknown): FrameLink | undefined => {
    const item = record(value);
    const title = text(item.title);
    const href = item.to && typeof item.to === 'object' ? resolve(item.to as ContentRef) : undefined;
    return title && href && isSafeLinkUrl(href) ? { title, href } : undefined;
  };
  const header = record(customization.header);
  const links = list(header.links).flatMap((value) => {
    const item = record(value);
    if (typeof item.condition === 'string' && !conditionHolds(item.condition, claims)) return [];
    const title = text(item.title);
    const children = list(item.links).flatMap((child) => link(child) ?? []);
    const own = link(item);
    if (!title || (!own && children.length === 0)) return [];
    return [{ title, href: own?.href ?? children[0].href, primary: item.style === 'button-primary', links: children }];
  });
  // Only a visitor who came with a token reads a visitor-auth site here: their sign-out is the upstream's.
  const signOut = site.visibility === 'visitor-auth' && site.visitor_logout_url && isSafeLinkUrl(site.visitor_logout_url) ? [{ title: 'Sign out', href: site.visitor_logout_url, primary: false, links: [] }] : [];
  const footer = record(customization.footer);
  const announcement = record(customization.announcement);
  const message = announcement.enabled === true ? text(announcement.message, 500) : undefined;
  const style = ['info', 'warning', 'danger', 'success'].includes(String(announcement.style)) ? (announcement.style as 'info') : 'info';
  const favicon = record(customization.favicon);
  const emoji = typeof favicon.emoji === 'string' && isEmoji(favicon.emoji) ? favicon.emoji : undefined;
  return {
    title: site.title,
    home,
    theme: themeOf(customization),
    logo: themedImage(header.logo),
    favicon: themedImage(favicon.icon)?.light ?? (emoji ? emojiIcon(emoji) : undefined),
    links: [...links, ...signOut],
    footer: {
      groups: list(footer.groups).flatMap((value) => {
        const group = record(value);
        const title = text(group.title);
        const groupLinks = list(group.links).flatMap((child) => link(child) ?? []);
        return title && groupLinks.length ? [{ title, links: groupLinks }] : [];
      }),
      copyright: text(footer.copyright, 300),
      logo: themedImage(footer.logo),
    },
    announcement: message ? { message, style, link: link(announcement.link) } : undefined,
  };
}

/** Code points as GitBook stores an emoji ("1f680", "1f1eb-1f1f7"), none of them ASCII. */
function isEmoji(codes: string): boolean {
  return /^[0-9a-f]{2,6}(-[0-9a-f]{2,6}){0,7}$/i.test(codes) && codes.split('-').every((hex) => parseInt(hex, 16) >= 0x80 && parseInt(hex, 16) <= 0x10ffff);
}

/** An emoji as an SVG icon. */
function emojiIcon(codes: string): string {
  return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${glyphOf(codes)}</text></svg>`)}`;
}
