import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../engine/index.ts';
import type { DatasetName } from '../../../engine/http/types.ts';
import { warm } from '../../../adapters/node/backends/warm.ts';
import { generatedDatabase } from '../../../harness/engine.ts';

describe('warm', () => {
  it('binds every dataset before the first client asks, so its request does not pay the bind', async () => {
    const bound: DatasetName[] = [];
    // preparedReady is the engine's word that it has bound an API from the records.
    const engine = createEngine({ preparedReady: (dataset) => bound.push(dataset) });
    engine.use('websites', await generatedDatabase('websites', 20));
    engine.use('ceilingrates', await generatedDatabase('ceilingrates', 20));
    warm(engine);
    expect(bound).toEqual(['websites', 'ceilingrates']);
    expect(engine.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/?keyword=engineer' }).status).toBe(200);
    expect(bound).toEqual(['websites', 'ceilingrates']);
  });

  it('leaves a dataset that is not there alone: its API still answers 503', () => {
    const engine = createEngine();
    warm(engine);
    expect(engine.handle({ method: 'GET', url: '/websites' }).status).toBe(503);
  });
});
