// GitBook's lists of integration scopes and marketplace categories.
export const INTEGRATION_SCOPES = [
  'space:content:read', 'space:content:write', 'space:metadata:read', 'space:metadata:write', 'space:git:sync',
  'page:feedback:read', 'site:metadata:read', 'site:views:read', 'site:script:inject', 'site:script:cookies',
  'site:visitor:auth', 'site:adaptive:read', 'site:adaptive:write', 'openapi:read', 'openapi:write', 'conversations:ingest',
] as const;
export const INTEGRATION_CATEGORIES = ['analytics', 'collaboration', 'content', 'gitsync', 'marketing', 'visitor-auth', 'other'] as const;

export type IntegrationScope = (typeof INTEGRATION_SCOPES)[number];
export type IntegrationCategory = (typeof INTEGRATION_CATEGORIES)[number];
