// Product names shown in the header, the sign-in app and the browser tab (SPEC §1).
export const PRODUCT_TITLE = '学助 · AI 教学助手';
export const PRODUCT_SUBTITLE = 'AI Teaching Assistant · Homework Big Data';

/** SPEC §1: the tab title is the product title, a hyphen and the page name. */
export function pageTitle(page: string): string {
  return `AI教学助手-${page}`;
}
