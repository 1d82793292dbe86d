/** A promise the requests for one dataset wait on, opened by the load (once the dataset answers or failed). */
export class Gate {
  promise!: Promise<void>;
  open!: () => void;
  /** False from a reset until `open` is called. */
  isOpen = false;
  constructor() {
    this.reset();
  }
  reset(): void {
    this.isOpen = false;
    this.promise = new Promise((resolve) => {
      this.open = () => {
        this.isOpen = true;
        resolve();
      };
    });
  }
}
