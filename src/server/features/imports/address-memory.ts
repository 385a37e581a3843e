/**
 * The addresses an import has accepted so far, and the line each first appeared on: the in-file
 * duplicate check. A Map of strings costs ~75 bytes an address and keeps a million strings alive for the
 * garbage collector to walk on every major collection; this keeps a 64-bit hash and the line in typed
 * arrays (12 bytes a slot, at most half full): ~24 MB for 1,000,000 addresses and nothing to walk.
 *
 * Two different addresses would have to share all 64 bits to be mistaken for each other: for a file of
 * a million addresses the chance is about 3 in 100 million.
 */
export class AddressMemory {
  private hashHigh: Uint32Array;
  private hashLow: Uint32Array;
  /** The line (≥ 1) stored in each slot; 0 marks an empty slot. */
  private lines: Uint32Array;
  private mask: number;
  size = 0;

  constructor(initialCapacity = 1 << 14) {
    const capacity = 2 ** Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.hashHigh = new Uint32Array(capacity);
    this.hashLow = new Uint32Array(capacity);
    this.lines = new Uint32Array(capacity);
    this.mask = capacity - 1;
  }

  /** The line the address was first remembered on, or undefined. */
  get(address: string): number | undefined {
    hash64(address);
    const { hashHigh, hashLow, lines, mask } = this;
    for (let slot = LOW & mask; ; slot = (slot + 1) & mask) {
      const line = lines[slot]!;
      if (line === 0) return undefined;
      if (hashLow[slot] === LOW && hashHigh[slot] === HIGH) return line;
    }
  }

  /** Remembers the address's first line (a later set of the same address keeps the first). */
  set(address: string, line: number): void {
    if (line < 1) throw new RangeError('line numbers start at 1');
    if ((this.size + 1) * 2 > this.lines.length) this.grow();
    hash64(address);
    this.insert(HIGH, LOW, line);
  }

  private insert(high: number, low: number, line: number): void {
    const { hashHigh, hashLow, lines, mask } = this;
    for (let slot = low & mask; ; slot = (slot + 1) & mask) {
      if (lines[slot] === 0) {
        hashHigh[slot] = high;
        hashLow[slot] = low;
        lines[slot] = line;
        this.size++;
        return;
      }
      if (hashLow[slot] === low && hashHigh[slot] === high) return;
    }
  }

  private grow(): void {
    const { hashHigh, hashLow, lines } = this;
    const capacity = lines.length * 2;
    this.hashHigh = new Uint32Array(capacity);
    this.hashLow = new Uint32Array(capacity);
    this.lines = new Uint32Array(capacity);
    this.mask = capacity - 1;
    this.size = 0;
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] !== 0) this.insert(hashHigh[i]!, hashLow[i]!, lines[i]!);
    }
  }
}

// hash64's result, in two module-level numbers so no object is made per address, and the text hashed
// (an accepted row's address is looked up, then remembered: hashed once).
let HIGH = 0;
let LOW = 0;
let HASHED: string | null = null;

/** Two independent 32-bit hashes of the UTF-16 code units (FNV-1a and a murmur-style mix), finalised. */
function hash64(text: string): void {
  if (text === HASHED) return;
  HASHED = text;
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  LOW = fmix(a) >>> 0;
  HIGH = fmix(b ^ 0x27d4eb2f) >>> 0;
}

function fmix(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x;
}
