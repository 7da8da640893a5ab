/**
 * A file's bytes as text, never with replacement characters: UTF-8 (with or without a BOM) or
 * UTF-16 with a BOM by default; `--encoding` names another. Bytes that are not valid in the
 * encoding refuse the file with the line they are on and the flag to use.
 */
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';

import { UsageError } from '../output.js';

/** The encodings `--encoding` accepts. */
export const ENCODINGS = ['utf8', 'latin1', 'windows-1252', 'utf16le'] as const;
/** One of {@link ENCODINGS}. */
export type Encoding = (typeof ENCODINGS)[number];

function fromBom(head: Buffer): string | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

function notValid(file: string, label: string, chunk: Buffer, before: number): UsageError {
  // Where: decode without `fatal` and find the first replacement character.
  const loose = new TextDecoder(label).decode(chunk);
  const at = Math.max(loose.indexOf('\uFFFD'), 0);
  const line = before + (loose.slice(0, at).match(/\n/g)?.length ?? 0) + 1;
  const byte = chunk[Buffer.byteLength(loose.slice(0, at))];
  const shown = byte === undefined ? '' : ` (byte 0x${byte.toString(16).padStart(2, '0')})`;
  const name = label === 'utf-8' ? 'UTF-8' : label;
  return new UsageError(
    `${file} is not ${name}: line ${line} has bytes that are not valid ${name}${shown}. ` +
      'Nothing was verified. Spreadsheets on Windows often export Windows-1252: run again with ' +
      '--encoding windows-1252 (or latin1; utf16le for UTF-16 without a BOM).',
  );
}

/** The file's text, chunk by chunk; rejects with a `UsageError` at the first invalid byte. */
export async function* decodeFile(file: string, encoding: Encoding | undefined): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let label = '';
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    if (decoder === undefined) {
      label = fromBom(chunk) ?? (encoding === undefined || encoding === 'utf8' ? 'utf-8' : encoding);
      decoder = new TextDecoder(label, { fatal: true });
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw notValid(file, label, chunk, lines);
    }
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    yield text;
  }
  try {
    const rest = decoder?.decode() ?? '';
    if (rest !== '') yield rest;
  } catch {
    throw notValid(file, label, Buffer.alloc(0), lines);
  }
}
