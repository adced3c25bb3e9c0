// Domain names, as organizations claim them for e-mail.
export const DOMAIN_NAME_PATTERN = '^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$';

const DOMAIN_NAME = new RegExp(DOMAIN_NAME_PATTERN);

export function isDomainName(value: string): boolean {
  return DOMAIN_NAME.test(value);
}
