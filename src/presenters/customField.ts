// Custom field objects and space custom-field values.
import type { CustomFieldRow } from '../db/schema.ts';

export function presentCustomField(publicUrl: string, field: CustomFieldRow) {
  return {
    object: 'custom-field' as const,
    id: field.id,
    name: field.name,
    type: field.type,
    title: field.title,
    description: field.description,
    placeholder: field.placeholder,
    ...(field.options !== null ? { options: JSON.parse(field.options) as string[] } : {}),
    createdAt: field.created_at,
    updatedAt: field.updated_at,
    urls: { location: `${publicUrl}/v1/orgs/${field.organization_id}/custom-fields/${field.name}` },
  };
}

export function presentCustomFieldValue(publicUrl: string, field: CustomFieldRow, storedValue: string | undefined) {
  return {
    customField: presentCustomField(publicUrl, field),
    ...(storedValue !== undefined ? { value: JSON.parse(storedValue) as unknown } : {}),
  };
}
