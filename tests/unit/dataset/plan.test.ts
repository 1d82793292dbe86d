/** The order of a load's work (dataset/host/plan.ts), over fake tasks: what starts when, not how long anything takes. */
import { describe, expect, it } from 'vitest';
import { LoadPlan, type LinkTurn, type PlanStep } from '../../../dataset/host/plan.ts';

/** A task held until the test lets it go. */
function held() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A step that records its events; its bytes come over the network unless `local`, and arrive when `arrive` is called. */
function step(name: string, log: string[], { local = false, fail = false } = {}) {
  const arrival = held();
  const s: PlanStep<string> & { arrive: () => void } = {
    arrive: arrival.release,
    async bring(turn: LinkTurn) {
      log.push(`${name} asks for its turn`);
      if (local) return `${name} bytes`;
      await turn.ready;
      log.push(`${name} request`);
      turn.requested();
      await arrival.promise;
      turn.overNetwork();
      turn.done();
      log.push(`${name} arrived`);
      if (fail) throw new Error(`${name} failed`);
      return `${name} bytes`;
    },
    async open(got) {
      const bytes = await got.catch((error: Error) => error.message);
      log.push(`${name} open (${bytes})`);
      await settle();
      log.push(`${name} opened`);
    },
  };
  return s;
}

describe('LoadPlan', () => {
  it('uses the network one file at a time in the steps’ order, the next request leaving as the last byte of one arrives', async () => {
    const log: string[] = [];
    const [a, b] = [step('a', log), step('b', log)];
    const run = new LoadPlan({ wait: () => new Promise(() => {}) }).run([a, b]);
    await settle();
    expect(log).toEqual(['a asks for its turn', 'b asks for its turn', 'a request']);
    a.arrive();
    await settle();
    // b's request leaves before a's CPU work: the link is never idle while a opens.
    expect(log.indexOf('b request')).toBeLessThan(log.indexOf('a open (a bytes)'));
    b.arrive();
    await run;
    expect(log.slice(-2)).toEqual(['b open (b bytes)', 'b opened']);
    expect(log.indexOf('a opened')).toBeLessThan(log.indexOf('b open (b bytes)'));
  });

  it('opens one step at a time in order, even when a later one’s bytes are had first', async () => {
    const log: string[] = [];
    const a = step('a', log);
    const b = step('b', log, { local: true });
    const between: string[] = [];
    const run = new LoadPlan({ between: async (previous) => void between.push(`after ${previous}`) }).run([a, b]);
    await settle();
    expect(log).not.toContain('b open (b bytes)');
    a.arrive();
    await run;
    expect(log.filter((line) => line.includes('open'))).toEqual(['a open (a bytes)', 'a opened', 'b open (b bytes)', 'b opened']);
    expect(between).toEqual(['after 0']);
  });

  it('hands a failed step its failure in its turn, and goes on with the next', async () => {
    const log: string[] = [];
    const a = step('a', log, { fail: true });
    const b = step('b', log);
    const run = new LoadPlan().run([a, b]);
    a.arrive();
    b.arrive();
    await run;
    expect(log.filter((line) => line.includes('open ('))).toEqual(['a open (a failed)', 'b open (b bytes)']);
  });

  it('waits only so long for the next request before opening (a next step stuck before its request does not hold the first view)', async () => {
    const log: string[] = [];
    const a = step('a', log);
    const stuck: PlanStep<string> = { bring: () => new Promise(() => {}), open: async () => void log.push('stuck open') };
    const waited: number[] = [];
    const run = new LoadPlan({ nextRequestWaitMs: 500, wait: async (ms) => void waited.push(ms) }).run([a, stuck]);
    a.arrive();
    await settle();
    await settle();
    expect(log).toContain('a opened');
    expect(waited).toEqual([500]);
    void run;
  });
});
