import type { Socket } from 'node:net';

/** MQTT control packet types (the high nibble of the fixed header's first byte). */
const CONNECT = 1;
const PUBLISH = 3;

export interface PacketLimits {
  /** Largest CONNECT, and largest packet of any kind but PUBLISH (SUBSCRIBE, PUBACK...), in bytes after the fixed header. */
  maxConnectBytes: number;
  /** Largest PUBLISH, in bytes after the fixed header (topic, packet id and payload). */
  maxPublishBytes: number;
}

/**
 * Reads the fixed headers of an MQTT byte stream (docs/devices.md, "Limits"): a packet type and
 * its remaining length (1 to 4 bytes, 7 bits each). The size of a packet is known as soon as
 * its header is read, so a packet too large is refused before any of its body is kept: `feed`
 * answers why the connection must be cut, or null. The first packet must be a CONNECT.
 * Bodies are skipped, not copied: the scanner keeps a few numbers, whatever the stream.
 */
export class PacketScanner {
  private packets = 0;
  private type = 0;
  /** Bytes of the current packet's body still to skip; -1 while a header is being read. */
  private toSkip = -1;
  private length = 0;
  private lengthBytes = 0;
  private headerStarted = false;

  constructor(private readonly limits: PacketLimits) {}

  feed(chunk: Buffer): string | null {
    let i = 0;
    while (i < chunk.length) {
      if (this.toSkip > 0) {
        const n = Math.min(this.toSkip, chunk.length - i);
        this.toSkip -= n;
        i += n;
        continue;
      }
      const byte = chunk[i++]!;
      if (!this.headerStarted) {
        this.type = byte >> 4;
        this.headerStarted = true;
        this.length = 0;
        this.lengthBytes = 0;
        if (this.packets === 0 && this.type !== CONNECT) return 'the first packet is not a CONNECT';
        continue;
      }
      this.length += (byte & 0x7f) * 128 ** this.lengthBytes;
      this.lengthBytes++;
      const max = this.type === PUBLISH ? this.limits.maxPublishBytes : this.limits.maxConnectBytes;
      if (this.length > max) return `a packet of type ${this.type} announces ${this.length} bytes (at most ${max})`;
      if (byte & 0x80) {
        if (this.lengthBytes === 4) return 'malformed remaining length';
        continue;
      }
      // Header complete: skip the body, then read the next header.
      this.packets++;
      this.headerStarted = false;
      this.toSkip = this.length;
    }
    return null;
  }
}

/**
 * Waits for a new connection's first bytes and reads its CONNECT's header before the broker builds
 * anything for it: `accept` is called with the bytes put back (socket.unshift), or the socket is
 * destroyed when they announce too much, when the stream ends, or when nothing came within `timeoutMs`.
 */
export function screenConnection(socket: Socket, limits: PacketLimits, timeoutMs: number, accept: () => void): void {
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  const stop = () => clearTimeout(timer);
  socket.once('close', stop);
  socket.once('readable', () => {
    stop();
    socket.off('close', stop);
    const chunk: unknown = socket.read();
    if (!Buffer.isBuffer(chunk) || new PacketScanner(limits).feed(chunk) !== null) return void socket.destroy();
    socket.unshift(chunk);
    accept();
  });
}

/**
 * Puts a PacketScanner in front of whoever reads `socket` with read() (Aedes reads its connections
 * that way, on 'readable'): every chunk is scanned before the reader gets it, and a chunk that
 * announces a packet too large is never handed over: the socket is destroyed and `onCut` told why.
 */
export function guardPackets(socket: Socket, limits: PacketLimits, onCut: (reason: string) => void = () => undefined): void {
  const scanner = new PacketScanner(limits);
  const read = socket.read;
  let cut = false;
  socket.read = function guardedRead(this: Socket, size?: number) {
    const chunk: unknown = read.call(this, size);
    if (cut) return null;
    if (!Buffer.isBuffer(chunk)) return chunk;
    const reason = scanner.feed(chunk);
    if (reason === null) return chunk;
    cut = true;
    socket.destroy();
    onCut(reason);
    return null;
  } as Socket['read'];
}
