// A test identity provider: a key pair and certificate made for the test run, and
// SAML responses built and signed the way real identity providers send them.
import { inflateRawSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

export interface TestIdentityProvider {
  entityID: string;
  ssoURL: string;
  certificate: string;
  privateKey: string;
}

export async function createIdentityProvider(name = 'idp.test'): Promise<TestIdentityProvider> {
  const pems = await generate([{ name: 'commonName', value: name }], { keySize: 2048, algorithm: 'sha256' });
  return { entityID: `https://${name}/metadata`, ssoURL: `https://${name}/sso`, certificate: pems.cert, privateKey: pems.private };
}

/** The AuthnRequest ID in the redirect that startURL answered with. */
export function authnRequestIdOf(location: string): string {
  const request = inflateRawSync(Buffer.from(new URL(location).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return /\sID="([^"]+)"/.exec(request)![1];
}

export interface ResponseOptions {
  inResponseTo: string;
  acsURL: string;
  audience: string;
  email: string;
  /** A persistent NameID, with the address then sent as an `email` attribute; by default the NameID is the address. */
  nameID?: string;
  /** The format of that NameID: persistent unless told. */
  nameIDFormat?: 'persistent' | 'transient';
  name?: string;
  issuer?: string;
  destination?: string;
  recipient?: string;
  /** Seconds from now the assertion stops being valid; negative for an expired one. */
  validForSeconds?: number;
  /** What to sign: the assertion (most providers' default), the whole response, or nothing. */
  sign?: 'assertion' | 'response' | 'none';
  signingKey?: string;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

function sign(xml: string, elementName: string, privateKey: string, certificate: string): string {
  const signature = new SignedXml({
    privateKey,
    publicCert: certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signature.addReference({
    xpath: `//*[local-name(.)='${elementName}']`,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signature.computeSignature(xml, {
    location: { reference: `//*[local-name(.)='${elementName}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signature.getSignedXml();
}

/** A base64 SAMLResponse, as the identity provider's auto-submitting form posts it. */
export function samlResponse(idp: TestIdentityProvider, options: ResponseOptions): string {
  const now = new Date();
  const issueInstant = now.toISOString();
  const notOnOrAfter = new Date(now.getTime() + (options.validForSeconds ?? 300) * 1000).toISOString();
  const notBefore = new Date(now.getTime() - 60_000 - Math.max(0, -(options.validForSeconds ?? 0)) * 1000).toISOString();
  const issuer = escape(options.issuer ?? idp.entityID);
  const nameId =
    options.nameID === undefined
      ? `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escape(options.email)}</saml:NameID>`
      : `<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:${options.nameIDFormat ?? 'persistent'}">${escape(options.nameID)}</saml:NameID>`;
  const emailAttribute =
    options.nameID === undefined ? '' : `<saml:Attribute Name="email"><saml:AttributeValue>${escape(options.email)}</saml:AttributeValue></saml:Attribute>`;
  const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a${randomUUID()}" Version="2.0" IssueInstant="${issueInstant}">
<saml:Issuer>${issuer}</saml:Issuer>
<saml:Subject>${nameId}
<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${escape(options.inResponseTo)}" NotOnOrAfter="${notOnOrAfter}" Recipient="${escape(options.recipient ?? options.acsURL)}"/></saml:SubjectConfirmation></saml:Subject>
<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escape(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>
<saml:AuthnStatement AuthnInstant="${issueInstant}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>
<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${escape(options.name ?? 'Sam Single')}</saml:AttributeValue></saml:Attribute>${emailAttribute}</saml:AttributeStatement>
</saml:Assertion>`;
  const mode = options.sign ?? 'assertion';
  const key = options.signingKey ?? idp.privateKey;
  const signedAssertion = mode === 'assertion' ? sign(assertion, 'Assertion', key, idp.certificate) : assertion;
  let response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${issueInstant}" Destination="${escape(options.destination ?? options.acsURL)}" InResponseTo="${escape(options.inResponseTo)}">
<saml:Issuer>${issuer}</saml:Issuer>
<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>
${signedAssertion}
</samlp:Response>`;
  if (mode === 'response') response = sign(response, 'Response', key, idp.certificate);
  return Buffer.from(response).toString('base64');
}
