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
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    codeTheme: { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } },
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  // No announcement until one is set (ANNOUNCEMENT_DEFAULTS): GitBook's contract gives every announcement a message.
  themes: { default: 'light', toggeable: true },
  pdf: { enabled: true },
  feedback: { enabled: false },
  aiSearch: { enabled: true },
  // Quire has no assistant: GitBook's renderer then shows none.
  ai: { mode: 'none', pageLinkSummaries: { enabled: false } },
  advancedCustomization: { enabled: true },
  pageActions: { items: ['markdown', 'pdf'] },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  trademark: { enabled: true },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  // Quire sends no visitor to an analytics service; the renderer asks before setting its cookie.
  insights: { trackingCookie: false },
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

/** What an announcement has unless it says otherwise, once there is one. */
const ANNOUNCEMENT_DEFAULTS = { enabled: false, style: 'info' };

export function presentCustomization(siteTitle: string, stored: string) {
  const customization = JSON.parse(stored) as Record<string, unknown>;
  const defaults = customization.announcement !== undefined ? { ...DEFAULTS, announcement: ANNOUNCEMENT_DEFAULTS } : DEFAULTS;
  return mergeOver({ title: siteTitle, ...defaults }, customization) as Record<string, unknown>;
}
