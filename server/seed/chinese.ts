// 语文 exercise books for grades 7–9. Classical lines are public-domain poems from the curriculum's
// recitation list; every question, distractor and explanation around them is written for the demo.
import { blank, judge, single, type BookSpec, type Draft, type Maker, type Rng, type SectionSpec } from './draft';

/** [first line, second line, poet, dynasty, title]. */
type Poem = [string, string, string, string, string];
const POEMS: Poem[] = [
  ['海内存知己', '天涯若比邻', '王勃', '唐', '送杜少府之任蜀州'],
  ['会当凌绝顶', '一览众山小', '杜甫', '唐', '望岳'],
  ['采菊东篱下', '悠然见南山', '陶渊明', '东晋', '饮酒（其五）'],
  ['谁言寸草心', '报得三春晖', '孟郊', '唐', '游子吟'],
  ['独在异乡为异客', '每逢佳节倍思亲', '王维', '唐', '九月九日忆山东兄弟'],
  ['小荷才露尖尖角', '早有蜻蜓立上头', '杨万里', '宋', '小池'],
  ['乱花渐欲迷人眼', '浅草才能没马蹄', '白居易', '唐', '钱塘湖春行'],
  ['海日生残夜', '江春入旧年', '王湾', '唐', '次北固山下'],
  ['夕阳西下', '断肠人在天涯', '马致远', '元', '天净沙·秋思'],
  ['问渠那得清如许', '为有源头活水来', '朱熹', '宋', '观书有感'],
  ['大漠孤烟直', '长河落日圆', '王维', '唐', '使至塞上'],
  ['晴川历历汉阳树', '芳草萋萋鹦鹉洲', '崔颢', '唐', '黄鹤楼'],
  ['千磨万击还坚劲', '任尔东西南北风', '郑燮', '清', '竹石'],
  ['不畏浮云遮望眼', '自缘身在最高层', '王安石', '宋', '登飞来峰'],
  ['孤帆远影碧空尽', '唯见长江天际流', '李白', '唐', '黄鹤楼送孟浩然之广陵'],
  ['野火烧不尽', '春风吹又生', '白居易', '唐', '赋得古原草送别'],
  ['国破山河在', '城春草木深', '杜甫', '唐', '春望'],
  ['长风破浪会有时', '直挂云帆济沧海', '李白', '唐', '行路难（其一）'],
  ['沉舟侧畔千帆过', '病树前头万木春', '刘禹锡', '唐', '酬乐天扬州初逢席上见赠'],
  ['山重水复疑无路', '柳暗花明又一村', '陆游', '宋', '游山西村'],
  ['人生自古谁无死', '留取丹心照汗青', '文天祥', '宋', '过零丁洋'],
  ['落红不是无情物', '化作春泥更护花', '龚自珍', '清', '己亥杂诗（其五）'],
  ['春蚕到死丝方尽', '蜡炬成灰泪始干', '李商隐', '唐', '无题'],
  ['但愿人长久', '千里共婵娟', '苏轼', '宋', '水调歌头'],
  ['等闲识得东风面', '万紫千红总是春', '朱熹', '宋', '春日'],
  ['劝君更尽一杯酒', '西出阳关无故人', '王维', '唐', '送元二使安西'],
  ['桃花潭水深千尺', '不及汪伦送我情', '李白', '唐', '赠汪伦'],
  ['欲渡黄河冰塞川', '将登太行雪满山', '李白', '唐', '行路难（其一）'],
];
const POETS = [...new Set(POEMS.map((p) => p[2]))];
const DYNASTIES = ['唐', '宋', '元', '清', '东晋'];

/** [idiom, meaning]. */
const IDIOMS: [string, string][] = [
  ['画蛇添足', '比喻做了多余的事，反而不恰当'],
  ['守株待兔', '比喻死守狭隘经验，不知变通'],
  ['亡羊补牢', '比喻出了问题以后想办法补救，可以防止继续受损失'],
  ['刻舟求剑', '比喻拘泥成例，不懂得根据情况的变化而变通'],
  ['井底之蛙', '比喻见识狭窄的人'],
  ['自相矛盾', '比喻自己的言语或行为前后抵触'],
  ['胸有成竹', '比喻做事之前已经有了通盘的考虑'],
  ['拔苗助长', '比喻违反事物的发展规律，急于求成，反而坏事'],
  ['叶公好龙', '比喻口头上说爱好某事物，实际上并不真爱好'],
  ['滥竽充数', '比喻没有真才实学的人混在行家里面充数'],
  ['纸上谈兵', '比喻空谈理论，不能解决实际问题'],
  ['破釜沉舟', '比喻下定决心，不顾一切干到底'],
  ['完璧归赵', '比喻把原物完好地归还本人'],
  ['负荆请罪', '表示向人认错赔罪'],
  ['三顾茅庐', '比喻真心诚意，一再邀请'],
  ['锲而不舍', '比喻有恒心，有毅力'],
  ['不耻下问', '不以向地位、学问不如自己的人请教为耻'],
  ['卧薪尝胆', '形容人刻苦自励，发愤图强'],
];

/** [sentence written for the demo, rhetorical device]. */
const FIGURES: [string, string][] = [
  ['弯弯的月亮像一只小船挂在天边。', '比喻'],
  ['春风轻轻地抚摸着孩子们的脸庞。', '拟人'],
  ['读书使人明理，读书使人开阔，读书使人进步。', '排比'],
  ['他的嗓门大得能把屋顶掀翻。', '夸张'],
  ['难道我们能眼看着小树苗被踩坏吗？', '反问'],
  ['什么是幸福？幸福就是和家人一起吃一顿热乎乎的晚饭。', '设问'],
  ['操场边的小草探出脑袋，好奇地打量着这个世界。', '拟人'],
  ['晚霞像一匹五彩的锦缎铺在西边的天空。', '比喻'],
  ['我们怎能忘记老师辛勤的付出？', '反问'],
  ['教室里静得连一根针掉在地上都听得见。', '夸张'],
  ['我们爱春天的绿，爱夏天的蓝，爱秋天的金黄。', '排比'],
  ['为什么这片树林这样茂盛？因为每年春天同学们都来植树。', '设问'],
  ['落叶在风中跳着告别的舞蹈。', '拟人'],
  ['那一片片荷叶就像一把把撑开的绿伞。', '比喻'],
  ['时间是最公平的裁判，它从不偏袒任何人。', '拟人'],
];
const DEVICES = ['比喻', '拟人', '排比', '夸张', '反问', '设问'];

/** [sentence, word, meaning]. */
const CLASSICAL: [string, string, string][] = [
  ['学而时习之', '时', '按时'],
  ['温故而知新', '故', '旧的知识'],
  ['人不知而不愠', '愠', '生气，恼怒'],
  ['择其善者而从之', '从', '跟从，学习'],
  ['博学而笃志', '笃', '坚定'],
  ['谈笑有鸿儒', '鸿', '大'],
  ['无丝竹之乱耳', '丝竹', '奏乐的声音'],
  ['可远观而不可亵玩焉', '亵', '亲近而不庄重'],
  ['野芳发而幽香', '芳', '花'],
  ['佳木秀而繁阴', '秀', '繁茂，茂盛'],
  ['属予作文以记之', '属', '通“嘱”，嘱托'],
  ['不以物喜，不以己悲', '以', '因为'],
  ['往来而不绝者', '绝', '断'],
  ['中通外直，不蔓不枝', '蔓', '生藤蔓'],
  ['斯是陋室，惟吾德馨', '馨', '散布很远的香气，这里指品德高尚'],
];

const slice = <T>(list: readonly T[], start: number, count: number) => Array.from({ length: count }, (_, k) => list[(start + k) % list.length]);

/** Two forms over one table: entries 0…n-1 in the first form, then again in the second. */
type Form<T> = (item: T, rng: Rng, i: number) => Draft;
const twoForms = <T>(items: T[], first: Form<T>, second: Form<T>): Maker => (rng, i) =>
  i % (2 * items.length) < items.length ? first(items[i % items.length], rng, i) : second(items[i % items.length], rng, i);

function poemSections(poems: Poem[]): SectionSpec[] {
  return [
    {
      title: '古诗词默写（下句）',
      point: '古诗文默写',
      make: twoForms(
        poems,
        ([a, b, poet, , title]) => blank(`补写出下列句子中的空缺部分：${a}，______。（${poet}《${title}》）`, b, `本句出自${poet}的《${title}》，上句“${a}”，下句“${b}”。默写时注意字形。`, 2),
        ([a, b, poet, , title]) => blank(`补写出下列句子中的空缺部分：______，${b}。（${poet}《${title}》）`, a, `本句出自${poet}的《${title}》：“${a}，${b}。”`, 3),
      ),
    },
    {
      title: '古诗词作者与出处',
      point: '文学常识',
      make: twoForms(
        poems,
        ([a, b, poet, , title], rng) => single(rng, `“${a}，${b}”的作者是（　　）`, poet, POETS.filter((p) => p !== poet).sort((x, y) => (x + a).localeCompare(y + b)), `这两句出自${poet}的《${title}》。`, 2, 2),
        ([a, b, poet, dynasty, title], rng) => single(rng, `《${title}》的作者${poet}是哪个朝代的诗人？（　　）`, dynasty, DYNASTIES, `${poet}是${dynasty}代诗人，“${a}，${b}”出自他的《${title}》。`, 3, 2),
      ),
    },
  ];
}

function idiomSection(idioms: [string, string][]): SectionSpec {
  return {
    title: '成语的理解与运用',
    point: '词语运用',
    make: twoForms(
      idioms,
      ([idiom, meaning], rng) => single(rng, `“${idiom}”的意思是（　　）`, meaning, IDIOMS.filter(([x]) => x !== idiom).map(([, m]) => m).sort((x, y) => (x + idiom).localeCompare(y)), `“${idiom}”${meaning}。`, 2, 2),
      ([idiom, meaning], rng, i) => {
        const other = IDIOMS[(IDIOMS.findIndex(([x]) => x === idiom) + 5) % IDIOMS.length];
        const right = i % 2 === 0;
        return judge(`“${idiom}”的意思是：${right ? meaning : other[1]}。`, right, `“${idiom}”${meaning}；“${other[0]}”才是${other[1]}。`, 2);
      },
    ),
  };
}

function figureSection(figures: [string, string][]): SectionSpec {
  return {
    title: '修辞手法',
    point: '修辞手法',
    make: twoForms(
      figures,
      ([sentence, device], rng) => single(rng, `“${sentence}”运用的修辞手法是（　　）`, device, DEVICES, `句子${device === '比喻' ? '把一种事物比作另一种相似的事物' : device === '拟人' ? '把物当作人来写，赋予它人的动作或情感' : device === '排比' ? '用三个结构相同、语气一致的短语或句子' : device === '夸张' ? '故意言过其实，突出特点' : device === '反问' ? '用疑问的形式表达确定的意思，答案就在问句中' : '自问自答，引起注意'}，是${device}。`, 2, 2),
      ([sentence, device], rng, i) => {
        const claim = i % 2 === 0 ? device : DEVICES[(DEVICES.indexOf(device) + 1) % DEVICES.length];
        return judge(`“${sentence}”运用了${claim}的修辞手法。`, claim === device, `这句话运用的是${device}。`, 2);
      },
    ),
  };
}

function classicalSection(items: [string, string, string][]): SectionSpec {
  return {
    title: '文言词语',
    point: '文言实词',
    make: twoForms(
      items,
      ([sentence, word, meaning], rng) => single(rng, `“${sentence}”中“${word}”的意思是（　　）`, meaning, CLASSICAL.filter(([, w]) => w !== word).map(([, , m]) => m).sort((x, y) => (x + word).localeCompare(y)), `“${sentence}”中的“${word}”意思是${meaning}。`, 3, 2),
      ([sentence, word, meaning]) => blank(`解释加点词：“${sentence}”中的“${word}”：______`, meaning, `“${word}”在句中的意思是${meaning}，理解时结合上下文。`, 4, 2),
    ),
  };
}

function book(gradeLevel: number, title: string, from: number): BookSpec {
  const poems = slice(POEMS, from * 9, 12);
  const [lower, source] = poemSections(poems.slice(0, 6));
  const [lower2, source2] = poemSections(poems.slice(6, 12));
  return {
    subject: '语文',
    gradeLevel,
    title,
    edition: '学助原创',
    chapters: [
      { title: '第一单元 古诗词积累', point: '古诗文', sections: [lower, { ...source, title: '古诗词作者与出处（一）' }] },
      { title: '第二单元 古诗词拓展', point: '古诗文', sections: [{ ...lower2, title: '古诗词默写（拓展）' }, { ...source2, title: '古诗词作者与出处（二）' }] },
      { title: '第三单元 语言运用', point: '语言积累与运用', sections: [idiomSection(slice(IDIOMS, from * 6, 6)), figureSection(slice(FIGURES, from * 5, 6))] },
      { title: '第四单元 文言积累', point: '文言文阅读', sections: [classicalSection(slice(CLASSICAL, from * 5, 6)), { ...idiomSection(slice(IDIOMS, from * 6 + 6, 6)), title: '成语辨析' }] },
    ].map((chapter, c) => ({ ...chapter, sections: chapter.sections.map((s, k) => ({ ...s, title: `${c + 1}.${k + 1} ${s.title}` })) })),
  };
}

export const chineseBooks: BookSpec[] = [book(7, '七年级语文上册 · 积累与运用', 0), book(8, '八年级语文上册 · 积累与运用', 1), book(9, '九年级语文上册 · 积累与运用', 2)];
