import { cldrFor, resolveZone, zoneAt } from '../formatters/util/cldr.ts';

/**
 * Loads the locale data pages format with before the server takes its first request, as the
 * port loads its CLDR bundle when it starts. Otherwise the first page with a date, money or
 * a number pays for reading and parsing the locale's resource pack (60–90 ms) inside its
 * render (bench/COLD-START-RESULTS.md, "First render"). Pages render in the engine's default
 * locale, en-US, and dates in the site's time zone (whose transition table is read on first
 * use too). bench/cold-render-job.ts calls this too, so its Quire "load" is the server's.
 */
export function preloadLocaleData(locale = 'en-US', timeZone = 'UTC'): void {
  const cldr = cldrFor(locale);
  if (!cldr) return;
  // The bundle builds its calendar and number engines, and the locale's pattern tables with
  // them (date skeleton matcher, calendar and currency patterns), on first use: another
  // 20–50 ms of a first render with dates or money. One format of each builds them.
  const zoneId = resolveZone(timeZone);
  zoneAt(zoneId, 0);
  const date = cldr.Calendars.toGregorianDate({ date: 0, zoneId });
  cldr.Calendars.formatDate(date, { datetime: 'medium' });
  cldr.Calendars.formatDate(date, { skeleton: 'yMMMd' });
  cldr.Numbers.formatCurrency('1.5', 'USD');
  cldr.Numbers.formatDecimal('1.5');
}
