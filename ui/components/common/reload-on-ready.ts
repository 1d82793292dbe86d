/**
 * Asks a view's data again when the DB worker says a dataset is ready: the first load finished after the view
 * opened, a failed dataset was loaded again, another tab switched the active one. One controller, so that every view
 * subscribes and unsubscribes with its element's life the same way.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { DbClient, LoadProgress } from '../../api/db-client.ts';
import type { DatasetName } from '../../../engine/http/types.ts';
import { DATASETS_CHANGED } from '../import/import-controller.ts';

export interface ReloadOnReadyOptions {
  /** Which reports ask again; default: any dataset's `ready`. */
  when?: (progress: LoadProgress) => boolean;
  /** Also when this window changed the datasets (an import, a choice, a deletion: `DATASETS_CHANGED`). */
  onDatasetsChanged?: boolean;
}

/** Reports of one dataset becoming ready. */
export const readyOf =
  (dataset: DatasetName) =>
  (progress: LoadProgress): boolean =>
    progress.dataset === dataset && progress.phase === 'ready';

export class ReloadOnReady implements ReactiveController {
  private unsubscribe: (() => void) | null = null;
  private readonly when: (progress: LoadProgress) => boolean;
  private readonly onDatasetsChanged: boolean;

  /** `db` is read when the host connects: a consumed context is not there yet when the element is made. */
  constructor(
    host: ReactiveControllerHost,
    private readonly db: () => DbClient,
    private readonly reload: () => void,
    { when = (p) => p.phase === 'ready', onDatasetsChanged = false }: ReloadOnReadyOptions = {},
  ) {
    this.when = when;
    this.onDatasetsChanged = onDatasetsChanged;
    host.addController(this);
  }

  private readonly changed = (): void => this.reload();

  hostConnected(): void {
    this.unsubscribe = this.db().onProgress((p) => {
      if (this.when(p)) this.reload();
    });
    if (this.onDatasetsChanged) window.addEventListener(DATASETS_CHANGED, this.changed);
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.onDatasetsChanged) window.removeEventListener(DATASETS_CHANGED, this.changed);
  }
}
