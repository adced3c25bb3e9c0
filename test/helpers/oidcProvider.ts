// A real OpenID provider (panva's oidc-provider) on 127.0.0.1 for the sign-in tests,
// and a browser's part in its flow: following redirects with a cookie jar, and
// submitting its development login and consent forms.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ClientMetadata } from 'oidc-provider';

export interface TestAccount {
  email: string;
  name: string;
  emailVerified?: boolean;
}

export interface TestOpenIdProvider {
  issuer: string;
  /** Starts answering, knowing these clients and accounts (the accounts keyed by login). */
  open(clients: ClientMetadata[], accounts: Record<string, TestAccount>): void;
  close(): Promise<void>;
}

export async function startOpenIdProvider(): Promise<TestOpenIdProvider> {
  let provider: Provider | undefined;
  const server: Server = createServer((request, response) => {
    if (!provider) {
      response.statusCode = 503;
      response.end();
      return;
    }
    void provider.callback()(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    open(clients, accounts) {
      provider = new Provider(issuer, {
        clients,
        cookies: { keys: ['test cookie key'] },
        claims: { email: ['email', 'email_verified'], profile: ['name'] },
        features: { devInteractions: { enabled: true } },
        // Set, so the provider does not remark on each default it falls back to.
        ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
        async findAccount(_ctx, id) {
          const account = accounts[id];
          if (!account) return undefined;
          return {
            accountId: id,
            async claims() {
              return { sub: id, email: account.email, email_verified: account.emailVerified ?? true, name: account.name };
            },
          };
        },
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's cookies, by name, for the one provider it talks to. */
class CookieJar {
  private cookies = new Map<string, string>();
  take(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair.split('=');
      this.cookies.set(name.trim(), value.join('='));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Signs `login` in at the provider, from the authorization URL Quire redirected to,
 * through the login and consent forms, until the provider redirects back to Quire:
 * answers that redirect (the callback URL with its code and state).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, quireUrl: string): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form?.toString(),
    });
    jar.take(response);
    form = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      if (url.startsWith(quireUrl)) return url;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`The provider answered ${response.status}: ${page.slice(0, 300)}`);
    form = page.includes('name="prompt" value="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('The provider never redirected back to Quire');
}
