// OpenAPI spec objects, their versions, and a version's content.
import { organizationResourcePermissions, type OrganizationAccess } from '../policies/organization.ts';
import type { OpenApiSpecRow, OpenApiSpecVersionRow } from '../db/schema.ts';

function specLocation(publicUrl: string, spec: OpenApiSpecRow): string {
  return `${publicUrl}/v1/orgs/${spec.organization_id}/openapi/${spec.slug}`;
}

export function presentOpenApiSpec(publicUrl: string, spec: OpenApiSpecRow, access: OrganizationAccess) {
  return {
    object: 'openapi-spec' as const,
    id: spec.id,
    createdAt: spec.created_at,
    updatedAt: spec.updated_at,
    slug: spec.slug,
    ...(spec.source_url ? { sourceURL: spec.source_url } : {}),
    processingState: spec.processing_state,
    visibility: spec.visibility,
    ...(spec.last_version_id ? { lastVersion: spec.last_version_id } : {}),
    ...(spec.last_processed_at ? { lastProcessedAt: spec.last_processed_at } : {}),
    ...(spec.last_error_code ? { lastProcessErrorCode: spec.last_error_code } : {}),
    ...(spec.last_errors ? { lastProcessedErrors: JSON.parse(spec.last_errors) as Array<{ message: string; code?: string }> } : {}),
    permissions: organizationResourcePermissions(access),
    urls: {
      location: specLocation(publicUrl, spec),
      app: `${publicUrl}/o/${spec.organization_id}/openapi/${spec.slug}`,
    },
  };
}

function versionLocation(publicUrl: string, spec: OpenApiSpecRow, versionId: string): string {
  return `${specLocation(publicUrl, spec)}/versions/${versionId}`;
}

export function presentOpenApiSpecVersion(
  publicUrl: string,
  spec: OpenApiSpecRow,
  version: Pick<OpenApiSpecVersionRow, 'id' | 'url' | 'created_at'>,
) {
  const location = versionLocation(publicUrl, spec, version.id);
  return {
    object: 'openapi-spec-version' as const,
    id: version.id,
    createdAt: version.created_at,
    // Where this version's text came from: its URL source, or Quire for a text source.
    url: version.url ?? `${location}/content`,
    urls: { location },
  };
}

/** `filesystem`: the document as parsed (YAML sources read as JSON). */
export function presentOpenApiSpecContent(
  publicUrl: string,
  spec: OpenApiSpecRow,
  version: OpenApiSpecVersionRow,
  document: Record<string, unknown>,
) {
  const source = version.url ?? `${versionLocation(publicUrl, spec, version.id)}/content`;
  return {
    filesystem: document,
    url: source,
    urls: { source, public: spec.visibility === 'public' ? source : null },
  };
}
