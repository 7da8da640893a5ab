/**
 * Reading the customer page's QR code back from the pixels Chromium renders (the browser itself is
 * launched by test/helpers/chromium.ts).
 */
/**
 * Reads the QR image the page shows (`img#qr`) back as a module grid, from its pixels: the dark
 * bounding box is the code, the top-left finder's width is 7 modules, and each module is sampled
 * at its centre. Runs in the page.
 */
export function readQrGrid(): boolean[][] {
  // The test project has no DOM lib; these are the few browser shapes used here.
  interface Ctx {
    fillStyle: string;
    fillRect(x: number, y: number, w: number, h: number): void;
    drawImage(image: unknown, x: number, y: number): void;
    getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  }
  interface Canvas {
    width: number;
    height: number;
    getContext(kind: '2d'): Ctx;
  }
  const doc = (
    globalThis as unknown as {
      document: { getElementById(id: string): unknown; createElement(tag: 'canvas'): Canvas };
    }
  ).document;
  const img = doc.getElementById('qr') as { naturalWidth: number; naturalHeight: number };
  const w = img.naturalWidth;
  const h = img.naturalHeight;
  const canvas = doc.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  ctx.drawImage(img, 0, 0);
  const px = ctx.getImageData(0, 0, w, h).data;
  const dark = (x: number, y: number): boolean => px[(y * w + x) * 4]! < 128;
  let [minX, minY, maxX] = [w, h, -1];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (dark(x, y)) {
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
      }
  let run = 0;
  while (dark(minX + run, minY)) run++;
  const module = run / 7;
  const n = Math.round((maxX - minX + 1) / module);
  return Array.from({ length: n }, (_, r) =>
    Array.from({ length: n }, (_, c) =>
      dark(Math.floor(minX + (c + 0.5) * module), Math.floor(minY + (r + 0.5) * module)),
    ),
  );
}
