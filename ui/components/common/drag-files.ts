import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Whether a drag carries files (not text or a link): only then does a drop target light up. */
export function carriesFiles(event: DragEvent): boolean {
  return !!event.dataTransfer && [...event.dataTransfer.types].includes('Files');
}

/** A drop target's four drag handlers. */
export interface DragHandlers {
  dragenter: (event: DragEvent) => void;
  dragover: (event: DragEvent) => void;
  dragleave: (event: DragEvent) => void;
  drop: (event: DragEvent) => void;
}

/** Listens for the drags on `target` (the element, or the window) while the element is connected. */
export class DragListeners implements ReactiveController {
  constructor(
    host: ReactiveControllerHost,
    private readonly target: () => EventTarget,
    private readonly handlers: DragHandlers,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    for (const [type, handler] of Object.entries(this.handlers)) this.target().addEventListener(type, handler as EventListener);
  }

  hostDisconnected(): void {
    for (const [type, handler] of Object.entries(this.handlers)) this.target().removeEventListener(type, handler as EventListener);
  }
}
