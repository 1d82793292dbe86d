/** Whether a drag carries files (not text or a link): only then does a drop target light up. */
export function carriesFiles(event: DragEvent): boolean {
  return !!event.dataTransfer && [...event.dataTransfer.types].includes('Files');
}
