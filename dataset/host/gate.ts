/** A promise the requests for one dataset wait on, opened by the load (once the dataset answers or failed). */
export class Gate {
  promise!: Promise<void>;
  open!: () => void;
  constructor() {
    this.reset();
  }
  reset(): void {
    this.promise = new Promise((resolve) => (this.open = resolve));
  }
}
