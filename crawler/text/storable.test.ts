/** The text boundary: what no database stores alike, and no terminal shows safely, never gets in. */
import { describe, expect, it } from 'vitest';
import { storable, storableText } from './storable';

describe('storableText', () => {
  it('drops C0 controls but whitespace, DEL, the C1 controls and the noncharacters; NEL becomes a space', () => {
    const c0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('');
    expect(storableText(`a${c0}b`)).toBe('a\t\n\u000b\u000c\rb');
    const c1 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)).join('');
    expect(storableText(`a\u007f${c1}b`)).toBe('a b');
    expect(storableText('red\u009b31malert\u009b0m')).toBe('red31malert0m');
    expect(storableText('x\ufffe\uffff\ufdd0\ufdef\u{1fffe}\u{10ffff}y')).toBe('xy');
  });

  it('keeps the text around them: accents, U+00A0, U+FFFD, emoji, other planes', () => {
    const text = 'Café\u00a0Zürich \ufffd 😀 𝔘 \u2028';
    expect(storableText(text)).toBe(text);
  });

  it('turns half a surrogate pair into U+FFFD', () => {
    expect(storableText('a\ud800b\udc00c')).toBe('a\ufffdb\ufffdc');
  });

  it('walks plain objects and arrays, keeping dates', () => {
    const at = new Date(0);
    expect(storable({ t: 'a\u0085b', list: ['\u009bx'], at, n: 1 })).toEqual({ t: 'a b', list: ['x'], at, n: 1 });
  });
});
