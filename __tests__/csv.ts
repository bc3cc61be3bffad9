/**
 * A careful RFC 4180 CSV parser for tests (server export tests and the e2e spec): fields separated
 * by commas, records by CRLF or LF, quoted fields may hold commas, line breaks and doubled quotes.
 * A leading UTF-8 BOM is dropped.
 */

/**
 * Parses CSV text into records of fields.
 * @throws Error on a quote inside an unquoted field, text after a closing quote, or an
 *   unterminated quoted field
 */
export function parseCsv(text: string): string[][] {
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let fieldStarted = false;
  while (i < input.length) {
    const c = input[i]!;
    if (quoted) {
      if (c === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        const next = input[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new Error(`Unexpected character after a closing quote at ${i}`);
        }
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === '"') {
      if (fieldStarted) throw new Error(`Quote inside an unquoted field at ${i}`);
      quoted = true;
      fieldStarted = true;
      i += 1;
      continue;
    }
    if (c === ',') {
      record.push(field);
      field = '';
      fieldStarted = false;
      i += 1;
      continue;
    }
    if (c === '\r' || c === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      fieldStarted = false;
      i += c === '\r' && input[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    field += c;
    fieldStarted = true;
    i += 1;
  }
  if (quoted) throw new Error('Unterminated quoted field');
  if (fieldStarted || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
