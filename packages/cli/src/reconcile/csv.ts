/** The one CSV reader: strict decoding, then RFC 4180 records with their lines; a stray quote costs one row. Hand-written: ~20x csv-parse. */
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';

import { UsageError } from '../output.js';

/** The encodings `--encoding` accepts. */
export const ENCODINGS = ['utf8', 'latin1', 'windows-1252', 'utf16le'] as const;
export type Encoding = (typeof ENCODINGS)[number];

function notValid(file: string, flag: string, label: string, chunk: Buffer, before: number): UsageError {
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
      `${flag} windows-1252 (or latin1; utf16le for UTF-16 without a BOM).`,
  );
}

/** The file's text, chunk by chunk; rejects with a `UsageError` naming `flag` at the first invalid byte. */
export async function* decodeFile(
  file: string,
  encoding: Encoding | undefined,
  flag = '--encoding',
): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let label = '';
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    if (decoder === undefined) {
      const bom =
        chunk[0] === 0xff && chunk[1] === 0xfe
          ? 'utf-16le'
          : chunk[0] === 0xfe && chunk[1] === 0xff
            ? 'utf-16be'
            : undefined;
      label = bom ?? (encoding === undefined || encoding === 'utf8' ? 'utf-8' : encoding);
      decoder = new TextDecoder(label, { fatal: true });
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw notValid(file, flag, label, chunk, lines);
    }
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    yield text;
  }
  try {
    const rest = decoder?.decode() ?? '';
    if (rest !== '') yield rest;
  } catch {
    throw notValid(file, flag, label, Buffer.alloc(0), lines);
  }
}

/**
 * Refuses a header record (its raw text) with a carriage return outside quotes that no line feed
 * follows: the file ends its lines with CR alone (Excel for Mac's "CSV (Macintosh)"), so it reads as
 * one record, the header holding every row, and a run would find no rows (a ledger all well, a
 * statement with no credit). Quoted cells all through hide no CR from it; a CRLF (or CR CR LF) line
 * end, and a quoted header cell broken over lines, are not refused.
 */
export function refuseBareCr(file: string, raw: string, nothing: string): void {
  let quoted = false;
  let bare = false;
  for (let i = 0; i < raw.length && !bare; i++) {
    const c = raw.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === 13 && !quoted) bare = i + 1 < raw.length && raw[i + 1] !== '\n' && raw[i + 1] !== '\r';
  }
  if (bare)
    throw new UsageError(
      `${file} ends its lines with a carriage return alone (Excel for Mac's "CSV (Macintosh)"), so it reads as one line: ${nothing}. Save it as "CSV UTF-8", or convert its line endings to LF or CRLF.`,
    );
}

/** A record read whole, or the line of one that could not be read and why. */
export type CsvRecord = { readonly line: number; readonly end: number; readonly raw: string } & (
  | { readonly fields: string[]; readonly problem?: undefined }
  | { readonly fields?: undefined; readonly problem: string }
);

/** A quoted field longer than this is taken for a quote never closed (a ledger cell is short). */
const MAX_RECORD_CHARS = 1 << 20;

const enum State {
  FieldStart,
  Unquoted,
  Quoted,
  QuoteInQuoted,
  SkipLine,
}

/** Splits text into records as it arrives; `end` is the UTF-8 byte offset after a record's line break. */
export class CsvSplitter {
  #state = State.FieldStart;
  #fields: string[] = [];
  #field = ''; // the current field's and record's text from earlier chunks
  #raw = '';
  #line = 1;
  #start = 1;
  #problem = '';
  #bytes = 0;
  #text = ''; // the text being pushed, and where its current field and record start
  #fs = 0;
  #rs = 0;
  readonly #out: CsvRecord[] = [];

  /** Feeds text; returns the records it completed (fields sliced, never built a character at a time). */
  push(text: string): CsvRecord[] {
    this.#text = text;
    this.#fs = 0;
    this.#rs = 0;
    let mark = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        this.#bytes += Buffer.byteLength(text.slice(mark, i + 1));
        mark = i + 1;
      }
      this.#step(c, i);
    }
    this.#bytes += Buffer.byteLength(text.slice(mark));
    if (this.#state === State.Unquoted || this.#state === State.Quoted) this.#field += text.slice(this.#fs);
    this.#raw += text.slice(this.#rs);
    this.#text = '';
    if (this.#state === State.Quoted && this.#field.length > MAX_RECORD_CHARS) this.#unclosed();
    return this.#out.splice(0);
  }

  /** Ends the text: a last record without a line break is returned with `end` where it stops. */
  end(): { records: CsvRecord[]; torn: boolean } {
    const torn = this.#raw !== '';
    // An unclosed quote reads its record's other lines again, which may leave text again.
    while (this.#raw !== '') {
      if (this.#state === State.Quoted) this.#unclosed();
      else this.#out.push(...this.push('\n'));
    }
    return { records: this.#out.splice(0), torn };
  }

  #step(c: number, i: number): void {
    switch (this.#state) {
      case State.FieldStart:
        if (c === 34) {
          this.#state = State.Quoted;
          this.#fs = i + 1;
        } else if (c === 44) this.#fields.push('');
        else if (c === 10) this.#endRecord(i, '');
        else {
          this.#state = State.Unquoted;
          this.#fs = i;
        }
        return;
      case State.Unquoted:
        if (c === 44) this.#endField(i, i + 1);
        else if (c === 10) this.#endRecord(i, this.#take(i).replace(/\r$/, ''));
        else if (c === 34) this.#bad('a quote inside a field that does not start with one');
        return;
      case State.Quoted:
        if (c === 34) {
          this.#field = this.#take(i);
          this.#fs = i + 1;
          this.#state = State.QuoteInQuoted;
        } else if (c === 10) this.#line++;
        return;
      case State.QuoteInQuoted:
        if (c === 34) {
          this.#field += '"';
          this.#fs = i + 1;
          this.#state = State.Quoted;
        } else if (c === 44) this.#endField(this.#fs, i + 1);
        else if (c === 10) this.#endRecord(i, this.#field);
        else if (c !== 13) this.#bad(`text after a closing quote (${JSON.stringify(this.#text[i])})`);
        return;
      case State.SkipLine:
        if (c !== 10) return;
        this.#out.push({ line: this.#start, end: this.#bytes, raw: this.#rawTo(i), problem: this.#problem });
        this.#reset(i);
    }
  }

  /** The current field: what came before, and this text from its start up to `i`. */
  #take(i: number): string {
    return this.#field + this.#text.slice(this.#fs, i);
  }

  #rawTo(i: number): string {
    return this.#raw + this.#text.slice(this.#rs, i + 1);
  }

  #endField(i: number, next: number): void {
    this.#fields.push(this.#state === State.Unquoted ? this.#take(i) : this.#field);
    this.#field = '';
    this.#fs = next;
    this.#state = State.FieldStart;
  }

  #endRecord(i: number, last: string): void {
    this.#fields.push(last);
    const blank = this.#fields.length === 1 && last === '';
    if (!blank)
      this.#out.push({ fields: this.#fields, line: this.#start, end: this.#bytes, raw: this.#rawTo(i) });
    this.#reset(i);
  }

  #bad(problem: string): void {
    this.#problem = `line ${this.#start}: cannot be read as CSV: ${problem}`;
    this.#state = State.SkipLine;
  }

  // The quote opened on the record's first line is the stray one: report that line, read the rest again.
  #unclosed(): void {
    const [raw, start] = [this.#raw, this.#start];
    const cut = raw.indexOf('\n') + 1 || raw.length;
    const rest = raw.slice(cut);
    this.#bytes -= Buffer.byteLength(rest);
    const problem = `line ${start}: cannot be read as CSV: a quote opened on this line is never closed`;
    this.#out.push({ line: start, end: this.#bytes, raw: raw.slice(0, cut), problem });
    this.#line = start;
    this.#reset(-1);
    this.#raw = '';
    if (rest !== '') this.#out.push(...this.push(rest));
  }

  #reset(i: number): void {
    this.#state = State.FieldStart;
    this.#fields = [];
    this.#field = '';
    this.#raw = '';
    this.#rs = i + 1;
    this.#fs = i + 1;
    this.#line++;
    this.#start = this.#line;
  }
}

/** Every record of a text stream, in order; `torn` on the last when the text ended mid-record. */
export async function* readCsv(
  chunks: AsyncIterable<string>,
): AsyncGenerator<CsvRecord & { torn?: boolean }, void, undefined> {
  const splitter = new CsvSplitter();
  for await (const chunk of chunks) yield* splitter.push(chunk);
  const { records, torn } = splitter.end();
  for (let i = 0; i < records.length; i++)
    yield i === records.length - 1 && torn ? { ...records[i]!, torn: true } : records[i]!;
}
