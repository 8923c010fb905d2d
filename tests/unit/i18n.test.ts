import { describe, expect, it } from 'vitest';
import englishMessages from 'ra-language-english';
import { zhCNMessages } from '../../src/i18n/zhCN';

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

function valueAt(messages: object, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], messages);
}

describe('zh-CN messages', () => {
  it('translate every key of ra-language-english', () => {
    const missing = keys(englishMessages).filter((key) => typeof valueAt(zhCNMessages, key) !== 'string');
    expect(missing).toEqual([]);
  });

  // A Chinese text may leave a placeholder out ('暂无数据'), never invent one polyglot cannot fill.
  it('are Chinese, and use only the placeholders of the English text', () => {
    for (const key of keys(englishMessages)) {
      const english = valueAt(englishMessages, key) as string;
      const chinese = valueAt(zhCNMessages, key) as string;
      const placeholders = (text: string) => new Set(text.match(/%\{\w+\}/g) ?? []);
      const allowed = placeholders(english);
      expect([...placeholders(chinese)].filter((p) => !allowed.has(p)), key).toEqual([]);
      if (/[a-z]{3}/i.test(english.replace(/%\{\w+\}/g, ''))) expect(chinese, key).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
});
