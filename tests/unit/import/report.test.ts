import { describe, expect, it } from 'vitest';
import { MAX_EXAMPLES, MAX_REJECTED_LISTED, ReportBuilder, summariseReport } from '../../../dataset/import/report.ts';

describe('ReportBuilder', () => {
  it('counts every rejection but lists the first 1,000, in file order', () => {
    const builder = new ReportBuilder('websites', 'websites-csv');
    for (let i = 1; i <= MAX_REJECTED_LISTED + 5; i++) {
      builder.row({ line: i + 1, record: i });
      builder.reject(`bad ${i}`);
    }
    const report = builder.finish();
    expect(report.rowsRejected).toBe(1005);
    expect(report.rejected).toHaveLength(1000);
    expect(report.rejected[0]).toEqual({ line: 2, record: 1, reason: 'bad 1' });
  });

  it('keeps value notes of imported rows only, five examples each, most frequent first', () => {
    const builder = new ReportBuilder('ceilingrates', 'ceilingrates-csv');
    for (let i = 1; i <= 8; i++) {
      const notes = builder.row({ line: i, record: i });
      notes.note('current_price', '$ sign', 'normalised', `$${i}.00`, i);
      if (i % 4 === 0) notes.note('worksite', 'not a known worksite', 'kept-original', 'Offsite', 'Offsite');
      if (i === 3) builder.reject('no labor category');
      else builder.imported();
    }
    const report = builder.finish();
    expect(report.values.map((v) => [v.field, v.count])).toEqual([
      ['current_price', 7],
      ['worksite', 2],
    ]);
    expect(report.values[0].examples).toHaveLength(MAX_EXAMPLES);
    expect(report.values[0].examples.map((e) => e.original)).toEqual(['$1.00', '$2.00', '$4.00', '$5.00', '$6.00']);
    expect(report.values[0].examples[2]).toEqual({ line: 4, record: 4, original: '$4.00', value: '4' });
    expect(summariseReport(report)).toContain('7 rows imported, 1 rejected (of 8 read)');
    expect(summariseReport(report)).toContain('rejected line 3: no labor category');
  });
});
