import { describe, expect, it } from 'vitest';
import { AddressMemory } from './address-memory';

describe('AddressMemory', () => {
  it('answers the first line of an address and nothing for an unknown one', () => {
    const memory = new AddressMemory();
    memory.set('ada@example.com', 2);
    memory.set('tunde@example.com', 3);
    memory.set('ada@example.com', 9);
    expect(memory.get('ada@example.com')).toBe(2);
    expect(memory.get('tunde@example.com')).toBe(3);
    expect(memory.get('Ada@example.com')).toBeUndefined();
    expect(memory.get('')).toBeUndefined();
    expect(memory.size).toBe(2);
  });

  it('keeps every address exactly through many growths, with no false match among 300,000', () => {
    const memory = new AddressMemory(16);
    const count = 300_000;
    for (let i = 0; i < count; i++) memory.set(`lead${i}@company${i % 977}.example.com`, i + 1);
    expect(memory.size).toBe(count);
    for (let i = 0; i < count; i += 997) {
      expect(memory.get(`lead${i}@company${i % 977}.example.com`)).toBe(i + 1);
    }
    let falseMatches = 0;
    for (let i = 0; i < count; i++) if (memory.get(`other${i}@company${i % 977}.example.com`)) falseMatches++;
    expect(falseMatches).toBe(0);
  });

  it('tells apart addresses that differ only in order or non-ASCII letters', () => {
    const memory = new AddressMemory();
    memory.set('ab@x.ng', 1);
    memory.set('adéòla@ìbàdàn.ng', 2);
    expect(memory.get('ba@x.ng')).toBeUndefined();
    expect(memory.get('adeola@ibadan.ng')).toBeUndefined();
    expect(memory.get('adéòla@ìbàdàn.ng')).toBe(2);
  });

  it('refuses a line of 0, which marks an empty slot', () => {
    expect(() => new AddressMemory().set('a@b.ng', 0)).toThrow(RangeError);
  });
});
