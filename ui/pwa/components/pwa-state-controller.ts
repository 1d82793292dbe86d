import type { ReactiveController, ReactiveElement } from 'lit';
import { ContextConsumer } from '@lit/context';
import { pwaContext, type PwaController } from '../context.ts';
import { INITIAL_STATE, type PwaState } from '../state.ts';

/** Keeps a component's view of the PWA state current, from the controller the app shell provides. */
export class PwaStateController implements ReactiveController {
  state: PwaState = INITIAL_STATE;
  private unsubscribe: (() => void) | null = null;
  private readonly consumer: ContextConsumer<typeof pwaContext, ReactiveElement>;

  constructor(private readonly host: ReactiveElement) {
    host.addController(this);
    this.consumer = new ContextConsumer(host, { context: pwaContext, subscribe: true, callback: (pwa) => this.follow(pwa) });
  }

  get pwa(): PwaController | null {
    return this.consumer.value ?? null;
  }

  hostConnected(): void {
    if (this.pwa && !this.unsubscribe) this.follow(this.pwa);
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private follow(pwa: PwaController | null | undefined): void {
    this.unsubscribe?.();
    this.unsubscribe = pwa
      ? pwa.store.subscribe((state) => {
          this.state = state;
          this.host.requestUpdate();
        })
      : null;
  }
}
