/**
 * The order of a load's work (docs/decisions/0310): the network one file at a time, and the CPU work (unpack,
 * open, bind, first answers) one dataset at a time, both in the load's order, the first view's dataset first.
 * The first view's file then arrives in about half the time of both sharing the link, and opens while the next
 * one still arrives. Knows nothing of datasets: its steps are tasks.
 */
import { delay } from '../tasks.ts';

/** One step's share of the link, handed to its `bring`. */
export interface LinkTurn {
  /** Settles once the steps before this one need the network no more: this one's request may leave. */
  readonly ready: Promise<void>;
  /** Its first request left. */
  requested(): void;
  /** It needs the network no more (its last byte arrived, it came from this machine, or it failed). */
  done(): void;
  /** Its bytes came over the network: the next step's request then leaves before this one's CPU work starts. */
  overNetwork(): void;
}

export interface PlanStep<T> {
  /** Bring the step's bytes; starts at once, and waits for `turn.ready` before it uses the network. */
  bring(turn: LinkTurn): Promise<T>;
  /** The CPU work, in its turn, with what `bring` gave (or its failure). Never throws (a throw is logged). */
  open(got: Promise<T>): Promise<void>;
}

export interface PlanOptions {
  /** Between one step's `open` and the next one's: the answers of the dataset just opened leave first. */
  between?: (previous: number) => Promise<void>;
  /** How long a step's CPU work waits at most for the next step's request to leave. */
  nextRequestWaitMs?: number;
  wait?: (ms: number) => Promise<void>;
  log?: (message: string, error: unknown) => void;
}

const NEXT_REQUEST_WAIT_MS = 500;

class Turn implements LinkTurn {
  ready: Promise<void>;
  network = false;
  readonly requestedP: Promise<void>;
  readonly doneP: Promise<void>;
  requested!: () => void;
  done!: () => void;
  constructor(after: Promise<void>) {
    this.ready = after;
    this.requestedP = new Promise<void>((resolve) => (this.requested = resolve));
    this.doneP = new Promise<void>((resolve) => (this.done = resolve));
    // A step that needs no request (its bytes are here) lets the next one's CPU work go too.
    void this.doneP.then(() => this.requested());
  }
  overNetwork(): void {
    this.network = true;
  }
}

export class LoadPlan {
  constructor(private readonly options: PlanOptions = {}) {}

  /** Run the steps: every `bring` starts now, the network and the `open`s go one at a time in the steps' order. */
  async run<T>(steps: readonly PlanStep<T>[]): Promise<void> {
    const { wait = delay, nextRequestWaitMs = NEXT_REQUEST_WAIT_MS, log = (text, error) => console.error(text, error) } = this.options;
    const turns: Turn[] = [];
    const brought = steps.map((step, i) => {
      const turn = new Turn(i === 0 ? Promise.resolve() : turns[i - 1].doneP);
      turns.push(turn);
      const got = Promise.resolve()
        .then(() => step.bring(turn))
        .finally(() => turn.done());
      // Failures are the step's to report, in its turn; until then the rejection is expected.
      got.catch(() => {});
      return got;
    });
    for (const [i, step] of steps.entries()) {
      if (i > 0) await this.options.between?.(i - 1);
      await brought[i].catch(() => {});
      const next = turns[i + 1];
      if (next && turns[i].network) await Promise.race([next.requestedP, wait(nextRequestWaitMs)]);
      await step.open(brought[i]).catch((error: unknown) => log('load plan: a step failed to open', error));
    }
  }
}
