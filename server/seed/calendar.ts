// The school calendar the demo's homework and exams follow: China's public holidays and the
// weekend days made working days in their place (调休), as the State Council announced them for
// 2025 and 2026. 2027 is not announced yet: its dates below are the holidays' usual days by the
// lunar calendar, without 调休, until the notice is out. Days are China dates (YYYY-MM-DD).

/** [first, last] day of each public holiday break. */
const HOLIDAY_BREAKS: [string, string, string][] = [
  ['元旦', '2025-01-01', '2025-01-01'],
  ['春节', '2025-01-28', '2025-02-04'],
  ['清明节', '2025-04-04', '2025-04-06'],
  ['劳动节', '2025-05-01', '2025-05-05'],
  ['端午节', '2025-05-31', '2025-06-02'],
  ['国庆节、中秋节', '2025-10-01', '2025-10-08'],
  ['元旦', '2026-01-01', '2026-01-03'],
  ['春节', '2026-02-15', '2026-02-23'],
  ['清明节', '2026-04-04', '2026-04-06'],
  ['劳动节', '2026-05-01', '2026-05-05'],
  ['端午节', '2026-06-19', '2026-06-21'],
  ['中秋节', '2026-09-25', '2026-09-27'],
  ['国庆节', '2026-10-01', '2026-10-07'],
  ['元旦', '2027-01-01', '2027-01-03'],
  ['春节', '2027-02-05', '2027-02-11'],
  ['清明节', '2027-04-03', '2027-04-05'],
  ['劳动节', '2027-05-01', '2027-05-05'],
  ['端午节', '2027-06-09', '2027-06-09'],
  ['中秋节', '2027-09-15', '2027-09-15'],
  ['国庆节', '2027-10-01', '2027-10-07'],
];

/** Saturdays and Sundays that are school days because of a holiday's 调休. */
const MAKEUP_WORKDAYS = new Set(['2025-01-26', '2025-02-08', '2025-04-27', '2025-09-28', '2025-10-11', '2026-01-04', '2026-02-14', '2026-02-28', '2026-05-09', '2026-09-20', '2026-10-10']);

const DAY = 24 * 3600 * 1000;

function* days(first: string, last: string): Generator<string> {
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += DAY) yield new Date(t).toISOString().slice(0, 10);
}

/** Every public-holiday day, with the holiday's name. */
export const PUBLIC_HOLIDAYS: ReadonlyMap<string, string> = new Map(HOLIDAY_BREAKS.flatMap(([name, first, last]) => [...days(first, last)].map((d) => [d, name] as [string, string])));

/** The China date of an instant. */
export const chinaDate = (at: Date | number) => new Date(new Date(at).getTime() + 8 * 3600 * 1000).toISOString().slice(0, 10);

/** Whether students are in school on a China date: a weekday or a 调休 Saturday/Sunday, and no holiday. */
export function isSchoolDay(day: string): boolean {
  if (PUBLIC_HOLIDAYS.has(day)) return false;
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return (weekday !== 0 && weekday !== 6) || MAKEUP_WORKDAYS.has(day);
}
