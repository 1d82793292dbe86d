import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * The width a drawing gets: its host's box, between `narrowest` and `widest`, so its text stays legible on a phone
 * and is not scaled up on a wide screen. Changes under 9 px are ignored, so a scroll bar coming and going does not
 * redraw it.
 */
export class BoxWidth implements ReactiveController {
  width: number;
  private readonly observer: ResizeObserver;

  constructor(
    private readonly host: ReactiveControllerHost & Element,
    narrowest: number,
    private readonly widest: number,
  ) {
    this.width = widest;
    this.observer = new ResizeObserver(([entry]) => {
      const w = Math.round(Math.min(widest, Math.max(narrowest, entry.contentRect.width)));
      if (Math.abs(w - this.width) > 8) {
        this.width = w;
        host.requestUpdate();
      }
    });
    host.addController(this);
  }

  hostConnected(): void {
    this.observer.observe(this.host);
  }

  hostDisconnected(): void {
    this.observer.disconnect();
  }
}
