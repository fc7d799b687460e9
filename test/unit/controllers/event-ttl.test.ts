// When an event was last written, for --event-ttl: its newest timestamp.

import { describe, expect, it } from 'vitest';
import { lastWritten } from '../../../src/controllers/event-ttl.js';
import type { KObject } from '../../../src/machinery/object.js';

describe('lastWritten', () => {
  it('takes the newest of creation, first and last seen, event time, series and managed fields times', () => {
    const base = { metadata: { name: 'e', creationTimestamp: '2025-01-01T00:00:00Z' } } as KObject;
    expect(lastWritten(base)).toBe(Date.parse('2025-01-01T00:00:00Z'));
    expect(lastWritten({ ...base, lastTimestamp: '2025-01-01T00:05:00Z', firstTimestamp: '2025-01-01T00:01:00Z' } as KObject)).toBe(Date.parse('2025-01-01T00:05:00Z'));
    expect(lastWritten({ ...base, eventTime: '2025-01-01T00:00:01.500000Z', series: { count: 2, lastObservedTime: '2025-01-01T00:07:00.000000Z' } } as KObject)).toBe(
      Date.parse('2025-01-01T00:07:00Z'),
    );
    const managed = { ...base, metadata: { ...base.metadata, managedFields: [{ manager: 'a', time: '2025-01-01T00:09:00Z' }] } } as KObject;
    expect(lastWritten(managed)).toBe(Date.parse('2025-01-01T00:09:00Z'));
    // Null and malformed times are ignored.
    expect(lastWritten({ ...base, lastTimestamp: null, eventTime: 'x' } as unknown as KObject)).toBe(Date.parse('2025-01-01T00:00:00Z'));
  });
});
