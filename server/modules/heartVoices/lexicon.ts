// The risk lexicon: crisis signals in what students write (self-harm, suicidal thoughts, bullying,
// abuse, running away), with the variants students use (pinyin, letters for characters,
// homophones such as 紫砂 for 自杀, spaces or symbols between characters). The machine only
// suggests a level; the psychology teacher confirms it. Maintained here, tested in
// tests/unit/heart-lexicon.test.ts: add a case there with every change.
//
// Guards remove everyday hyperbole before matching (笑死, 累死了, 死记硬背, 打篮球, 想死你了…).
// Negation is guarded only where the phrase plainly means the opposite (不想死): "我不会自杀的"
// is still flagged, because students in crisis often write denials, and a false alarm costs a
// teacher a minute while a missed one may cost a child.
import { RiskLevel, type RiskType } from '../../../src/domain/heartVoices';

interface Rule {
  type: RiskType;
  level: number;
  pattern: RegExp;
}

const HIGH = RiskLevel.high;
const ATTENTION = RiskLevel.attention;

/** Everyday phrases that contain a signal's characters but not its meaning. Removed before matching. */
const GUARDS: readonly RegExp[] = [
  // Hyperbole with 死: 笑死, 累死了, 热死了, 吓死我了, 气死人, 羡慕死…
  /(笑|累|热|冷|饿|困|渴|吓|急|烦|气|忙|闷|无聊|尴尬|丑|美|帅|开心|高兴|羡慕|嫉妒|撑|疼|痛|晒|冻|馋|难吃|好吃|可爱|麻烦)死(了|我了|人了|啦|我啦|人|我)?/g,
  /想死(你|你们|他|她|它|咱)/g, // 想死你了: "I miss you so much"
  /不想死/g,
  /死(记硬背|党|磕|机|活|角|胡同|心眼|对头|板|脑筋|缠烂打|定了)/g,
  /(要死不活|半死不活|拼死|打死也不|打死我也不|死也不会忘|笑得要死)/g,
  /跳楼(价|大甩卖|甩卖)/g,
  // 打 as in sports, games and chores, and 被打 as in "interrupted", "beaten in a match"
  /打(篮球|排球|羽毛球|乒乓球|网球|球|游戏|扫|印|卡|针|电话|工|字|折|算|开|招呼|雷|喷嚏|哈欠|架子鼓|鼓)/g,
  /被打(扰|断|败|动|开|印|分|击|乱|湿|卡|折|上|了个措手不及)/g,
  /(打打闹闹|闹着玩|开玩笑)/g,
  /欺负(弟弟|妹妹|小狗|小猫|猫|狗)/g,
];

/** Signals, on the normalized text (lower case, no spaces or punctuation, full-width folded). */
const RULES: readonly Rule[] = [
  // Suicidal thoughts
  { type: 'suicide', level: HIGH, pattern: /不想活|活不下去|不想再活|活着(真|好|太|都)?(没|没有)(意思|意义|用)|活着干嘛|活着有什么意思/ },
  { type: 'suicide', level: HIGH, pattern: /想(要)?死|想s(?![a-z])|想si(?![a-z])|想去死|去死算了|死了算了|死了就好了|不如死了|死掉就好|一了百了/ },
  { type: 'suicide', level: HIGH, pattern: /自杀|自s(?![a-z])|zisha|紫砂|自鲨|轻生|寻死|结束(自己的)?生命|了结自己|遗书|告别信|不想醒来|永远睡过去/ },
  { type: 'suicide', level: HIGH, pattern: /跳楼|跳河|跳江|跳下去|上吊|吃(很多|一瓶|好多)?安眠药|从楼上/ },
  { type: 'suicide', level: ATTENTION, pattern: /想消失|消失就好了|没有我(会|就)更好|活着好累|生无可恋|没人在乎我/ },
  // Self-harm
  { type: 'selfHarm', level: HIGH, pattern: /割腕|割手|划(手|手臂|胳膊)|自残|自伤|伤害自己|拿刀(划|割)|(用)?刀片(划|割)|掐自己|烫自己/ },
  // Bullying
  { type: 'bullying', level: HIGH, pattern: /被(人|他们|同学|几个人)?(欺负|霸凌|欺凌)|霸凌|欺凌|被(人|他们|同学|几个人)?打|(他们|同学|几个人|男生|女生)(打|踢)我|堵我|(找|向|逼)我(要|给)钱|收保护费|勒索/ },
  { type: 'bullying', level: ATTENTION, pattern: /被孤立|孤立我|没人跟我玩|给我起外号|嘲笑我|欺负我/ },
  // Abuse at home or elsewhere
  { type: 'abuse', level: HIGH, pattern: /家暴|虐待|(爸|妈|爸爸|妈妈|爸妈|父亲|母亲|继父|继母|后妈|后爸)[^|]{0,6}?(打|揍|抽)我|用(皮带|衣架|棍子)(打|抽)|性侵|猥亵|摸我(的)?(身体|胸|下面|屁股|大腿)|乱摸我|偷偷摸我|不让我告诉别人/ },
  // Running away
  { type: 'runaway', level: HIGH, pattern: /离家出走|想离开这个家|逃离这个家|再也不回家|跑出去不回来/ },
  { type: 'runaway', level: ATTENTION, pattern: /不想回家/ },
  // Distress below crisis: worth a look, not an alarm
  { type: 'distress', level: ATTENTION, pattern: /好孤独|很孤独|好绝望|很绝望|崩溃|失眠|整夜睡不着|天天哭|一直哭|压力好大|压力太大|喘不过气/ },
];

export interface Screening {
  /** The suggested level: 高危 for a crisis signal, 关注 for distress, else 一般. */
  level: number;
  /** The kinds of signal found, highest first; empty when none. */
  types: RiskType[];
}

/** Lower case, full-width folded, tone marks dropped, spaces and punctuation removed (自 杀, 自-杀). */
export function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]/gu, '');
}

/** Screens a message on arrival. */
export function screen(text: string): Screening {
  let t = normalize(text);
  for (const guard of GUARDS) t = t.replace(guard, '|');
  const found = RULES.filter((r) => r.pattern.test(t)).sort((a, b) => b.level - a.level);
  const types = [...new Set(found.map((r) => r.type))];
  return { level: found[0]?.level ?? RiskLevel.normal, types };
}
