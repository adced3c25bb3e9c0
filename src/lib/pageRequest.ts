// What a client asks of a list (a page's cursor, how many items) and the page it gets
// back: the API's shape, which routes, services and db/pagination.ts share.

export interface PageRequest {
  page?: string;
  limit?: number;
}

export interface ListPage<T> {
  items: T[];
  count: number;
  next?: { page: string };
}
