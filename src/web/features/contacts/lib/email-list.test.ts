import { emailSchema } from '@shared/contacts';
import { describe, expect, it } from 'vitest';
import { parseEmailList } from './email-list';

const isValid = (email: string) => emailSchema.safeParse(email).success;

describe('parseEmailList', () => {
  it('splits on lines, commas and semicolons and drops repeats', () => {
    expect(parseEmailList('a@example.com\nb@example.com, A@example.com; c@example.com', isValid)).toEqual({
      valid: ['a@example.com', 'b@example.com', 'c@example.com'],
      invalid: [],
    });
  });

  it('reports what is not an address', () => {
    expect(parseEmailList('a@example.com nobody bad@', isValid)).toEqual({
      valid: ['a@example.com'],
      invalid: ['nobody', 'bad@'],
    });
  });

  it('reads addresses in angle brackets', () => {
    expect(parseEmailList('<ada@example.com>', isValid).valid).toEqual(['ada@example.com']);
    expect(parseEmailList('Ada Obi <ada@example.com>, Bola <bola@example.com>', isValid)).toEqual({
      valid: ['ada@example.com', 'bola@example.com'],
      invalid: [],
    });
  });
});
