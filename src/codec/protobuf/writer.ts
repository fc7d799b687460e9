// A protobuf writer into one reused scratch buffer. A nested message gets one byte for its
// length up front; a message of 128 bytes or more moves its content up by the extra length
// bytes when it ends. The output is exact (the shortest varint, as Go writes it) and costs
// one pass over the object and one copy out.

import { varintSize, putVarint } from './wire.js';

const TWO_32 = 4294967296;
const INITIAL = 16 * 1024;
const MAX_KEPT = 1024 * 1024;

export class WireWriter {
  private buf: Buffer;
  pos = 0;

  constructor() {
    this.buf = Buffer.allocUnsafe(INITIAL);
  }

  reset(): void {
    this.pos = 0;
    // One big object should not pin a big buffer for good.
    if (this.buf.length > MAX_KEPT) this.buf = Buffer.allocUnsafe(INITIAL);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A non-negative integer below 2^53. */
  uvarint(n: number): void {
    this.ensure(10);
    if (n < 0x80) this.buf[this.pos++] = n;
    else this.pos = putVarint(this.buf, this.pos, n);
  }

  /** An int64 given exactly (beyond 2^53): its two's complement as a varint. */
  int64Exact(n: bigint): void {
    let u = BigInt.asUintN(64, n);
    this.ensure(10);
    while (u >= 0x80n) {
      this.buf[this.pos++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    this.buf[this.pos++] = Number(u);
  }

  /** Go's int64 (and int32, which Go sign-extends the same way): negatives take 10 bytes. */
  int64(n: number): void {
    if (n >= 2 ** 63) {
      // A double cannot hold 2^63-1; the int64 it stands for is the maximum (0x7fff_ffff_ffff_ffff).
      this.ensure(9);
      for (let i = 0; i < 8; i++) this.buf[this.pos++] = 0xff;
      this.buf[this.pos++] = 0x7f;
      return;
    }
    if (n >= 0) {
      this.uvarint(n);
      return;
    }
    this.ensure(10);
    const hiWord = Math.floor(n / TWO_32);
    let lo = (n - hiWord * TWO_32) >>> 0;
    let hi = hiWord >>> 0;
    const buf = this.buf;
    let pos = this.pos;
    while (hi !== 0 || lo >= 0x80) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[pos++] = lo;
    this.pos = pos;
  }

  bool(b: boolean): void {
    this.ensure(1);
    this.buf[this.pos++] = b ? 1 : 0;
  }

  /** A length-delimited UTF-8 string (the tag is written by the caller). */
  string(s: string): void {
    const n = s.length;
    if (n < 128) {
      // Short strings: ASCII is written inline; anything else through Buffer#write.
      this.ensure(1 + n * 3);
      const buf = this.buf;
      const start = this.pos;
      let pos = start + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[pos++] = c;
      }
      if (i === n) {
        buf[start] = n;
        this.pos = pos;
        return;
      }
    }
    const len = Buffer.byteLength(s, 'utf8');
    this.uvarint(len);
    this.ensure(len);
    this.buf.write(s, this.pos, len, 'utf8');
    this.pos += len;
  }

  /** Length-delimited bytes (the tag is written by the caller). */
  bytes(b: Uint8Array): void {
    this.uvarint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Starts a nested message (after its tag); returns the mark `end` takes. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Ends the nested message started at `mark`, writing its length. */
  end(mark: number): void {
    const len = this.pos - mark - 1;
    if (len < 0x80) {
      this.buf[mark] = len;
      return;
    }
    const extra = varintSize(len) - 1;
    this.ensure(extra);
    this.buf.copyWithin(mark + 1 + extra, mark + 1, this.pos);
    putVarint(this.buf, mark, len);
    this.pos += extra;
  }

  /** A copy of what was written since `from`. */
  copyFrom(from: number): Buffer {
    return Buffer.from(this.buf.subarray(from, this.pos));
  }
}
