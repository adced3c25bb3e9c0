// A site's theme from its customization: the primary colour of each scheme, shaded
// until its text meets WCAG AA (4.5:1) on the page's background, the corners and the
// font, each checked for its shape. Pure, for the reader and for the app's live preview
// of unsaved customization alike.

/** The page backgrounds of the light and dark themes (layout.ts's stylesheet). */
export const BACKGROUNDS = { light: '#ffffff', dark: '#14171c' } as const;

/** WCAG AA for body text. */
export const AA_CONTRAST = 4.5;

export interface SiteTheme {
  primary: { light: string; dark: string };
  corners: 'straight' | 'rounded' | 'circular';
  font?: string;
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

/** A value as an object, or an empty one when it is none: stored customization is as its managers gave it. */
export const record = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

export function themeOf(customization: Record<string, unknown>): SiteTheme {
  const styling = record(customization.styling);
  const primary = record(styling.primaryColor);
  const color = (value: unknown, background: string) => readableOn(typeof value === 'string' && HEX.test(value) ? value : '#346DDB', background);
  const corners = styling.corners === 'straight' || styling.corners === 'circular' ? styling.corners : 'rounded';
  const font = typeof styling.font === 'string' && /^[A-Za-z0-9 -]{1,40}$/.test(styling.font) ? styling.font : undefined;
  return { primary: { light: color(primary.light, BACKGROUNDS.light), dark: color(primary.dark, BACKGROUNDS.dark) }, corners, font };
}
