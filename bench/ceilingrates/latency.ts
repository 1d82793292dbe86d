/** Latency samples grouped by request kind, summarised as p50/p95 (linear interpolation). */
export interface Summary {
  samples: number;
  p50_ms: number;
  p95_ms: number;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => {
    if (sorted.length === 0) return NaN;
    const pos = (p / 100) * (sorted.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
  };
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  return { samples: sorted.length, p50_ms: round(at(50)), p95_ms: round(at(95)) };
}

export class Samples {
  private readonly byKind = new Map<string, number[]>();
  private readonly all: number[] = [];

  add(kind: string, ms: number): void {
    if (!this.byKind.has(kind)) this.byKind.set(kind, []);
    this.byKind.get(kind)!.push(ms);
    this.all.push(ms);
  }

  overall(): Summary {
    return summarize(this.all);
  }

  kind(kind: string): Summary {
    return summarize(this.byKind.get(kind) ?? []);
  }
}
