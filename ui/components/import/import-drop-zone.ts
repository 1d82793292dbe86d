import { LitElement, html, css, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import { baseStyles } from '../common/styles.ts';
import { importController } from './import-controller.ts';
import './import-status.ts';
import { carriesFiles, DragListeners } from '../common/drag-files.ts';

/**
 * Lets a file be dropped anywhere on the app: a full-window drop zone appears while a file is dragged
 * over the page; the import's progress and report show in a card at the bottom of the window.
 */
@customElement('import-drop-zone')
export class ImportDropZone extends LitElement {
  static override styles = [
    baseStyles,
    css`
      .zone {
        position: fixed;
        inset: 0;
        z-index: 200;
        display: grid;
        place-items: center;
        background: rgb(0 94 162 / 0.14);
        border: 4px dashed var(--accent);
        pointer-events: none;
      }
      .zone p {
        background: var(--surface);
        padding: 1rem 1.5rem;
        border-radius: 10px;
        font-size: 1.15rem;
        font-weight: 600;
        box-shadow: 0 6px 24px rgb(0 0 0 / 0.18);
      }
      .dock {
        position: fixed;
        right: 1rem;
        bottom: 1rem;
        z-index: 150;
        width: min(34rem, calc(100vw - 2rem));
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @state() private dragging = false;
  /** dragenter/dragleave fire for every element crossed: count them to know when the file left the window. */
  private depth = 0;

  private readonly onEnter = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    this.depth++;
    this.dragging = true;
  };
  private readonly onOver = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer!.dropEffect = 'copy';
  };
  private readonly onLeave = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    this.depth = Math.max(0, this.depth - 1);
    if (this.depth === 0) this.dragging = false;
  };
  private readonly onDrop = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    // Without this the browser would open the file in the tab, leaving the app.
    event.preventDefault();
    this.depth = 0;
    this.dragging = false;
    const file = event.dataTransfer?.files[0];
    if (file) void importController.start(this.db, file);
  };

  private readonly drags = new DragListeners(this, () => window, {
    dragenter: this.onEnter,
    dragover: this.onOver,
    dragleave: this.onLeave,
    drop: this.onDrop,
  });

  override render() {
    return html`${
      this.dragging ? html`<div class="zone" data-drop-zone><p>Drop the file to import it (Site Scanning or ceiling-rate CSV / JSON)</p></div>` : nothing
    }
      <div class="dock"><import-status></import-status></div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'import-drop-zone': ImportDropZone;
  }
}
