/** A week's day reads the same in every time zone: 2025-02-10 at midnight UTC is not Feb 9 in Washington. */
import { afterEach, describe, expect, it } from 'vitest';
import { formatDay } from '../../../ui/components/common/format.ts';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('formatDay', () => {
  it('shows the day the data records, west of Greenwich too', () => {
    for (const tz of ['America/Los_Angeles', 'America/New_York', 'UTC', 'Asia/Tokyo']) {
      process.env.TZ = tz;
      expect(formatDay('2025-02-10T00:00:00.000Z'), tz).toBe('Feb 10, 2025');
      expect(formatDay('2025-02-10'), tz).toBe('Feb 10, 2025');
    }
  });
});
