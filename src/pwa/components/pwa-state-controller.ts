import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { PWA_REGISTERED, currentPwa, type PwaController } from '../register.ts';
import { INITIAL_STATE, type PwaState } from '../state.ts';

/**
 * Keeps a component's view of the PWA state current. The component may be given a controller
 * (`.controller=${pwa}`); otherwise it uses the one registerPwa made.
 */
export class PwaStateController implements ReactiveController {
  state: PwaState = INITIAL_STATE;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & { controller?: PwaController | null },
  ) {
    host.addController(this);
  }

  get pwa(): PwaController | null {
    return this.host.controller ?? currentPwa();
  }

  hostConnected(): void {
    if (this.pwa) {
      this.subscribe(this.pwa);
      return;
    }
    // Placed before registerPwa ran: follow the controller as soon as it exists.
    const onRegistered = () => this.pwa && this.subscribe(this.pwa);
    window.addEventListener(PWA_REGISTERED, onRegistered, { once: true });
    this.unsubscribe = () => window.removeEventListener(PWA_REGISTERED, onRegistered);
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private subscribe(pwa: PwaController): void {
    this.unsubscribe = pwa.store.subscribe((state) => {
      this.state = state;
      this.host.requestUpdate();
    });
  }
}
