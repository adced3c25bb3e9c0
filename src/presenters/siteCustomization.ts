// A site's customization: GitBook's defaults for every field, with what the site
// stored laid over them.
const DEFAULTS = {
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#00C950', dark: '#00C950' },
    warningColor: { light: '#FE9A00', dark: '#FE9A00' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    tint: { color: { light: '#787878', dark: '#787878' } },
    corners: 'rounded',
    links: 'default',
    font: 'Inter',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { links: [] },
  footer: { groups: [] },
  announcement: { enabled: false, message: '', style: 'info' },
  themes: { default: 'light', toggeable: true },
  pdf: { enabled: true },
  feedback: { enabled: false },
  aiSearch: { enabled: true },
  ai: { pageLinkSummaries: { enabled: false } },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mergeOver(base: unknown, stored: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(stored)) return stored === undefined ? base : stored;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(stored)) merged[key] = mergeOver(base[key], value);
  return merged;
}

export function presentCustomization(siteTitle: string, stored: string) {
  return mergeOver({ title: siteTitle, ...DEFAULTS }, JSON.parse(stored)) as Record<string, unknown>;
}
