// Bytes that arrive as base64 in JSON bodies (files, integration icons): decoded
// strictly, and recognised when they are an image.
import { imageSize } from 'image-size';
import { BadRequest } from '../errors.ts';

/** The bytes of `base64` (whitespace ignored); `where` names the field in the 400. */
export function decodeBase64(base64: string, where: string): { base64: string; bytes: Buffer } {
  const compact = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) {
    throw new BadRequest(`${where}: not valid base64`);
  }
  return { base64: compact, bytes: Buffer.from(compact, 'base64') };
}

export interface ImageFacts {
  contentType: string;
  dimensions?: { width: number; height: number };
}

/** What image the bytes are, or undefined when they are not one image-size knows. */
export function imageFacts(bytes: Buffer): ImageFacts | undefined {
  try {
    const size = imageSize(bytes);
    if (!size.type) return undefined;
    const subtype = size.type === 'jpg' ? 'jpeg' : size.type === 'svg' ? 'svg+xml' : size.type;
    return {
      contentType: `image/${subtype}`,
      ...(size.width && size.height ? { dimensions: { width: size.width, height: size.height } } : {}),
    };
  } catch {
    return undefined;
  }
}
