import type { SiteVisibility } from '../api/sites.ts';

export const VISIBILITIES: Array<{ value: SiteVisibility; label: string; description: string }> = [
  { value: 'public', label: 'Public', description: 'Anyone can read it, and search engines list it.' },
  { value: 'unlisted', label: 'Unlisted', description: 'Anyone with its address can read it; search engines do not list it.' },
  { value: 'share-link', label: 'Share links', description: 'Only people given one of its share links can read it.' },
  { value: 'visitor-auth', label: 'Visitor authentication', description: 'Readers sign in through your own service, which sends them with a signed token.' },
];

export const visibilityLabel = (visibility: SiteVisibility) => VISIBILITIES.find((option) => option.value === visibility)?.label ?? visibility;
