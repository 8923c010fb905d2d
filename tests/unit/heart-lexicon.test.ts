// The risk lexicon (server/modules/heartVoices/lexicon.ts): what it must flag, with the variants
// students write, and the everyday phrases it must leave alone.
import { describe, expect, it } from 'vitest';
import { screen } from '../../server/modules/heartVoices/lexicon';
import { RiskLevel } from '../../src/domain/heartVoices';

const HIGH: [string, string][] = [
  ['我真的不想活了', 'suicide'],
  ['有时候觉得活着没意思', 'suicide'],
  ['活着真没有意义', 'suicide'],
  ['好想死', 'suicide'],
  ['我想s', 'suicide'],
  ['真的想 死', 'suicide'],
  ['考砸了，想si', 'suicide'],
  ['想过轻生', 'suicide'],
  ['我想自杀', 'suicide'],
  ['想 zisha', 'suicide'],
  ['ZìShā 算了', 'suicide'],
  ['想紫砂', 'suicide'],
  ['自-杀', 'suicide'],
  ['我不会自杀的，别担心', 'suicide'],
  ['站在天台想跳楼', 'suicide'],
  ['死了算了', 'suicide'],
  ['昨天晚上又割腕了', 'selfHarm'],
  ['用刀片划手臂会好受一点', 'selfHarm'],
  ['我总是忍不住伤害自己', 'selfHarm'],
  ['在厕所被他们打了', 'bullying'],
  ['天天被欺负，不敢说', 'bullying'],
  ['班上有人霸凌我', 'bullying'],
  ['放学他们堵我要钱', 'bullying'],
  ['那几个男生总在车棚堵我，逼我给钱', 'bullying'],
  ['爸爸喝醉了又打我', 'abuse'],
  ['妈妈用衣架抽我', 'abuse'],
  ['他摸我还不让我告诉别人', 'abuse'],
  ['补课的叔叔偷偷摸我', 'abuse'],
  ['我想离家出走', 'runaway'],
  ['周末想逃离这个家', 'runaway'],
];

const ATTENTION: string[] = ['最近整夜睡不着', '在班上被孤立了', '不想回家', '压力太大了，喘不过气', '有时候想消失'];

const NORMAL: string[] = [
  '今天物理课笑死我了',
  '跑完八百米累死了',
  '教室里热死了，空调坏了',
  '古诗只能死记硬背吗',
  '放学去打篮球，赢了！',
  '晚上打游戏被妈妈发现了',
  '写作业老是被打扰',
  '昨天比赛被打败了，下次再来',
  '好久不见，想死你了',
  '我不想死记硬背单词',
  '商场跳楼价大甩卖',
  '我的死党转学了，有点舍不得',
  '电脑又死机了',
  '弟弟老欺负小猫',
  '我家小狗今天会握手了',
  '数学考了98分，开心',
  '老师摸了摸我的头，说我进步了',
];

describe('heart voice risk lexicon', () => {
  it.each(HIGH)('flags %s as 高危 (%s)', (text, type) => {
    const result = screen(text);
    expect(result.level).toBe(RiskLevel.high);
    expect(result.types).toContain(type);
  });

  it.each(ATTENTION)('suggests 关注 for %s', (text) => {
    expect(screen(text).level).toBe(RiskLevel.attention);
  });

  it.each(NORMAL)('leaves %s alone', (text) => {
    expect(screen(text)).toEqual({ level: RiskLevel.normal, types: [] });
  });

  it('keeps a crisis signal next to a guarded phrase', () => {
    expect(screen('笑死，其实我真的想死').level).toBe(RiskLevel.high);
    expect(screen('累死了，活着没意思').level).toBe(RiskLevel.high);
  });
});
