/**
 * Hand-written scan vocabulary for the websites generator: the real samples carry owners and domains but
 * not these fields. Values follow the Site Scanning data dictionary and the public design system's
 * component class names; weights are rough shares seen in public snapshots.
 */

/** scan_status of failed scans with relative weights (about 11,000 of 29,600 real records fail). */
export const FAILED_STATUSES: readonly (readonly [string, number])[] = [
  ['dns_resolution_error', 3200],
  ['timeout', 1900],
  ['connection_refused', 1200],
  ['invalid_ssl_cert', 1100],
  ['address_unreachable', 900],
  ['connection_reset', 600],
  ['ssl_protocol_error', 400],
  ['too_many_redirects', 250],
  ['empty_response', 200],
  ['http2_error', 180],
  ['invalid_response', 150],
  ['connection_closed', 140],
  ['unknown_error', 120],
  ['invalid_auth_credentials', 110],
  ['ssl_version_cipher_mismatch', 90],
  ['execution_context_destroyed', 80],
  ['page_frame_not_ready', 60],
  ['evaluation_failed', 50],
  ['aborted', 40],
  ['not_applicable', 20],
  ['skipped', 10],
];

export const LIVE_STATUS_CODES: readonly (readonly [number, number])[] = [[200, 97], [203, 1], [206, 1], [204, 1]];
export const DEAD_STATUS_CODES: readonly (readonly [number, number])[] = [
  [404, 30], [403, 30], [500, 8], [503, 8], [401, 10], [502, 5], [400, 4], [410, 2], [429, 1], [504, 2],
];

export const MIME_TYPES: readonly (readonly [string, number])[] = [
  ['text/html', 930], ['application/pdf', 15], ['application/json', 12], ['text/plain', 15],
  ['application/xml', 8], ['application/octet-stream', 6], ['image/png', 2], ['text/xml', 4], ['application/xhtml+xml', 8],
];

/** Design-system class names (`usa-` prefix), most common first; pages draw a zipf-weighted subset. */
export const USA_CLASSES: readonly string[] = [
  'usa-banner', 'usa-banner__header', 'usa-banner__inner', 'usa-banner__button', 'usa-banner__content',
  'usa-banner__guidance', 'usa-banner__icon', 'usa-banner__header-text', 'usa-banner__header-action',
  'usa-banner__button-text', 'usa-banner__lock-image', 'usa-banner__header-flag', 'usa-media-block__img',
  'usa-media-block__body', 'usa-accordion', 'usa-button', 'usa-nav', 'usa-nav__primary', 'usa-nav__primary-item',
  'usa-nav__link', 'usa-nav__close', 'usa-nav__submenu', 'usa-nav__submenu-item', 'usa-header', 'usa-header--extended',
  'usa-logo', 'usa-logo__text', 'usa-menu-btn', 'usa-navbar', 'usa-overlay', 'usa-footer', 'usa-footer__primary-section',
  'usa-footer__secondary-section', 'usa-footer__return-to-top', 'usa-footer__logo', 'usa-footer__contact-links',
  'usa-identifier', 'usa-identifier__section', 'usa-identifier__container', 'usa-identifier__logo',
  'usa-identifier__required-links-list', 'usa-identifier__required-link', 'usa-link', 'usa-list', 'usa-list--unstyled',
  'usa-search', 'usa-search--small', 'usa-search__submit-icon', 'usa-input', 'usa-label', 'usa-form', 'usa-skipnav',
  'usa-sr-only', 'usa-section', 'usa-grid', 'usa-width-one-half', 'usa-layout-docs', 'usa-sidenav', 'usa-sidenav__item',
  'usa-sidenav__sublist', 'usa-current', 'usa-card', 'usa-card__container', 'usa-card__header', 'usa-card__body',
  'usa-card__footer', 'usa-card__media', 'usa-card__img', 'usa-card-group', 'usa-hero', 'usa-hero__callout',
  'usa-hero__heading', 'usa-prose', 'usa-alert', 'usa-alert--info', 'usa-alert--warning', 'usa-alert__body',
  'usa-alert__heading', 'usa-alert__text', 'usa-site-alert', 'usa-breadcrumb', 'usa-breadcrumb__list',
  'usa-breadcrumb__list-item', 'usa-breadcrumb__link', 'usa-button--outline', 'usa-button--secondary',
  'usa-button--unstyled', 'usa-button--big', 'usa-button-group', 'usa-graphic-list', 'usa-media-block',
  'usa-table', 'usa-table--borderless', 'usa-tag', 'usa-social-link', 'usa-pagination', 'usa-pagination__list',
  'usa-pagination__item', 'usa-pagination__button', 'usa-in-page-nav', 'usa-summary-box', 'usa-summary-box__body',
  'usa-collection', 'usa-collection__item', 'usa-collection__heading', 'usa-select', 'usa-checkbox', 'usa-radio',
  'usa-fieldset', 'usa-legend', 'usa-hint', 'usa-textarea', 'usa-modal', 'usa-tooltip', 'usa-step-indicator',
  'usa-process-list', 'usa-icon', 'usa-icon-list', 'usa-embed-container', 'usa-language', 'usa-date-picker',
];

/** Custom elements from the scanner's allow-list. */
export const USA_ELEMENTS: readonly string[] = [
  'usa-banner', 'usa-identifier', 'usa-footer', 'usa-header', 'usa-in-page-nav', 'usa-link', 'usa-search',
];

export const DS_VERSIONS: readonly (readonly [string, number])[] = [
  ['3.8.1', 12], ['3.7.1', 10], ['3.6.0', 6], ['3.5.0', 5], ['3.4.1', 4], ['3.1.0', 3], ['3.0.0', 2],
  ['2.13.3', 8], ['2.12.0', 4], ['2.10.3', 3], ['2.8.1', 2], ['1.6.13', 2], ['1.4.6', 1],
];

export const CMS: readonly (readonly [string, number])[] = [
  ['Drupal', 30], ['WordPress', 22], ['Sharepoint', 6], ['Adobe', 5], ['DNN', 2], ['Joomla', 1],
  ['Percussion', 2], ['Silverstripe', 1], ['Cloud.gov', 3],
];

/** Third-party service domains, most common first. */
export const THIRD_PARTY_DOMAINS: readonly string[] = [
  'www.googletagmanager.com', 'www.google-analytics.com', 'dap.digitalgov.gov', 'fonts.googleapis.com',
  'fonts.gstatic.com', 'ajax.googleapis.com', 'cdn.jsdelivr.net', 'code.jquery.com', 'cdnjs.cloudflare.com',
  'www.youtube.com', 'script.crazyegg.com', 'siteimproveanalytics.com', 'use.fontawesome.com', 'maxcdn.bootstrapcdn.com',
  'stats.g.doubleclick.net', 'platform.twitter.com', 'connect.facebook.net', 'search.usa.gov', 'api.mapbox.com',
  'unpkg.com', 'www.gstatic.com', 'www.google.com', 'js.arcgis.com', 'translate.google.com', 'kit.fontawesome.com',
  'touchpoints.app.cloud.gov', 'www.recaptcha.net', 'player.vimeo.com', 'static.addtoany.com', 'assets.adobedtm.com',
  'cdn.datatables.net', 'polyfill.io', 'www.qualtrics.com', 'siteintercept.qualtrics.com', 'content.govdelivery.com',
];

/** Words for og titles and descriptions. */
export const TITLE_WORDS: readonly string[] = [
  'Home', 'Office', 'Program', 'Services', 'Data', 'Research', 'Public', 'Health', 'Safety', 'Energy', 'National',
  'Information', 'Resources', 'Science', 'Center', 'Portal', 'Grants', 'Policy', 'Reports', 'Training', 'Support',
];
