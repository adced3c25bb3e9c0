// Factories that create organizations and people through Quire's own services, as
// the command line does, so tests start from real rows.
import type { TestApp } from './app.ts';
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
