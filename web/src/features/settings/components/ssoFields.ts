// What the SAML and OpenID Connect forms share: the API's limit on a provider's name
// (shown on the sign-in page as "Sign in with …"), and the role people join with.
import type { Role } from '../api/organization.ts';

/** The API's maxLength of a provider's label (src/routes/oidc/schemas.ts, src/routes/saml/schemas.ts). */
export const PROVIDER_LABEL_MAX = 30;

export const roleOf = (value: string) => (value || null) as Role | null;
