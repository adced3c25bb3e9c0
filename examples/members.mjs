// Lists an organization's members through GitBook's official client, pointed at Quire.
// Run from the checkout: node examples/members.mjs (with QUIRE, TOKEN and ORG exported).
import { GitBookAPI } from '@gitbook/api';

const api = new GitBookAPI({ endpoint: process.env.QUIRE, authToken: process.env.TOKEN });
const { data: organization } = await api.orgs.getOrganizationById(process.env.ORG);
const { data: members } = await api.orgs.listMembersInOrganizationById(organization.id, { limit: 100 });
console.log(`${organization.title}: ${members.items.length} member(s)`);
for (const member of members.items) console.log(`- ${member.user.displayName} (${member.role})`);
