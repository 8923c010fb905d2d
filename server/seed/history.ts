// 历史 exercise books for grades 7–9 (中国古代史, 中国近现代史, 世界史), written for the demo from
// a table of events and years; each section practises two events in six forms.
import { blank, judge, single, type BookSpec, type Maker, type SectionSpec } from './draft';

/** [event, year as printed]. */
type Event = [string, string];

const ANCIENT: Event[] = [
  ['西周建立', '约公元前1046年'],
  ['商鞅变法开始', '公元前356年'],
  ['秦统一六国', '公元前221年'],
  ['陈胜、吴广起义', '公元前209年'],
  ['张骞第一次出使西域', '公元前138年'],
  ['东汉建立', '公元25年'],
  ['赤壁之战', '公元208年'],
  ['淝水之战', '公元383年'],
  ['北魏孝文帝迁都洛阳', '公元494年'],
  ['隋朝建立', '公元581年'],
  ['唐朝建立', '公元618年'],
  ['北宋建立', '公元960年'],
  ['元朝建立', '公元1271年'],
  ['明朝建立', '公元1368年'],
  ['郑和第一次下西洋', '公元1405年'],
  ['郑成功收复台湾', '公元1662年'],
];
const MODERN: Event[] = [
  ['鸦片战争爆发', '1840年'],
  ['《南京条约》签订', '1842年'],
  ['金田起义', '1851年'],
  ['第二次鸦片战争爆发', '1856年'],
  ['甲午中日战争爆发', '1894年'],
  ['《马关条约》签订', '1895年'],
  ['戊戌变法', '1898年'],
  ['《辛丑条约》签订', '1901年'],
  ['武昌起义', '1911年'],
  ['中华民国成立', '1912年'],
  ['五四运动爆发', '1919年'],
  ['中国共产党成立', '1921年'],
  ['南昌起义', '1927年'],
  ['遵义会议召开', '1935年'],
  ['全面抗日战争爆发', '1937年'],
  ['中华人民共和国成立', '1949年'],
];
const WORLD: Event[] = [
  ['哥伦布到达美洲', '1492年'],
  ['英国资产阶级革命开始', '1640年'],
  ['美国《独立宣言》发表', '1776年'],
  ['法国大革命爆发', '1789年'],
  ['《共产党宣言》发表', '1848年'],
  ['美国南北战争爆发', '1861年'],
  ['日本明治维新开始', '1868年'],
  ['第一次世界大战爆发', '1914年'],
  ['俄国十月革命', '1917年'],
  ['巴黎和会召开', '1919年'],
  ['第二次世界大战全面爆发', '1939年'],
  ['日本偷袭珍珠港', '1941年'],
  ['联合国成立', '1945年'],
  ['第一颗人造地球卫星由苏联发射', '1957年'],
  ['苏联解体', '1991年'],
  ['欧洲联盟正式成立', '1993年'],
];

/** Two events, six forms each: 12 distinct questions a section. */
function eventsSection(title: string, point: string, pair: Event[], all: Event[]): SectionSpec {
  const years = all.map(([, y]) => y);
  // Form i mod 6 of event ⌊i / 6⌋ mod 2: a page asks one event six ways, then the other.
  const make: Maker = (rng, i) => {
    const [event, year] = pair[Math.floor(i / 6) % 2];
    const [otherEvent, otherYear] = pair[(Math.floor(i / 6) + 1) % 2];
    const near = all.filter(([e]) => e !== event);
    switch (i % 6) {
      case 0:
        return single(rng, `${event}是在（　　）`, year, years.filter((y) => y !== year).slice(0, 8).sort((a, b) => (a + event).localeCompare(b + event)), `${event}发生在${year}，记忆时可与同一时期的${otherEvent}（${otherYear}）对照。`, 2, 2);
      case 1:
        return judge(`${event}发生在${year}。`, true, `${event}发生在${year}。`, 1);
      case 2:
        return blank(`填写时间：${event}——______`, year, `${event}发生在${year}。`, 3, 2, [otherYear]);
      case 3:
        return single(rng, `下列历史事件中，发生在${year}的是（　　）`, event, near.map(([e]) => e).sort((a, b) => (a + year).localeCompare(b + year)), `${year}发生的是${event}。`, 3, 2);
      case 4:
        return judge(`${otherYear}，${event}。`, false, `${otherYear}发生的是${otherEvent}；${event}发生在${year}。`, 3);
      default: {
        const later = yearValue(year) > yearValue(otherYear);
        // Each event is claimed to be the later one: true for one of the pair, false for the other.
        const claimLater = true;
        return judge(`按时间先后，${otherEvent}在前，${event}在后。`, claimLater === later, `${event}在${year}，${otherEvent}在${otherYear}，所以${event}发生得${later ? '晚' : '早'}。`, 4);
      }
    }
  };
  return { title, point, make };
}

/** Years as numbers (公元前 negative), to compare two events. */
function yearValue(text: string): number {
  const n = Number(/\d+/.exec(text)![0]);
  return text.includes('公元前') ? -n : n;
}

function book(gradeLevel: number, title: string, events: Event[], chapters: [string, string, [string, string][]][]): BookSpec {
  let k = 0;
  return {
    subject: '历史',
    gradeLevel,
    title,
    edition: '学助原创',
    chapters: chapters.map(([chapter, point, sections], c) => ({
      title: chapter,
      point,
      sections: sections.map(([section, leaf], s) => {
        const pair = events.slice(k, k + 2);
        k += 2;
        return eventsSection(`${c + 1}.${s + 1} ${section}`, leaf, pair, events);
      }),
    })),
  };
}

export const historyBooks: BookSpec[] = [
  book(7, '七年级中国历史 · 同步练习', ANCIENT, [
    ['第一单元 先秦时期', '先秦时期', [['西周与战国', '国家的产生与社会变革'], ['秦朝的统一与灭亡', '秦统一中国']]],
    ['第二单元 秦汉时期', '秦汉时期', [['丝绸之路与东汉', '丝绸之路的开通'], ['三国鼎立', '三国两晋南北朝的政权分立']]],
    ['第三单元 三国两晋南北朝', '三国两晋南北朝', [['北方民族交融', '北魏孝文帝改革'], ['隋唐的建立', '隋唐时期的统一']]],
    ['第四单元 宋元明清', '宋元明清', [['宋元的建立', '辽宋夏金元的政权更替'], ['明清对外交往', '明清时期的对外关系']]],
  ]),
  book(8, '八年级中国历史 · 同步练习', MODERN, [
    ['第一单元 中国开始沦为半殖民地半封建社会', '列强侵华与中国社会性质的变化', [['鸦片战争', '鸦片战争'], ['太平天国与第二次鸦片战争', '第二次鸦片战争']]],
    ['第二单元 近代化的早期探索与民族危机的加剧', '近代化的早期探索', [['甲午中日战争', '甲午中日战争'], ['戊戌变法与八国联军侵华', '戊戌变法']]],
    ['第三单元 资产阶级民主革命与中华民国的建立', '辛亥革命', [['辛亥革命', '辛亥革命'], ['新文化运动与五四运动', '五四运动']]],
    ['第四单元 新民主主义革命', '新民主主义革命', [['中国共产党的成立与南昌起义', '中国共产党的诞生'], ['抗日战争与新中国成立', '中华人民共和国的成立']]],
  ]),
  book(9, '九年级世界历史 · 同步练习', WORLD, [
    ['第一单元 走向近代', '走向近代', [['新航路开辟与英国革命', '新航路的开辟'], ['美国独立与法国大革命', '资产阶级革命']]],
    ['第二单元 工业革命与国际共产主义运动', '国际共产主义运动', [['马克思主义的诞生与南北战争', '马克思主义的诞生'], ['明治维新与第一次世界大战', '第一次世界大战']]],
    ['第三单元 战争与和平', '第二次世界大战', [['十月革命与巴黎和会', '十月革命'], ['第二次世界大战', '第二次世界大战']]],
    ['第四单元 走向和平发展的世界', '当代世界', [['联合国与冷战时期的科技', '战后世界格局'], ['苏联解体与欧盟', '世界政治格局的多极化']]],
  ]),
];
