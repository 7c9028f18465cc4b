// The IPv4 CIDRs of one prefix length: entries keyed by the prefix's bits in one flat
// open-addressed table. Pure: no IO.
import { addRef, type Bucket, emitRef, finish, type Hits } from './bucket.js';
import { overLoaded } from './flat-slots.js';

/**
 * Per slot, 3 ints: the key (a prefix's bits, as an int32), then a ref and its port (bucket.ts's
 * addRef; a ref of -1 is an empty slot). A lookup costs one slot, loaded once the rule set outgrows
 * the caches, where a Map of Buckets cost a chain of objects.
 */
export class V4Table {
  private count = 0;
  private slots = new Int32Array(3 * 16).fill(-1);
  private mask = 15;
  private readonly buckets: Bucket[] = [];

  /** Adds entry `id` on `port` under `key`. */
  add(key: number, id: number, port: number): void {
    const at = this.slotOf(key);
    const fresh = this.slots[at + 1] === -1;
    if (fresh) this.slots[at] = key;
    addRef(this.slots, at + 1, this.buckets, id, port);
    if (fresh && overLoaded(++this.count, this.mask)) this.grow();
  }

  /** Adds the entries under `key` that apply on `port`. */
  emit(key: number, port: number, out: Hits): void {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = slotHash(key) & mask; ; i = (i + 1) & mask) {
      const at = 3 * i;
      const ref = slots[at + 1]!;
      if (ref === -1) return;
      if (slots[at] !== key) continue;
      emitRef(slots, at + 1, this.buckets, port, out);
      return;
    }
  }

  /** The slot of `key`, or the empty slot where it goes. */
  private slotOf(key: number): number {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = slotHash(key) & mask; ; i = (i + 1) & mask) {
      const at = 3 * i;
      if (slots[at + 1] === -1 || slots[at] === key) return at;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.mask = this.mask * 2 + 1;
    this.slots = new Int32Array(3 * (this.mask + 1)).fill(-1);
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 1] === -1) continue;
      const to = this.slotOf(old[at]!);
      this.slots[to] = old[at]!;
      this.slots[to + 1] = old[at + 1]!;
      this.slots[to + 2] = old[at + 2]!;
    }
  }
}

/** Spreads a key's bits (consecutive prefixes are common) over the slots. */
function slotHash(key: number): number {
  return finish(Math.imul(key, 0x9e3779b1));
}
