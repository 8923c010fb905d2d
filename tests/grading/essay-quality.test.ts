// Texts that are not essays (one sentence copied out sixty times, the title written out, a text
// about something else) score near zero with a comment that says why; real essays, including
// one that repeats its key phrase on purpose, keep their marks; shuffling sentences costs structure.
import { describe, expect, it } from 'vitest';
import { essayText } from '../../server/grading/corpus/phrases.js';
import { scoreEssay, scoreEssayRubric, type LlmConfig } from '../../server/grading/index.js';

const TEACHER = [
  '我的老师姓王，她是一位和蔼可亲的语文老师。',
  '记得有一次，我生病了，没能去上学。放学后，王老师专门来到我家，给我补课。她笑着说：“别着急，慢慢来。”我听了，心里暖暖的。',
  '王老师上课的时候总是全神贯注，她的声音像山间的清泉一样动听。她对我们的作业一丝不苟，每一个错字都会圈出来。',
  '后来，我的成绩越来越好。王老师就像一盏明灯，照亮了我前进的道路。',
  '我爱我的老师，我永远不会忘记她对我的关心。',
].join('\n');
const BRIEF = { title: '我的老师', minChars: 150, fullMarks: 50 };

/** A refrain on purpose: "妈妈的手" opens three paragraphs and closes the essay. */
const MOTHER = [
  '妈妈的手，是一双粗糙的手。记得小时候，我总喜欢拉着妈妈的手去散步，她的手心暖暖的，像冬天里的太阳。',
  '妈妈的手，是一双勤劳的手。每天早上，她五点就起床给我们做早饭，然后洗衣服、打扫房间，一刻也不停。有一次我问她：“妈妈，你累不累？”她笑着说：“看到你们吃得香，我就不累。”',
  '妈妈的手，是一双温柔的手。我生病的时候，她整夜守在我的床边，用手轻轻地摸着我的额头，我心里踏实极了。',
  '后来我长大了，才发现妈妈的手上多了许多裂口。我握着妈妈的手，心里酸酸的。',
  '妈妈的手，我永远爱你。我懂得了，这双手里藏着妈妈对我们全部的爱。',
].join('\n');

describe('texts that are not essays score near zero and say why', () => {
  it('one short sentence written sixty times', () => {
    const r = scoreEssayRubric('我喜欢我的老师。'.repeat(60), BRIEF);
    expect(r.score).toBeLessThanOrEqual(5);
    expect(r.flags.map((f) => f.kind)).toContain('repeated');
    expect(r.comment).toContain('内容大量重复');
    expect(r.dimensions[0]!.comment).toContain('内容大量重复');
  });

  it('a real paragraph followed by one sentence copied out many times', () => {
    const r = scoreEssayRubric(TEACHER.split('\n')[0] + '我爱我的老师。'.repeat(40), BRIEF);
    expect(r.score).toBeLessThanOrEqual(5);
    expect(r.comment).toContain('内容大量重复');
  });

  it('the same text without punctuation, as OCR reads it line by line', () => {
    const r = scoreEssayRubric(Array.from({ length: 30 }, () => '我的老师很好她很关心我').join('\n'), BRIEF);
    expect(r.score).toBeLessThanOrEqual(5);
    expect(r.comment).toContain('内容大量重复');
  });

  it('the title copied out instead of an essay', () => {
    for (const text of ['我的老师', '题目：我的老师\n我的老师。我的老师。我的老师。']) {
      const r = scoreEssayRubric(text, BRIEF);
      expect(r.score).toBeLessThanOrEqual(5);
      expect(r.comment).toContain('抄写题目');
    }
  });

  it('a text about something else', () => {
    const park =
      '今天我们去公园玩。公园里有很多花，红的黄的紫的。小鸟在树上唱歌，小朋友在草地上奔跑。爸爸妈妈在旁边聊天，我觉得非常开心。后来天黑了，我们就回家了。我爱公园。';
    const r = scoreEssayRubric(park, BRIEF);
    expect(r.score).toBeLessThanOrEqual(5);
    expect(r.flags).toEqual([expect.objectContaining({ kind: 'offTopic' })]);
    expect(r.comment).toContain('与题目无关');
    // The same essay under its own title is marked normally.
    expect(scoreEssayRubric(park, { ...BRIEF, title: '快乐的一天在公园' }).score).toBeGreaterThan(15);
  });

  it('letters that are not Chinese writing', () => {
    const r = scoreEssayRubric('asdf qwer zxcv 1234 hjkl uiop asdf qwer zxcv', BRIEF);
    expect(r.score).toBeLessThanOrEqual(5);
    expect(r.comment).toContain('内容无法辨认');
  });

  it('a generous model does not lift a flagged text back up', async () => {
    const cfg: LlmConfig = { baseUrl: 'http://127.0.0.1:9', apiKey: 'k', model: 'm', timeoutMs: 200, retries: 0, maxTokens: 100, maxInputChars: 100 };
    const r = await scoreEssay('我喜欢我的老师。'.repeat(60), BRIEF, cfg);
    expect(r.score).toBeLessThanOrEqual(5);
  });
});

describe('real essays are not penalised', () => {
  it('a good essay keeps its marks and has no flags', () => {
    const r = scoreEssayRubric(TEACHER, BRIEF);
    expect(r.flags).toEqual([]);
    expect(r.score).toBeGreaterThanOrEqual(45);
    expect(r.comment).not.toMatch(/重复|无关|抄写/);
  });

  it('an essay that repeats its key phrase on purpose', () => {
    const r = scoreEssayRubric(MOTHER, { title: '妈妈的手', minChars: 200, fullMarks: 50 });
    expect(r.flags).toEqual([]);
    expect(r.score).toBeGreaterThan(35);
  });

  it('an essay with its title as the first line', () => {
    const r = scoreEssayRubric(`我的老师\n${TEACHER}`, BRIEF);
    expect(r.flags).toEqual([]);
    expect(r.score).toBeGreaterThanOrEqual(45);
  });

  it('the corpus essay on the demo language sheet is still marked as an essay', () => {
    const r = scoreEssayRubric(essayText(700), { title: '题目：我的老师', minChars: 600, fullMarks: 50 });
    expect(r.flags).toEqual([]);
    expect(r.score).toBeGreaterThan(30);
  });

  it('a short essay read from a photo is low for its length, not zero', () => {
    const r = scoreEssayRubric(['我的家乡在江南水乡', '春天河边的柳树发芽了', '夏天荷花开满池塘', '我爱我的家乡'].join('\n'), { title: '我的家乡', fullMarks: 50 });
    expect(r.flags).toEqual([]);
    expect(r.score).toBeGreaterThan(5);
  });
});

describe('sentence order counts for structure', () => {
  const sentences = scoreEssayRubric(TEACHER, BRIEF).sentences;
  const structure = (text: string) => scoreEssayRubric(text, BRIEF).dimensions.find((d) => d.key === 'structure')!;
  const original = structure(TEACHER);

  it('the original keeps full order and a positive comment', () => {
    expect(original.comment).not.toContain('顺序');
  });

  it('every shuffle of the sentences scores lower on structure than the original', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let k = 0; k < 8; k++) {
      const shuffled = [...sentences];
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      if (shuffled.join('') === sentences.join('')) continue;
      const s = structure(shuffled.join(''));
      expect(s.score, shuffled.join('')).toBeLessThan(original.score);
    }
  });

  it('reversed sentences score lower and the comment says the order is confused', () => {
    const s = structure([...sentences].reverse().join(''));
    expect(s.score).toBeLessThan(original.score);
    expect(s.comment).toContain('顺序');
  });
});
