/**
 * Windows-1252 as the WHATWG Encoding Standard (and so every browser) defines it. Node's TextDecoder
 * decodes this label as ISO-8859-1, which differs in 0x80–0x9F (0x92 is a control character there, not ’):
 * the bytes in that range are mapped here so the import reads a file alike on both.
 */
const HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function fromControl(c: string): string {
  return HIGH[c.charCodeAt(0) - 0x80];
}

/** A streaming Windows-1252 decoder with TextDecoder's shape (one byte is one character: nothing to carry). */
export class Windows1252Decoder {
  private readonly latin = new TextDecoder('windows-1252');

  decode(bytes: Uint8Array = new Uint8Array(0)): string {
    return this.latin.decode(bytes).replace(/[\u0080-\u009f]/g, fromControl);
  }
}
