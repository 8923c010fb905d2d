// 英语 exercise books for grades 7–9, written for the demo from word tables and sentence frames.
import { blank, single, type BookSpec, type Maker } from './draft';

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
const SUBJECTS3 = ['My brother', 'Li Lei', 'Our teacher', 'Grandma', 'Lucy', 'The boy next door'];
const at = <T>(list: readonly T[], i: number) => list[i % list.length];

/** A verb-form question: the blank takes the right form of the verb in brackets. */
function verbForm(frame: (verb: Verb, i: number) => string, answer: (verb: Verb) => string, wrong: (verb: Verb) => string[], rule: string, difficulty: number, offset = 0, verbs = VERBS): Maker {
  return (rng, i) => {
    const verb = at(verbs, i + offset);
    const correct = answer(verb);
    // Spare wrong forms for verbs whose forms coincide (read/read/read).
    return single(rng, frame(verb, i), correct, [...wrong(verb), verb.ing, `to ${verb.base}`, `${verb.base}ed`], `${rule}故选 ${correct}。`, difficulty, 2);
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
  return blank(`There are ${n} ____ (${one}) in the picture.`, many, `${n} 后用名词复数，${one} 的复数形式是 ${many}。`, 2, 2);
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
  return blank(`The children did the work ____ (${adjective}).`, adverb, `修饰动词要用副词，${adjective} 的副词形式是 ${adverb}。`, 3, 2);
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
            make: verbForm((x, i) => `${at(SUBJECTS3, i)} ____ (${x.base}) ${x.rest} every weekend.`, (x) => x.third, (x) => [x.base, x.ing, x.past], '主语是第三人称单数，every weekend 表示经常性动作，用一般现在时的三单形式。', 2),
          },
          {
            title: '2.2 现在进行时',
            point: '现在进行时',
            make: verbForm((x) => `Look! The students ____ (${x.base}) ${x.rest} now.`, (x) => `are ${x.ing}`, (x) => [`is ${x.ing}`, x.base, `are ${x.base}`], 'Look! 和 now 提示动作正在进行，主语复数用 are doing。', 2),
          },
          {
            title: '2.3 一般过去时',
            point: '一般过去时',
            make: verbForm((x) => `We ____ (${x.base}) ${x.rest} last Sunday.`, (x) => x.past, (x) => [x.base, x.third, `will ${x.base}`], 'last Sunday 表示过去，用一般过去时。', 3, 2),
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
            make: (rng, i) => {
              const a = at(ADJECTIVES, i);
              return single(rng, `This one is ____ (${a.base}) than ${a.thing} over there.`, a.more, [a.base, a.most, `more ${a.more}`], `than 提示用比较级，${a.base} 的比较级是 ${a.more}。故选 ${a.more}。`, 2, 2);
            },
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
            make: verbForm((x) => `Yesterday my cousin ____ (${x.base}) ${x.rest}.`, (x) => x.past, (x) => [x.base, x.third, x.ing], 'yesterday 表示过去，用一般过去时。', 2, 5),
          },
          {
            title: '1.2 过去进行时',
            point: '过去进行时',
            make: verbForm((x) => `At eight last night, Linda ____ (${x.base}) ${x.rest}.`, (x) => `was ${x.ing}`, (x) => [`were ${x.ing}`, x.past, `is ${x.ing}`], 'at eight last night 表示过去某一时刻正在进行，主语单数用 was doing。', 3),
          },
          {
            title: '1.3 一般将来时',
            point: '一般将来时',
            make: verbForm((x) => `We ____ (${x.base}) ${x.rest} next week.`, (x) => `will ${x.base}`, (x) => [x.past, x.third, `will ${x.ing}`], 'next week 表示将来，用 will + 动词原形。', 2, 3),
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
            make: (rng, i) => {
              const a = at(ADJECTIVES, i + 3);
              return single(rng, `Of all the choices, this is the ____ (${a.base}) one.`, a.most, [a.base, a.more, `most ${a.most}`], `三者及以上比较用最高级，${a.base} 的最高级是 ${a.most}。故选 ${a.most}。`, 3, 2);
            },
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
            make: verbForm((x) => `I ____ already ____ (${x.base}) ${x.rest}.`, (x) => `have; ${x.participle}`, (x) => [`has; ${x.participle}`, `have; ${x.ing}`, `had; ${x.base}`], 'already 提示现在完成时，主语 I 用 have done。', 3),
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
            make: verbForm((x) => `${x.rest[0].toUpperCase()}${x.rest.slice(1)} ____ (${x.base}) by the students every day.`, (x) => `is ${x.participle}`, (x) => [`was ${x.participle}`, x.third, `is ${x.ing}`], '主语是动作的承受者，every day 提示一般现在时，用 is done。', 4, 0, PASSIVE_VERBS),
          },
          {
            title: '1.2 一般过去时的被动语态',
            point: '被动语态',
            make: verbForm((x) => `${x.rest[0].toUpperCase()}${x.rest.slice(1)} ____ (${x.base}) by the team yesterday.`, (x) => `was ${x.participle}`, (x) => [`is ${x.participle}`, x.past, `was ${x.ing}`], '主语是动作的承受者，yesterday 提示一般过去时，用 was done。', 4, 7, PASSIVE_VERBS),
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
            make: verbForm((x) => `She ____ just ____ (${x.base}) ${x.rest}.`, (x) => `has; ${x.participle}`, (x) => [`have; ${x.participle}`, `has; ${x.past === x.participle ? x.ing : x.past}`, `is; ${x.ing}`], 'just 提示现在完成时，主语 she 用 has done。', 3, 4),
          },
          {
            title: '3.2 时态综合',
            point: '一般过去时',
            make: verbForm((x) => `Two days ago, they ____ (${x.base}) ${x.rest}.`, (x) => x.past, (x) => [`have ${x.participle}`, x.third, `will ${x.base}`], 'two days ago 表示过去，用一般过去时。', 3, 9),
          },
          { title: '3.3 时间介词（复习）', point: '介词', make: (rng, i) => fromItems(TIME_PREPOSITIONS, 2)(rng, i + 5) },
        ],
      },
    ],
  },
];
