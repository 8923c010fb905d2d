// Answers students write in fill-in boxes, and essay sentences, for the OCR corpus.

export const FILL_ANSWERS = [
  '举头望明月', '低头思故乡', '春眠不觉晓', '处处闻啼鸟', '海内存知己', '天涯若比邻', '白日依山尽', '黄河入海流',
  '欲穷千里目', '更上一层楼', '锄禾日当午', '汗滴禾下土', '谁知盘中餐', '粒粒皆辛苦', '床前明月光', '疑是地上霜',
  '光合作用', '长江', '北京', '三角形', '平行四边形', '万有引力', '氧气', '二氧化碳', '鲁迅', '朱自清',
  '3.14', 'x=5', '-2', '12', '100', '2024', 'y=2x+1', 'a+b', '45°', '1/2',
];

export const ESSAY_SENTENCES = [
  '我的老师姓王，她是一位温和可亲的语文老师。',
  '她每天都早早地来到学校，认真地批改我们的作业。',
  '记得有一次我生病了，王老师放学后专门到我家给我补课，让我非常感动。',
  '老师就像一盏明灯，照亮了我前进的道路。',
  '上课的时候，她总是面带微笑，用生动的语言给我们讲故事。',
  '我们都喜欢上她的课，因为她的课堂总是充满了欢声笑语。',
  '下课以后，她还常常和我们一起做游戏，一起聊天。',
  '每当我遇到困难的时候，她总会耐心地帮助我，鼓励我不要放弃。',
  '在她的帮助下，我的成绩越来越好，也变得越来越自信。',
  '我永远不会忘记我的老师，我要用优异的成绩来报答她。',
];

/** About `chars` characters of essay, cycling through the sentences, three to a paragraph. */
export function essayText(chars: number): string {
  let s = '';
  for (let i = 0; [...s.replace(/\n/g, '')].length < chars; i++) s += (i > 0 && i % 3 === 0 ? '\n' : '') + ESSAY_SENTENCES[i % ESSAY_SENTENCES.length]!;
  return s;
}
