// Factories that create organizations and people through Quire's own services, as
// the command line does, so tests start from real rows.
import { request, type TestApp } from './app.ts';
import { addUser, bootstrap } from '../../src/services/accounts.ts';
import { newId } from '../../src/lib/ids.ts';
import type { Role } from '../../src/lib/roles.ts';

export interface Person {
  userId: string;
  token: string;
  email: string;
}

export interface Organization {
  organizationId: string;
  admin: Person;
}

export async function buildOrganization(testApp: TestApp, title = 'Acme'): Promise<Organization> {
  const email = `admin-${newId(8).toLowerCase()}@example.test`;
  const result = await bootstrap(testApp.database.db, testApp.clock, { organizationTitle: title, email, name: 'Ada Admin' });
  return { organizationId: result.organization.id, admin: { userId: result.user.id, token: result.token, email } };
}

export async function buildMember(
  testApp: TestApp,
  organizationId: string,
  role: Role,
  name = `Member ${newId(4)}`,
  email = `${role}-${newId(8).toLowerCase()}@example.test`,
): Promise<Person> {
  const result = await addUser(testApp.database.db, testApp.clock, { organizationId, role, email, name });
  return { userId: result.user.id, token: result.token, email };
}

/** An organization's space with one open change request, written through its content batch (`?compat=false`: GitBook's answer with each change). */
export async function buildChangeRequest(testApp: TestApp) {
  const org = await buildOrganization(testApp);
  const token = org.admin.token;
  const space = (await request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/spaces`, { token, body: { title: 'Docs' } })).body;
  const base = `/v1/spaces/${space.id}/change-requests`;
  const changeRequest = (await request(testApp.app, 'POST', base, { token, body: {} })).body;
  const content = `${base}/${changeRequest.id}/content`;
  const edit = (changes: object[], as = token) => request(testApp.app, 'POST', `${content}?compat=false`, { token: as, body: { changes } });
  const get = (path: string) => request(testApp.app, 'GET', path, { token });
  return { org, token, space, base, changeRequest, content, edit, get };
}
