// An emoji as GitBook takes one: its characters ("🎉", "👩‍💻", "🇫🇷") or their code
// points in hex joined by dashes ("1f389", "1f469-200d-1f4bb"). The empty string is no
// emoji. Letters, digits and other text are refused, as GitBook's "emoji" format does.
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;
const EMOJI_PARTS = /^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\p{Emoji_Presentation}|\u200d|\ufe0f|\u20e3)+$/u;
const CODE_POINTS = /^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6}){0,9}$/i;

export function isEmoji(value: string): boolean {
  if (value === '') return true;
  let text = value;
  if (CODE_POINTS.test(value)) {
    const points = value.split('-').map((hex) => Number.parseInt(hex, 16));
    if (points.some((point) => point > 0x10ffff)) return false;
    text = String.fromCodePoint(...points);
  }
  return EMOJI_PARTS.test(text) && PICTOGRAPH.test(text);
}
