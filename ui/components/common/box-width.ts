import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * The width a drawing gets: its host's box, between `narrowest` and `widest`, so its text stays legible on a phone
 * and is not scaled up on a wide screen. Changes under 9 px are ignored, so a scroll bar coming and going does not
 * redraw it.
 */
export class BoxWidth implements ReactiveController {
  width: number;
  private readonly observer: ResizeObserver;
  private frame = 0;

  constructor(
    private readonly host: ReactiveControllerHost & Element,
    narrowest: number,
    private readonly widest: number,
  ) {
    this.width = widest;
    this.observer = new ResizeObserver(([entry]) => {
      const w = Math.round(Math.min(widest, Math.max(narrowest, entry.contentRect.width)));
      // Drawn in the next frame, not while the browser delivers this resize: a drawing whose height follows its
      // width changes its host's box then, which WebKit reports as an error ("ResizeObserver loop completed with
      // undelivered notifications") on every opening of the rates view.
      cancelAnimationFrame(this.frame);
      this.frame = requestAnimationFrame(() => {
        if (Math.abs(w - this.width) <= 8) return;
        this.width = w;
        host.requestUpdate();
      });
    });
    host.addController(this);
  }

  hostConnected(): void {
    this.observer.observe(this.host);
  }

  hostDisconnected(): void {
    this.observer.disconnect();
    cancelAnimationFrame(this.frame);
  }
}
