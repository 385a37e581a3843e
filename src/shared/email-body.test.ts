import { describe, expect, it } from 'vitest';
import { EMAIL_BODY_MAX_BYTES, emailBodyHtml, utf8ByteLength } from './email-body';

describe('utf8ByteLength', () => {
  it("gives Buffer.byteLength's answer for every kind of text, lone surrogates included", () => {
    const samples = [
      '',
      'plain ascii',
      'Ìròyìn ọjà ẹ̀gbẹ́',
      '市场报告',
      'emoji 🇳🇬👩🏾‍💻 end',
      'lone \ud83d high',
      'lone \ude00 low',
      '\ud83d',
      '\ude00\ud83d',
      'é'.repeat(1000),
    ];
    for (let i = 0; i < 2000; i++) {
      let s = '';
      for (let j = 0; j < 20; j++) s += String.fromCharCode(Math.floor(Math.random() * 0x10000));
      samples.push(s);
    }
    for (const s of samples) expect(utf8ByteLength(s), JSON.stringify(s)).toBe(Buffer.byteLength(s, 'utf8'));
  });
});

describe('emailBodyHtml', () => {
  it('counts bytes: 2 MB of Latin text passes, the same number of Yoruba characters does not', () => {
    expect(emailBodyHtml.safeParse('a'.repeat(EMAIL_BODY_MAX_BYTES)).success).toBe(true);
    const result = emailBodyHtml.safeParse('ẹ'.repeat(EMAIL_BODY_MAX_BYTES / 2));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('The email body is too large (max 2 MB)');
    // Too long in characters: one error, the byte count not walked.
    const long = emailBodyHtml.safeParse('a'.repeat(EMAIL_BODY_MAX_BYTES + 1));
    expect(long.error?.issues.map((issue) => issue.message)).toEqual([
      'The email body is too large (max 2 MB)',
    ]);
  });
});
