import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The controls a table's keyboard user moves between: its buttons, links and inputs. */
const CONTROLS = 'button, a[href], input, select';

/**
 * One tab stop for a table full of controls (sort buttons, one per row's name): Tab enters the table at the
 * control last used and leaves it with the next Tab; the arrow keys move between the controls (up and down a
 * column, left and right along a row), Home/End to a row's ends, Ctrl+Home/End to the first and last rows,
 * Page Up/Down ten rows. Without it a roll-up of 170 owners took 170 Tabs to cross.
 *
 * The host calls `sync(table)` after each render, and routes the table's keydown to `keydown`.
 */
export class RovingTable implements ReactiveController {
  /** Where the tab stop is: a row and a control within it (preserved across renders, clamped to what is drawn). */
  private at = { row: 0, col: 0 };

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {}

  private grid(table: HTMLTableElement): HTMLElement[][] {
    return [...table.rows].map((tr) => [...tr.querySelectorAll<HTMLElement>(CONTROLS)]).filter((controls) => controls.length > 0);
  }

  /** Gives the one tab stop to the current control (or the nearest that still exists), -1 to the others. */
  sync(table: HTMLTableElement | null | undefined): void {
    if (!table) return;
    const grid = this.grid(table);
    if (!grid.length) return;
    this.at.row = Math.min(this.at.row, grid.length - 1);
    this.at.col = Math.min(this.at.col, grid[this.at.row].length - 1);
    grid.forEach((controls, r) => controls.forEach((el, c) => (el.tabIndex = r === this.at.row && c === this.at.col ? 0 : -1)));
  }

  readonly keydown = (event: KeyboardEvent): void => {
    const table = (event.currentTarget as HTMLElement).querySelector('table') ?? (event.currentTarget as HTMLTableElement);
    if (!(table instanceof HTMLTableElement)) return;
    const grid = this.grid(table);
    const target = event.target as HTMLElement;
    const row = grid.findIndex((controls) => controls.includes(target));
    if (row === -1 || target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    const col = grid[row].indexOf(target);
    let next: { row: number; col: number } | null = null;
    const last = grid.length - 1;
    switch (event.key) {
      case 'ArrowDown':
        next = { row: Math.min(last, row + 1), col };
        break;
      case 'ArrowUp':
        next = { row: Math.max(0, row - 1), col };
        break;
      case 'ArrowRight':
        next = { row, col: Math.min(grid[row].length - 1, col + 1) };
        break;
      case 'ArrowLeft':
        next = { row, col: Math.max(0, col - 1) };
        break;
      case 'PageDown':
        next = { row: Math.min(last, row + 10), col };
        break;
      case 'PageUp':
        next = { row: Math.max(0, row - 10), col };
        break;
      case 'Home':
        next = event.ctrlKey ? { row: 0, col: 0 } : { row, col: 0 };
        break;
      case 'End':
        next = event.ctrlKey ? { row: last, col: grid[last].length - 1 } : { row, col: grid[row].length - 1 };
        break;
      default:
        return;
    }
    event.preventDefault();
    next.col = Math.min(next.col, grid[next.row].length - 1);
    this.at = next;
    this.sync(table);
    grid[next.row][next.col].focus();
  };

  /** A control clicked or focused by other means becomes the tab stop. */
  readonly focusin = (event: FocusEvent): void => {
    const table = (event.currentTarget as HTMLElement).querySelector('table');
    if (!table) return;
    const grid = this.grid(table);
    const row = grid.findIndex((controls) => controls.includes(event.target as HTMLElement));
    if (row === -1) return;
    this.at = { row, col: grid[row].indexOf(event.target as HTMLElement) };
    this.sync(table);
  };
}
