/**
 * A small QR decoder for the customer-page test: module grid in, text out, written from ISO/IEC
 * 18004 so the test does not take the encoder's word for what its image says. Versions 1 to 10,
 * any error-correction level, byte mode; no error correction (the image under test is clean, and
 * a single wrong module makes decoding fail, which is what a test wants).
 */

const ECC_PER_BLOCK: Record<string, number[]> = {
  L: [7, 10, 15, 20, 26, 18, 20, 24, 30, 18],
  M: [10, 16, 26, 18, 24, 16, 18, 22, 22, 26],
  Q: [13, 22, 18, 26, 18, 24, 18, 22, 20, 24],
  H: [17, 28, 22, 16, 22, 28, 26, 26, 24, 28],
};
const BLOCKS: Record<string, number[]> = {
  L: [1, 1, 1, 1, 1, 2, 2, 2, 2, 4],
  M: [1, 1, 1, 2, 2, 4, 4, 4, 5, 5],
  Q: [1, 1, 2, 2, 4, 4, 6, 6, 8, 8],
  H: [1, 1, 2, 4, 4, 4, 5, 6, 8, 8],
};
const LEVELS = ['M', 'L', 'H', 'Q'] as const; // by the two format bits

const MASKS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

function alignmentPositions(version: number, size: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const step = Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
  const positions = [6];
  for (let pos = size - 7; positions.length < count; pos -= step) positions.splice(1, 0, pos);
  return positions;
}

function functionModules(version: number, size: number): boolean[][] {
  const fn = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const mark = (x0: number, y0: number, w: number, h: number): void => {
    for (let y = Math.max(0, y0); y < Math.min(size, y0 + h); y++)
      for (let x = Math.max(0, x0); x < Math.min(size, x0 + w); x++) fn[y]![x] = true;
  };
  mark(0, 0, 9, 9); // top-left finder, separator, format
  mark(size - 8, 0, 8, 9); // top-right finder, separator, format
  mark(0, size - 8, 9, 8); // bottom-left finder, separator, format, dark module
  mark(6, 0, 1, size); // timing
  mark(0, 6, size, 1);
  if (version >= 7) {
    mark(size - 11, 0, 3, 6); // version information
    mark(0, size - 11, 6, 3);
  }
  const align = alignmentPositions(version, size);
  for (const [i, ay] of align.entries())
    for (const [j, ax] of align.entries()) {
      const corner =
        (i === 0 && j === 0) || (i === 0 && j === align.length - 1) || (i === align.length - 1 && j === 0);
      if (!corner) mark(ax - 2, ay - 2, 5, 5);
    }
  return fn;
}

/** Decodes a QR module grid (`grid[y][x]`, true for dark, no quiet zone) to its byte-mode text. */
export function decodeQr(grid: readonly (readonly boolean[])[]): string {
  const size = grid.length;
  const version = (size - 17) / 4;
  if (!Number.isInteger(version) || version < 1 || version > 10) throw new Error(`unsupported size ${size}`);
  const at = (x: number, y: number): boolean => grid[y]![x]!;
  let format = 0;
  const formatBits = [
    ...[0, 1, 2, 3, 4, 5].map((i) => at(8, i)),
    at(8, 7),
    at(8, 8),
    at(7, 8),
    ...[9, 10, 11, 12, 13, 14].map((i) => at(14 - i, 8)),
  ];
  formatBits.forEach((bit, i) => (format |= (bit ? 1 : 0) << i));
  const data = (format ^ 0x5412) >> 10;
  const level = LEVELS[data >> 3]!;
  const mask = MASKS[data & 7]!;
  const fn = functionModules(version, size);
  const bits: number[] = [];
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let vert = 0; vert < size; vert++)
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        const y = ((right + 1) & 2) === 0 ? size - 1 - vert : vert;
        if (!fn[y]![x]) bits.push(at(x, y) !== mask(x, y) ? 1 : 0);
      }
  }
  const raw: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8)
    raw.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  const blocks = BLOCKS[level]![version - 1]!;
  const ecc = ECC_PER_BLOCK[level]![version - 1]!;
  const shortLen = Math.floor(raw.length / blocks);
  const shortBlocks = blocks - (raw.length % blocks);
  const dataLen = (b: number): number => shortLen - ecc + (b >= shortBlocks ? 1 : 0);
  const dataBlocks: number[][] = Array.from({ length: blocks }, () => []);
  let k = 0;
  for (let i = 0; i < shortLen - ecc + 1; i++)
    for (let b = 0; b < blocks; b++) if (i < dataLen(b)) dataBlocks[b]!.push(raw[k++]!);
  const stream = dataBlocks.flat().flatMap((byte) => [7, 6, 5, 4, 3, 2, 1, 0].map((s) => (byte >> s) & 1));
  let pos = 0;
  const read = (n: number): number => {
    let value = 0;
    for (let i = 0; i < n; i++) value = (value << 1) | stream[pos++]!;
    return value;
  };
  if (read(4) !== 0b0100) throw new Error('not byte mode');
  const length = read(version < 10 ? 8 : 16);
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from({ length }, () => read(8)));
}
