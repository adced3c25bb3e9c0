// What of a site's customization shapes its pages: the theme (primary colour, corners,
// font), the header's logo and links, the footer, the announcement banner and the
// favicon. Customization is stored as the site's managers gave it, so every value is
// checked for its shape here: colours are hex, fonts plain names, URLs safe, and a
// primary colour too pale (or too dark) to read on the page's background is shaded
// until its text meets WCAG AA (4.5:1).
import { glyphOf } from '../content/gitbook/emoji.ts';
import { isSafeLinkUrl } from '../content/gitbook/safety.ts';
import type { ContentRef } from '../content/gitbook/model.ts';
import { conditionHolds } from '../lib/conditions.ts';
import { presentCustomization } from '../presenters/siteCustomization.ts';
import type { SiteRow } from '../db/schema.ts';

/** The page backgrounds of the light and dark themes (layout.ts's stylesheet). */
export const BACKGROUNDS = { light: '#ffffff', dark: '#14171c' } as const;

/** WCAG AA for body text. */
export const AA_CONTRAST = 4.5;

export interface SiteTheme {
  primary: { light: string; dark: string };
  corners: 'straight' | 'rounded' | 'circular';
  font?: string;
}

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

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

function rgbOf(hex: string): [number, number, number] {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((digit) => digit + digit).join('') : hex.slice(1);
  return [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG's contrast ratio of two hex colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

const toHex = (rgb: number[]) => `#${rgb.map((value) => Math.round(value).toString(16).padStart(2, '0')).join('')}`;

/** The colour itself when it reads on the background, else the nearest shade towards black or white that does. */
export function readableOn(color: string, background: string): string {
  if (contrastRatio(color, background) >= AA_CONTRAST) return color;
  const toward = luminance(rgbOf(background)) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  const rgb = rgbOf(color);
  for (let step = 1; step <= 20; step++) {
    const mixed = toHex(rgb.map((value, index) => value + ((toward[index] - value) * step) / 20));
    if (contrastRatio(mixed, background) >= AA_CONTRAST) return mixed;
  }
  return toHex(toward);
}

type Customization = Record<string, unknown>;

const record = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
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

export function themeOf(customization: Customization): SiteTheme {
  const styling = record(customization.styling);
  const primary = record(styling.primaryColor);
  const color = (value: unknown, background: string) => readableOn(typeof value === 'string' && HEX.test(value) ? value : '#346DDB', background);
  const corners = styling.corners === 'straight' || styling.corners === 'circular' ? styling.corners : 'rounded';
  const font = typeof styling.font === 'string' && /^[A-Za-z0-9 -]{1,40}$/.test(styling.font) ? styling.font : undefined;
  return { primary: { light: color(primary.light, BACKGROUNDS.light), dark: color(primary.dark, BACKGROUNDS.dark) }, corners, font };
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
