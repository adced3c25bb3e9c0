// The Fetch API's shape over Quire's one way of fetching (safeFetch.ts), for libraries
// that take a fetch function (openid-client): their requests then obey the same
// address rule, deadline and size cap as every other fetch Quire makes.
import type { Fetcher, FetchOptions } from './safeFetch.ts';

type RequestBody = string | URLSearchParams | Uint8Array | ArrayBuffer | ReadableStream | null | undefined;

export interface WebFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: RequestBody;
}

function bodyBytes(body: RequestBody): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer || body instanceof Uint8Array) return Buffer.from(body as Uint8Array);
  throw new Error('A streamed request body cannot be sent through the safe fetcher');
}

/** Statuses whose Response must have no body. */
const BODILESS = new Set([101, 204, 205, 304]);

export function webFetch(fetcher: Fetcher, limits: Pick<FetchOptions, 'timeoutMs' | 'maxBytes'>) {
  return async (url: string, init: WebFetchInit = {}): Promise<Response> => {
    const answer = await fetcher(url, {
      ...limits,
      method: (init.method ?? 'GET').toUpperCase() as FetchOptions['method'],
      headers: init.headers,
      body: bodyBytes(init.body),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
    }
    return new Response(BODILESS.has(answer.status) ? null : new Uint8Array(answer.body), { status: answer.status, headers });
  };
}
