/** Chromium's install offer; not in TypeScript's DOM library. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

/**
 * Keeps the browser's install offer until the user presses the install button (the browser only shows
 * its dialog in answer to a user gesture).
 */
export class InstallPrompt {
  private deferred: BeforeInstallPromptEvent | null = null;

  constructor(private readonly onChange: (available: boolean) => void) {
    window.addEventListener('beforeinstallprompt', (event) => {
      event.preventDefault();
      this.deferred = event as BeforeInstallPromptEvent;
      this.onChange(true);
    });
    window.addEventListener('appinstalled', () => {
      this.deferred = null;
      this.onChange(false);
    });
  }

  async prompt(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
    const event = this.deferred;
    if (!event) return 'unavailable';
    this.deferred = null;
    this.onChange(false);
    await event.prompt();
    return (await event.userChoice).outcome;
  }
}
