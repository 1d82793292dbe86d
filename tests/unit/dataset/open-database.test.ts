/**
 * A database opened from handed-over bytes answers like any other, and sql.js keeps those very bytes as its
 * file (no copy of the database): a change to them after the open shows in the next read of that page.
 */
import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { openHandedOver } from '../../../dataset/artifact/open-database.ts';

async function fileWith(text: string): Promise<Uint8Array> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  db.run('INSERT INTO t (v) VALUES (?)', [text]);
  const bytes = db.export();
  db.close();
  return bytes;
}

describe('openHandedOver', () => {
  it('opens the bytes as they are: the database reads them, not a copy', async () => {
    const SQL = await loadSqlJs();
    const bytes = await fileWith('hello-marker');
    const at = Buffer.from(bytes).indexOf('hello-marker');
    expect(at).toBeGreaterThan(0);
    const db = openHandedOver(SQL, bytes);
    // Opening read the schema page only; the row's page is read now, from the same bytes.
    bytes[at] = 'j'.charCodeAt(0);
    expect(db.exec('SELECT v FROM t')[0].values).toEqual([['jello-marker']]);
    db.close();
  });

  it('answers like a database opened the usual way, from a view inside a larger buffer too', async () => {
    const SQL = await loadSqlJs();
    const bytes = await fileWith('plain');
    const larger = new Uint8Array(bytes.byteLength + 16);
    larger.set(bytes, 8);
    const db = openHandedOver(SQL, larger.subarray(8, 8 + bytes.byteLength));
    expect(db.exec('SELECT id, v FROM t')[0].values).toEqual([[1, 'plain']]);
    expect(db.export()).toEqual(bytes);
  });
});
