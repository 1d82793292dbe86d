/** The data build's progress lines: each step said when it starts, and a line every few seconds while it waits. */
import { describe, expect, it } from 'vitest';
import { buildLog } from '../../../tools/build-progress.ts';

describe('buildLog', () => {
  it('says what it still waits for while nothing else is said, and what each piece of work gave when it ends', async () => {
    const lines: string[] = [];
    const log = buildLog('data', 100, (line) => lines.push(line));
    let finish: (value: number) => void = () => undefined;
    const work = log.track('Brotli of websites.sqlite.br', new Promise<number>((done) => (finish = done)), (n) => `websites.sqlite.br: ${n} bytes`);
    await new Promise((done) => setTimeout(done, 450));
    finish(42);
    await work;
    log.stop();
    expect(lines.filter((l) => l.includes('still Brotli of websites.sqlite.br')).length).toBeGreaterThanOrEqual(2);
    expect(lines.at(-1)).toMatch(/^data: \[ *\d+\.\d s\] websites\.sqlite\.br: 42 bytes$/);
  });

  it('names the file on each of its lines, and says an import’s progress at most every half period', () => {
    const lines: string[] = [];
    const step = buildLog('data', 60_000, (line) => lines.push(line)).step('websites.sqlite.gz');
    step('importing');
    const progress = step.importProgress(36_331);
    for (let i = 0; i < 5; i++) progress({ phase: 'inserting', bytesRead: i, totalBytes: 10, rowsImported: i * 1000, rowsRejected: 0 });
    expect(lines).toEqual([expect.stringMatching(/websites\.sqlite\.gz: importing$/)]);
  });
});
