// 英语 exercise books for grades 7–9, written for the demo from word tables and sentence frames.
import { blank, nth, single, type BookSpec, type Maker, type Rng } from './draft';

interface Verb {
  base: string;
  third: string;
  ing: string;
  past: string;
  participle: string;
  /** What follows the verb in the frames. */
  rest: string;
}
const v = (base: string, third: string, ing: string, past: string, participle: string, rest: string): Verb => ({ base, third, ing, past, participle, rest });

const VERBS: Verb[] = [
  v('read', 'reads', 'reading', 'read', 'read', 'a story'),
  v('write', 'writes', 'writing', 'wrote', 'written', 'an email'),
  v('watch', 'watches', 'watching', 'watched', 'watched', 'a football match'),
  v('play', 'plays', 'playing', 'played', 'played', 'the piano'),
  v('study', 'studies', 'studying', 'studied', 'studied', 'English'),
  v('swim', 'swims', 'swimming', 'swam', 'swum', 'in the river'),
  v('make', 'makes', 'making', 'made', 'made', 'dumplings'),
  v('go', 'goes', 'going', 'went', 'gone', 'to the library'),
  v('buy', 'buys', 'buying', 'bought', 'bought', 'some fruit'),
  v('take', 'takes', 'taking', 'took', 'taken', 'photos'),
  v('fly', 'flies', 'flying', 'flew', 'flown', 'a kite'),
  v('clean', 'cleans', 'cleaning', 'cleaned', 'cleaned', 'the classroom'),
  v('draw', 'draws', 'drawing', 'drew', 'drawn', 'a picture'),
  v('sing', 'sings', 'singing', 'sang', 'sung', 'a song'),
  v('eat', 'eats', 'eating', 'ate', 'eaten', 'breakfast'),
  v('visit', 'visits', 'visiting', 'visited', 'visited', 'the museum'),
];
const at = <T>(list: readonly T[], i: number) => list[i % list.length];

/** One sentence frame of a verb-form section: the sentence, the right form, tempting wrong forms, the rule. */
type Frame = [(verb: Verb) => string, (verb: Verb) => string, (verb: Verb) => string[], string];

/**
 * A verb-form section: each question takes the next frame (a different sentence and situation,
 * as a page of an exercise book mixes them) and the next verb. The last frame of every four is a
 * fill-in (用所给词的适当形式填空), whose typical wrong answers are the tempting forms.
 */
function verbForm(frames: Frame[], difficulty: number, offset = 0, verbs = VERBS): Maker {
  return (rng, i) => {
    const verb = at(verbs, i + offset);
    const [frame, answer, wrong, rule] = at(frames, i);
    const correct = answer(verb);
    if (i % 4 === 3) return blank(`用所给词的适当形式填空：${frame(verb)}`, correct, `${rule}答案为 ${correct}。`, difficulty + 1, 2, wrong(verb));
    // Spare wrong forms for verbs whose forms coincide (read/read/read).
    return single(rng, frame(verb), correct, [...wrong(verb), verb.ing, `to ${verb.base}`, `${verb.base}ed`], `${rule}故选 ${correct}。`, difficulty, 2);
  };
}

/** Verbs whose object is singular or uncountable, for "… is done" frames. */
const PASSIVE_VERBS = VERBS.filter((x) => !['swim', 'go', 'make', 'take'].includes(x.base));

interface Adjective {
  base: string;
  more: string;
  most: string;
    thing: string;
}
const ADJECTIVES: Adjective[] = [
  { base: 'tall', more: 'taller', most: 'tallest', thing: 'the tree' },
  { base: 'heavy', more: 'heavier', most: 'heaviest', thing: 'the box' },
  { base: 'big', more: 'bigger', most: 'biggest', thing: 'the room' },
  { base: 'beautiful', more: 'more beautiful', most: 'most beautiful', thing: 'the garden' },
  { base: 'careful', more: 'more careful', most: 'most careful', thing: 'the driver' },
  { base: 'good', more: 'better', most: 'best', thing: 'the film' },
  { base: 'easy', more: 'easier', most: 'easiest', thing: 'the question' },
  { base: 'interesting', more: 'more interesting', most: 'most interesting', thing: 'the book' },
  { base: 'hot', more: 'hotter', most: 'hottest', thing: 'the day' },
  { base: 'quiet', more: 'quieter', most: 'quietest', thing: 'the street' },
  { base: 'bad', more: 'worse', most: 'worst', thing: 'the weather' },
  { base: 'happy', more: 'happier', most: 'happiest', thing: 'the child' },
];

/** Comparative forms in four kinds of sentence. */
function comparative(rng: Rng, i: number, offset: number) {
  const a = at(ADJECTIVES, i + offset);
  const why = `than 提示用比较级，${a.base} 的比较级是 ${a.more}。`;
  switch (i % 4) {
    case 0:
      return single(rng, `This one is ____ (${a.base}) than ${a.thing} over there.`, a.more, [a.base, a.most, `more ${a.more}`], `${why}故选 ${a.more}。`, 2, 2);
    case 1:
      return blank(`用所给词的适当形式填空：Which is ____ (${a.base}), ${a.thing} in the photo or the one in the book?`, a.more, `Which ..., A or B? 两者比较用比较级。答案为 ${a.more}。`, 3, 2, [a.base, a.most, a.more.startsWith('more') ? `${a.base}er` : `more ${a.base}`]);
    case 2:
      return single(rng, `My sister says ${a.thing} this year is much ____ than last year.`, a.more, [a.base, a.most, `very ${a.base}`], `much 可修饰比较级，than 提示比较。故选 ${a.more}。`, 3, 2);
    default:
      return blank(`用所给词的适当形式填空：The more you practise, the ____ (${a.base}) it will be.`, a.more, `“the + 比较级, the + 比较级”表示“越……越……”。答案为 ${a.more}。`, 3, 2, [a.base, a.most]);
  }
}

/** Superlative forms in four kinds of sentence. */
function superlative(rng: Rng, i: number, offset: number) {
  const a = at(ADJECTIVES, i + offset);
  switch (i % 4) {
    case 0:
      return single(rng, `Of all the choices, this is the ____ (${a.base}) one.`, a.most, [a.base, a.more, `most ${a.most}`], `三者及以上比较用最高级，${a.base} 的最高级是 ${a.most}。故选 ${a.most}。`, 3, 2);
    case 1:
      return blank(`用所给词的适当形式填空：I think ${a.thing} in our town is the ____ (${a.base}) of all.`, a.most, `of all 提示最高级。答案为 ${a.most}。`, 3, 2, [a.more, a.base, a.most.startsWith('most') ? `${a.base}est` : `most ${a.base}`]);
    case 2:
      return single(rng, `—Which is ____ , ${a.thing} in Class 1, Class 2 or Class 3? —I'm not sure.`, `the ${a.most}`, [a.more, `the ${a.more}`, a.base], `三者比较用“the + 最高级”。故选 the ${a.most}。`, 3, 2);
    default:
      return single(rng, `It was one of the ____ (${a.base}) days of the school trip.`, a.most, [a.more, a.base, `${a.more}s`], `“one of the + 最高级 + 复数名词”表示“最……之一”。故选 ${a.most}。`, 3, 2);
  }
}

const NOUNS: [string, string][] = [
  ['box', 'boxes'],
  ['child', 'children'],
  ['tomato', 'tomatoes'],
  ['knife', 'knives'],
  ['city', 'cities'],
  ['man', 'men'],
  ['tooth', 'teeth'],
  ['watch', 'watches'],
  ['leaf', 'leaves'],
  ['foot', 'feet'],
  ['family', 'families'],
  ['bus', 'buses'],
];

/** Fixed sentences written for the demo: [stem, answer, distractors, rule]. */
type Item = [string, string, string[], string];
const fromItems = (items: Item[], difficulty: number): Maker => (rng, i) => {
  const [stem, answer, wrong, rule] = at(items, i);
  return single(rng, stem, answer, wrong, `${rule}故选 ${answer}。`, difficulty, 2);
};

const TIME_PREPOSITIONS: Item[] = [
  ['We have a school trip ____ Friday.', 'on', ['in', 'at', 'for'], '具体某一天前用 on。'],
  ['The class begins ____ eight o’clock.', 'at', ['in', 'on', 'by'], '具体时刻前用 at。'],
  ['My birthday is ____ May.', 'in', ['on', 'at', 'for'], '月份前用 in。'],
  ['Leaves turn yellow ____ autumn.', 'in', ['on', 'at', 'to'], '季节前用 in。'],
  ['We eat mooncakes ____ the evening of Mid-Autumn Festival.', 'on', ['in', 'at', 'of'], '具体某一天的早上、晚上用 on。'],
  ['I usually get up ____ six thirty.', 'at', ['in', 'on', 'for'], '具体时刻前用 at。'],
  ['He was born ____ 2012.', 'in', ['on', 'at', 'to'], '年份前用 in。'],
  ['We do eye exercises ____ the morning.', 'in', ['on', 'at', 'of'], '泛指上午用 in the morning。'],
  ['The shop is closed ____ noon.', 'at', ['in', 'on', 'for'], 'at noon 为固定搭配。'],
  ['Children get presents ____ Children’s Day.', 'on', ['in', 'at', 'by'], '节日当天用 on。'],
  ['It often snows ____ winter here.', 'in', ['on', 'at', 'by'], '季节前用 in。'],
  ['Let’s meet ____ 3:15 this afternoon.', 'at', ['in', 'on', 'for'], '具体时刻前用 at。'],
];

const PRONOUNS: Item[] = [
  ['This is my friend Tom. I often play with ____.', 'him', ['he', 'his', 'himself'], '介词后用宾格。'],
  ['Miss Wang teaches ____ English. We like her class.', 'us', ['we', 'our', 'ours'], '动词后用宾格。'],
  ['Where is Lily? I can’t find ____.', 'her', ['she', 'hers', 'herself'], '动词后用宾格。'],
  ['These books are new. Please put ____ on the shelf.', 'them', ['they', 'their', 'theirs'], '动词后用宾格。'],
  ['Could you help ____ with my maths, Dad?', 'me', ['I', 'my', 'mine'], '动词后用宾格。'],
  ['The bike is nice. I want to buy ____.', 'it', ['its', 'it’s', 'itself'], '动词后用宾格。'],
  ['—Is this your pen? —Yes, it’s ____.', 'mine', ['my', 'me', 'I'], '名词性物主代词 mine 相当于 my pen。'],
  ['Look at the twins. ____ are in Class 2.', 'They', ['Them', 'Their', 'Theirs'], '作主语用主格。'],
  ['Mr Li is ____ teacher. He teaches us science.', 'our', ['us', 'we', 'ours'], '名词前用形容词性物主代词。'],
  ['Jim and ____ are good friends.', 'I', ['me', 'my', 'mine'], '作主语用主格。'],
  ['Give the ball to ____, please. It’s her turn.', 'her', ['she', 'hers', 'herself'], '介词后用宾格。'],
  ['The cat is washing ____ face.', 'its', ['it’s', 'it', 'itself'], '名词前用形容词性物主代词 its。'],
];

const RELATIVES: Item[] = [
  ['The girl ____ is singing is my cousin.', 'who', ['which', 'whose', 'what'], '先行词指人，在从句中作主语，用 who。'],
  ['This is the book ____ I bought yesterday.', 'that', ['who', 'what', 'whom'], '先行词指物，用 that 或 which。'],
  ['I like music ____ I can dance to.', 'that', ['who', 'what', 'where'], '先行词指物，用 that 或 which。'],
  ['The man ____ car was stolen called the police.', 'whose', ['who', 'which', 'that'], '表示“……的”，作定语用 whose。'],
  ['Do you know the boy ____ won the race?', 'who', ['which', 'whose', 'where'], '先行词指人，作主语用 who。'],
  ['The museum ____ we visited last week is very old.', 'which', ['who', 'what', 'whose'], '先行词指物，用 which 或 that。'],
  ['She is the teacher ____ helps me most.', 'who', ['which', 'what', 'whose'], '先行词指人，作主语用 who。'],
  ['I have a friend ____ father is a doctor.', 'whose', ['who', 'which', 'that'], '表示所属关系用 whose。'],
  ['Here is the photo ____ shows our school.', 'which', ['who', 'whom', 'whose'], '先行词指物，作主语用 which 或 that。'],
  ['People ____ exercise often are usually healthy.', 'who', ['which', 'what', 'whose'], '先行词指人，作主语用 who。'],
  ['The river ____ runs through the town is clean now.', 'that', ['who', 'what', 'whom'], '先行词指物，用 that 或 which。'],
  ['He is the writer ____ stories I love.', 'whose', ['who', 'which', 'that'], '表示所属关系用 whose。'],
];

const EXCLAMATIONS: Item[] = [
  ['____ beautiful flowers they are!', 'What', ['How', 'What a', 'How a'], '中心词是复数名词 flowers，用 what。'],
  ['____ fast he runs!', 'How', ['What', 'What a', 'How a'], '修饰副词 fast，用 how。'],
  ['____ interesting story it is!', 'What an', ['What a', 'How', 'How an'], '中心词是可数名词单数，interesting 以元音开头，用 what an。'],
  ['____ cold it is today!', 'How', ['What', 'What a', 'What an'], '修饰形容词 cold，用 how。'],
  ['____ good news it is!', 'What', ['What a', 'How', 'How a'], 'news 不可数，用 what。'],
  ['____ clever boy Tom is!', 'What a', ['What', 'How', 'What an'], '中心词 boy 是可数名词单数，用 what a。'],
  ['____ carefully she writes!', 'How', ['What', 'What a', 'What an'], '修饰副词 carefully，用 how。'],
  ['____ nice weather we have!', 'What', ['What a', 'How', 'How a'], 'weather 不可数，用 what。'],
  ['____ tall the building is!', 'How', ['What', 'What a', 'What an'], '修饰形容词 tall，用 how。'],
  ['____ useful book this is!', 'What a', ['What an', 'What', 'How'], 'useful 以辅音音素开头，用 what a。'],
  ['____ hard they work!', 'How', ['What', 'What a', 'What an'], '修饰副词 hard，用 how。'],
  ['____ exciting match it was!', 'What an', ['What a', 'What', 'How'], 'exciting 以元音音素开头，用 what an。'],
];

const TAGS: Item[] = [
  ['Tom is from Canada, ____?', 'isn’t he', ['is he', 'doesn’t he', 'wasn’t he'], '前肯后否，be 动词 is 对应 isn’t。'],
  ['You don’t like coffee, ____?', 'do you', ['don’t you', 'are you', 'did you'], '前否后肯，助动词 do 对应 do。'],
  ['She can swim, ____?', 'can’t she', ['can she', 'doesn’t she', 'isn’t she'], '情态动词 can 对应 can’t。'],
  ['They went to Beijing last year, ____?', 'didn’t they', ['did they', 'don’t they', 'weren’t they'], '一般过去时实义动词用 didn’t。'],
  ['Your sister has never been abroad, ____?', 'has she', ['hasn’t she', 'does she', 'is she'], 'never 表否定，反问部分用肯定 has she。'],
  ['Let’s go to the park, ____?', 'shall we', ['will you', 'don’t we', 'do we'], 'Let’s 开头的祈使句用 shall we。'],
  ['There is a bank near here, ____?', 'isn’t there', ['isn’t it', 'is there', 'doesn’t it'], 'there be 句型反问部分用 there。'],
  ['He will come tomorrow, ____?', 'won’t he', ['will he', 'doesn’t he', 'isn’t he'], '助动词 will 对应 won’t。'],
  ['We were late, ____?', 'weren’t we', ['were we', 'didn’t we', 'aren’t we'], 'be 动词 were 对应 weren’t。'],
  ['Lily seldom watches TV, ____?', 'does she', ['doesn’t she', 'is she', 'did she'], 'seldom 表否定，反问部分用肯定。'],
  ['Open the window, ____?', 'will you', ['shall we', 'do you', 'don’t you'], '祈使句反问部分常用 will you。'],
  ['It was a fine day, ____?', 'wasn’t it', ['was it', 'didn’t it', 'isn’t it'], 'be 动词 was 对应 wasn’t。'],
];

const pluralMaker: Maker = (rng, i) => {
  const [one, many] = at(NOUNS, i);
  const n = ['two', 'three', 'four', 'five', 'six'][i % 5];
  // What students write when they do not know the rule: a plain -s, the singular.
  const slips = [`${one}s` === many ? `${one}es` : `${one}s`, one];
  switch (i % 4) {
    case 0:
      return blank(`There are ${n} ____ (${one}) in the picture.`, many, `${n} 后用名词复数，${one} 的复数形式是 ${many}。`, 2, 2, slips);
    case 1:
      return single(rng, `${one[0].toUpperCase()}${one.slice(1)} 的复数形式是（　　）`, many, [...slips, `${many}s`, `${one}ies`], `${one} 的复数形式是 ${many}，要记住它的变化规则。故选 ${many}。`, 2, 2);
    case 2:
      return blank(`用所给词的适当形式填空：Mrs Green bought some ____ (${one}) for the family yesterday.`, many, `some 修饰可数名词时用复数，${one} 的复数是 ${many}。`, 3, 2, slips);
    default:
      return single(rng, `How many ____ (${one}) can you see ${['child', 'man', 'family'].includes(one) ? 'in the park' : 'on the table'}?`, many, [one, ...slips, `${many}s`], `How many 后接可数名词复数，所以用 ${many}。`, 2, 2);
  }
};

const ADVERBS: [string, string][] = [
  ['careful', 'carefully'],
  ['quiet', 'quietly'],
  ['happy', 'happily'],
  ['easy', 'easily'],
  ['good', 'well'],
  ['bad', 'badly'],
  ['quick', 'quickly'],
  ['slow', 'slowly'],
  ['beautiful', 'beautifully'],
  ['serious', 'seriously'],
  ['patient', 'patiently'],
  ['successful', 'successfully'],
];

const adverbMaker: Maker = (rng, i) => {
  const [adjective, adverb] = at(ADVERBS, i);
  const slips = [adjective, adverb === 'well' ? 'goodly' : `${adjective}ly` === adverb ? `${adjective}ily` : `${adjective}ly`];
  switch (i % 4) {
    case 0:
      return blank(`The children did the work ____ (${adjective}).`, adverb, `修饰动词 did 要用副词，${adjective} 的副词形式是 ${adverb}。`, 3, 2, slips);
    case 1:
      return single(rng, `Please read the text ____ (${adjective}). We have enough time today.`, adverb, [adjective, ...slips, `more ${adjective}`], `修饰动词 read 要用副词 ${adverb}。故选 ${adverb}。`, 3, 2);
    case 2: {
      const [stem, right, wrong, verb] = nth<[string, string, string[], string]>([
        ['The plan sounds ____, but it is hard to carry out.', 'good', ['well', 'goodly', 'better than'], 'sound'],
        ['The soup tastes ____. Can I have some more?', 'delicious', ['deliciously', 'badly', 'well'], 'taste'],
        ['The girl looked ____ when she got the first prize.', 'happy', ['happily', 'happiness', 'sadly'], 'look'],
      ], i, 4);
      return single(rng, stem, right, wrong, `${verb} 是系动词，后接形容词作表语。故选 ${right}。`, 3, 2);
    }
    default:
      return blank(`用所给词的适当形式填空：Grandpa walked ____ (${adjective}) along the river after supper.`, adverb, `修饰动词 walked 用副词，${adjective} → ${adverb}。`, 3, 2, slips);
  }
};

export const englishBooks: BookSpec[] = [
  {
    subject: '英语',
    gradeLevel: 7,
    title: 'Junior English 7A · 同步练习',
    edition: '学助原创',
    chapters: [
      {
        title: 'Unit 1 Words',
        point: '词法',
        sections: [
          { title: '1.1 名词的复数', point: '名词的数', make: pluralMaker },
          { title: '1.2 人称代词和物主代词', point: '代词', make: fromItems(PRONOUNS, 2) },
          { title: '1.3 时间介词', point: '介词', make: fromItems(TIME_PREPOSITIONS, 2) },
        ],
      },
      {
        title: 'Unit 2 Tenses',
        point: '动词的时态',
        sections: [
          {
            title: '2.1 一般现在时',
            point: '一般现在时',
            make: verbForm(
              [
                [(x) => `Li Lei ____ (${x.base}) ${x.rest} every weekend.`, (x) => x.third, (x) => [x.base, x.ing, x.past], '主语是第三人称单数，every weekend 表示经常性动作，用一般现在时的三单形式。'],
                [(x) => `My parents often ____ (${x.base}) ${x.rest} on Saturday mornings.`, (x) => x.base, (x) => [x.third, x.ing, x.past], '主语 my parents 是复数，often 表示经常性动作，用动词原形。'],
                [(x) => `—Does Grandma ${x.base} ${x.rest}? —Yes, she ____ (${x.base}) ${x.rest} after lunch.`, (x) => x.third, (x) => [x.base, x.past, x.ing], '一般现在时，主语 she 是第三人称单数，动词用三单形式。'],
                [(x) => `Lucy usually ____ (${x.base}) ${x.rest} before school.`, (x) => x.third, (x) => [x.base, x.ing], 'usually 表示习惯，主语单数，用三单形式。'],
              ],
              2,
            ),
          },
          {
            title: '2.2 现在进行时',
            point: '现在进行时',
            make: verbForm(
              [
                [(x) => `Look! The students ____ (${x.base}) ${x.rest} now.`, (x) => `are ${x.ing}`, (x) => [`is ${x.ing}`, x.base, `are ${x.base}`], 'Look! 和 now 提示动作正在进行，主语复数用 are doing。'],
                [(x) => `Listen! Somebody ____ (${x.base}) ${x.rest} in the next room.`, (x) => `is ${x.ing}`, (x) => [`are ${x.ing}`, x.third, `is ${x.base}`], 'Listen! 提示动作正在进行，somebody 作主语用 is doing。'],
                [(x) => `—Where is Dad? —He ____ (${x.base}) ${x.rest} at the moment.`, (x) => `is ${x.ing}`, (x) => [x.third, `was ${x.ing}`, `are ${x.ing}`], 'at the moment 表示此刻正在进行。'],
                [(x) => `It's nine o'clock now. My classmates ____ (${x.base}) ${x.rest}.`, (x) => `are ${x.ing}`, (x) => [x.base, `is ${x.ing}`, x.ing], '“现在九点”提示此刻正在进行，主语复数用 are doing。'],
              ],
              2,
            ),
          },
          {
            title: '2.3 一般过去时',
            point: '一般过去时',
            make: verbForm(
              [
                [(x) => `We ____ (${x.base}) ${x.rest} last Sunday.`, (x) => x.past, (x) => [x.base, x.third, `will ${x.base}`], 'last Sunday 表示过去，用一般过去时。'],
                [(x) => `—What did Ben do this morning? —He ____ (${x.base}) ${x.rest}.`, (x) => x.past, (x) => [x.third, x.base, `${x.base}ed`], '问句用 did，答语也用一般过去时。'],
                [(x) => `Two years ago, my cousin and I ____ (${x.base}) ${x.rest} together.`, (x) => x.past, (x) => [x.base, x.third, `have ${x.participle}`], 'two years ago 表示过去，用一般过去时。'],
                [(x) => `In the summer holiday, Kate ____ (${x.base}) ${x.rest} with her aunt.`, (x) => x.past, (x) => [x.third, x.base, `${x.base}ed`], '讲述暑假里的事，用一般过去时。'],
              ],
              3,
              2,
            ),
          },
        ],
      },
      {
        title: 'Unit 3 Adjectives',
        point: '形容词和副词',
        sections: [
          {
            title: '3.1 形容词比较级',
            point: '形容词的比较级和最高级',
            make: (rng, i) => comparative(rng, i, 0),
          },
          { title: '3.2 副词', point: '副词', make: adverbMaker },
        ],
      },
    ],
  },
  {
    subject: '英语',
    gradeLevel: 8,
    title: 'Junior English 8A · 同步练习',
    edition: '学助原创',
    chapters: [
      {
        title: 'Unit 1 The Past',
        point: '动词的时态',
        sections: [
          {
            title: '1.1 一般过去时',
            point: '一般过去时',
            make: verbForm(
              [
                [(x) => `Yesterday my cousin ____ (${x.base}) ${x.rest}.`, (x) => x.past, (x) => [x.base, x.third, x.ing], 'yesterday 表示过去，用一般过去时。'],
                [(x) => `—Did you ${x.base} ${x.rest} on Saturday? —No, but I ____ (${x.base}) ${x.rest} the day before.`, (x) => x.past, (x) => [x.base, `have ${x.participle}`, x.third], 'the day before 指过去，用一般过去时。'],
                [(x) => `When Tom was five, he first ____ (${x.base}) ${x.rest}.`, (x) => x.past, (x) => [x.third, x.base, `has ${x.participle}`], 'when 从句谓语是 was，主句也用一般过去时。'],
                [(x) => `Last term our class ____ (${x.base}) ${x.rest} for the school show.`, (x) => x.past, (x) => [x.third, x.base, `${x.base}ed`], 'last term 表示过去，用一般过去时。'],
              ],
              2,
              5,
            ),
          },
          {
            title: '1.2 过去进行时',
            point: '过去进行时',
            make: verbForm(
              [
                [(x) => `At eight last night, Linda ____ (${x.base}) ${x.rest}.`, (x) => `was ${x.ing}`, (x) => [`were ${x.ing}`, x.past, `is ${x.ing}`], 'at eight last night 表示过去某一时刻正在进行，主语单数用 was doing。'],
                [(x) => `When the rain began, the twins ____ (${x.base}) ${x.rest}.`, (x) => `were ${x.ing}`, (x) => [`was ${x.ing}`, x.past, `are ${x.ing}`], 'when 引导的从句表示过去某一时刻，主句用过去进行时，主语复数用 were doing。'],
                [(x) => `—What were you doing this time yesterday? —I ____ (${x.base}) ${x.rest}.`, (x) => `was ${x.ing}`, (x) => [`am ${x.ing}`, x.past, `were ${x.ing}`], '问句用过去进行时，答语主语 I 用 was doing。'],
                [(x) => `My mother ____ (${x.base}) ${x.rest} while I was doing my homework.`, (x) => `was ${x.ing}`, (x) => [x.past, `is ${x.ing}`, `were ${x.ing}`], 'while 连接两个同时进行的过去动作，用过去进行时。'],
              ],
              3,
            ),
          },
          {
            title: '1.3 一般将来时',
            point: '一般将来时',
            make: verbForm(
              [
                [(x) => `We ____ (${x.base}) ${x.rest} next week.`, (x) => `will ${x.base}`, (x) => [x.past, x.third, `will ${x.ing}`], 'next week 表示将来，用 will + 动词原形。'],
                [(x) => `Don't worry. I think Peter ____ (${x.base}) ${x.rest} for you tomorrow.`, (x) => `will ${x.base}`, (x) => [x.past, x.third, `will ${x.third}`], 'tomorrow 表示将来，用 will + 动词原形。'],
                [(x) => `—What are your plans for this weekend? —My family is going to ____ (${x.base}) ${x.rest}.`, (x) => x.base, (x) => [x.ing, x.third, `to ${x.base}`], 'be going to 后接动词原形。'],
                [(x) => `If it is fine tomorrow, the class ____ (${x.base}) ${x.rest}.`, (x) => `will ${x.base}`, (x) => [x.third, x.past, x.base], '“主将从现”：if 从句用一般现在时，主句用一般将来时。'],
              ],
              2,
              3,
            ),
          },
        ],
      },
      {
        title: 'Unit 2 Comparing',
        point: '形容词和副词',
        sections: [
          {
            title: '2.1 形容词最高级',
            point: '形容词的比较级和最高级',
            make: (rng, i) => superlative(rng, i, 3),
          },
          { title: '2.2 副词的用法', point: '副词', make: (rng, i) => adverbMaker(rng, i + 4) },
        ],
      },
      {
        title: 'Unit 3 Experiences',
        point: '现在完成时',
        sections: [
          {
            title: '3.1 现在完成时（一）',
            point: '现在完成时',
            make: verbForm(
              [
                [(x) => `I ____ already ____ (${x.base}) ${x.rest}.`, (x) => `have; ${x.participle}`, (x) => [`has; ${x.participle}`, `have; ${x.ing}`, `had; ${x.base}`], 'already 提示现在完成时，主语 I 用 have done。'],
                [(x) => `—Has your brother ____ (${x.base}) ${x.rest} yet? —Not yet.`, (x) => x.participle, (x) => [x.past === x.participle ? x.ing : x.past, x.base, x.third], 'yet 用于现在完成时的疑问句，has 后接过去分词。'],
                [(x) => `We ____ never ____ (${x.base}) ${x.rest} before. Let's try!`, (x) => `have; ${x.participle}`, (x) => [`has; ${x.participle}`, `had; ${x.ing}`, `are; ${x.ing}`], 'never ... before 提示现在完成时，主语 we 用 have done。'],
                [(x) => `Kate ____ (${x.base}) ${x.rest} three times so far.`, (x) => `has ${x.participle}`, (x) => [x.past, `have ${x.participle}`, x.third], 'so far 和次数提示现在完成时，主语单数用 has done。'],
              ],
              3,
            ),
          },
          { title: '3.2 名词复数（复习）', point: '名词的数', make: (rng, i) => pluralMaker(rng, i + 6) },
          { title: '3.3 代词（复习）', point: '代词', make: (rng, i) => fromItems(PRONOUNS, 2)(rng, i + 6) },
        ],
      },
    ],
  },
  {
    subject: '英语',
    gradeLevel: 9,
    title: 'Junior English 9 · 同步练习',
    edition: '学助原创',
    chapters: [
      {
        title: 'Unit 1 Voice',
        point: '被动语态',
        sections: [
          {
            title: '1.1 一般现在时的被动语态',
            point: '被动语态',
            make: verbForm(
              [
                [(x) => `${x.rest[0].toUpperCase()}${x.rest.slice(1)} ____ (${x.base}) by the students every day.`, (x) => `is ${x.participle}`, (x) => [`was ${x.participle}`, x.third, `is ${x.ing}`], '主语是动作的承受者，every day 提示一般现在时，用 is done。'],
                [(x) => `In our school, ${x.rest} ____ (${x.base}) only on Friday afternoons.`, (x) => `is ${x.participle}`, (x) => [x.third, `was ${x.participle}`, `are ${x.participle}`], '主语是动作的承受者，说的是经常的情况，用一般现在时的被动语态 is done。'],
                [(x) => `—Who usually ${x.third} ${x.rest} here? —It ____ (${x.base}) by the volunteers.`, (x) => `is ${x.participle}`, (x) => [x.third, `is ${x.ing}`, `was ${x.past}`], 'it 指代动作的承受者，用 is done。'],
                [(x) => `Look at the sign: ${x.rest} must not ____ (${x.base}) in the hall.`, (x) => `be ${x.participle}`, (x) => [x.base, x.participle, `be ${x.ing}`], '含情态动词的被动语态：must + be + 过去分词。'],
              ],
              4,
              0,
              PASSIVE_VERBS,
            ),
          },
          {
            title: '1.2 一般过去时的被动语态',
            point: '被动语态',
            make: verbForm(
              [
                [(x) => `${x.rest[0].toUpperCase()}${x.rest.slice(1)} ____ (${x.base}) by the team yesterday.`, (x) => `was ${x.participle}`, (x) => [`is ${x.participle}`, x.past, `was ${x.ing}`], '主语是动作的承受者，yesterday 提示一般过去时，用 was done。'],
                [(x) => `Last spring ${x.rest} ____ (${x.base}) by the Grade 9 students.`, (x) => `was ${x.participle}`, (x) => [x.past, `is ${x.participle}`, `were ${x.participle}`], 'last spring 表示过去，主语是承受者，用 was done。'],
                [(x) => `—When did it happen? —${x.rest[0].toUpperCase()}${x.rest.slice(1)} ____ (${x.base}) two days ago.`, (x) => `was ${x.participle}`, (x) => [x.past, `has ${x.participle}`, `is ${x.participle}`], 'two days ago 提示一般过去时的被动语态。'],
                [(x) => `The teacher told us that ${x.rest} ____ (${x.base}) the week before.`, (x) => `was ${x.participle}`, (x) => [x.past, `is ${x.participle}`, `has ${x.participle}`], 'the week before 提示过去，主语是承受者，用 was done。'],
              ],
              4,
              7,
              PASSIVE_VERBS,
            ),
          },
        ],
      },
      {
        title: 'Unit 2 Clauses',
        point: '复合句',
        sections: [
          { title: '2.1 定语从句', point: '定语从句', make: fromItems(RELATIVES, 4) },
          { title: '2.2 反意疑问句', point: '反意疑问句', make: fromItems(TAGS, 4) },
          { title: '2.3 感叹句', point: '感叹句', make: fromItems(EXCLAMATIONS, 3) },
        ],
      },
      {
        title: 'Unit 3 Review',
        point: '动词的时态',
        sections: [
          {
            title: '3.1 现在完成时（二）',
            point: '现在完成时',
            make: verbForm(
              [
                [(x) => `She ____ just ____ (${x.base}) ${x.rest}.`, (x) => `has; ${x.participle}`, (x) => [`have; ${x.participle}`, `has; ${x.past === x.participle ? x.ing : x.past}`, `is; ${x.ing}`], 'just 提示现在完成时，主语 she 用 has done。'],
                [(x) => `My uncle ____ (${x.base}) ${x.rest} since he moved to Hangzhou.`, (x) => `has ${x.participle}`, (x) => [x.past, `have ${x.participle}`, x.third], 'since 引导的时间状语提示现在完成时。'],
                [(x) => `—How long have you ____ (${x.base}) ${x.rest}? —For about two years.`, (x) => x.participle, (x) => [x.past === x.participle ? x.ing : x.past, x.base, x.ing], 'How long have you ...? 用现在完成时，have 后接过去分词。'],
                [(x) => `Up to now, the club ____ (${x.base}) ${x.rest} many times.`, (x) => `has ${x.participle}`, (x) => [x.past, `is ${x.ing}`, `have ${x.participle}`], 'up to now 提示现在完成时，主语单数用 has done。'],
              ],
              3,
              4,
            ),
          },
          {
            title: '3.2 时态综合',
            point: '一般过去时',
            make: verbForm(
              [
                [(x) => `Two days ago, they ____ (${x.base}) ${x.rest}.`, (x) => x.past, (x) => [`have ${x.participle}`, x.third, `will ${x.base}`], 'two days ago 表示过去，用一般过去时。'],
                [(x) => `Look! Mr Wu ____ (${x.base}) ${x.rest} with the Grade 7 boys.`, (x) => `is ${x.ing}`, (x) => [x.third, x.past, `was ${x.ing}`], 'Look! 提示正在进行，用现在进行时。'],
                [(x) => `I ____ (${x.base}) ${x.rest} with my cousin as soon as I get there.`, (x) => `will ${x.base}`, (x) => [x.past, x.base, `have ${x.participle}`], 'as soon as 从句用一般现在时表将来，主句用一般将来时。'],
                [(x) => `Amy ____ (${x.base}) ${x.rest} twice since last month.`, (x) => `has ${x.participle}`, (x) => [x.past, x.third, `have ${x.participle}`], 'since last month 提示现在完成时。'],
              ],
              3,
              9,
            ),
          },
          { title: '3.3 时间介词（复习）', point: '介词', make: (rng, i) => fromItems(TIME_PREPOSITIONS, 2)(rng, i + 5) },
        ],
      },
    ],
  },
];
