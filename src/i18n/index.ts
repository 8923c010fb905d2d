// zh-CN is the only UI language; English stays underneath so a key react-admin adds in a minor
// release shows English text instead of a raw key until zhCN.ts catches up.
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { mergeTranslations } from 'ra-core';
import { zhCNMessages } from './zhCN';

export const messages = mergeTranslations(englishMessages, zhCNMessages);

export const i18nProvider = polyglotI18nProvider(() => messages, 'zh-CN', [{ locale: 'zh-CN', name: '简体中文' }], {
  allowMissing: true,
});
