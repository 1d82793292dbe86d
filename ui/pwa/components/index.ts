/** The PWA chrome the app shell places: `<pwa-status>`, `<pwa-install-button>`, `<pwa-update-prompt>`. */
export { PwaStatus } from './pwa-status.ts';
export { PwaInstallButton } from './pwa-install-button.ts';
export { PwaUpdatePrompt } from './pwa-update-prompt.ts';
