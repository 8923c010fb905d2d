// 学生心声 of the demo: original messages written for it (exams, friends, parents, sports, pets,
// loneliness… and a few that must be flagged), sent by students of 杭州市西湖区实验中学 through
// its terminals over the last weeks (the device simulator posts them), and the psychology
// teacher's follow-up of some of them, made through the API as 宋心语, so the screen looks lived-in.
import { DEMO_PASSWORD } from '../seed/presence';
import { demoStudentPin } from '../auth/terminalPins';
import { FollowUpKind, RiskLevel } from '../../src/domain/heartVoices';
import type { DeviceClient } from './client';

export const DEMO_HEART_SCHOOL = '杭州市西湖区实验中学';

interface FollowUp {
  level: number;
  notes?: { kind: number; note: string }[];
}

interface DemoVoice {
  daysAgo: number;
  category: number;
  mood: number | null;
  anonymous: boolean;
  content: string;
  followUp?: FollowUp;
}

// Categories: 1 学习, 2 家庭, 3 同学关系, 4 情绪, 5 其他.
export const DEMO_VOICES: readonly DemoVoice[] = [
  { daysAgo: 80, category: 5, mood: 5, anonymous: false, content: '开学第一周，新班级的同学都挺好相处的，同桌还分了我半个月饼。' },
  { daysAgo: 77, category: 1, mood: 3, anonymous: false, content: '英语单词总是背了就忘，是不是只能死记硬背？有没有好一点的办法。' },
  { daysAgo: 74, category: 3, mood: 3, anonymous: true, content: '转学过来两个月了，还是有点想以前的同学，这边的人好像都有自己的小圈子。' },
  { daysAgo: 70, category: 5, mood: 5, anonymous: false, content: '我家的猫年糕生了三只小猫！想给它们起名字，大家有什么建议吗？' },
  { daysAgo: 66, category: 2, mood: 2, anonymous: true, content: '妈妈总拿我和表姐比，表姐考上了重点高中。我已经很努力了，可她好像看不见。' },
  {
    daysAgo: 63,
    category: 1,
    mood: 2,
    anonymous: true,
    content: '想s，作业写到十二点还没写完，第二天还要早起跑操。',
    followUp: {
      level: RiskLevel.normal,
      notes: [
        { kind: FollowUpKind.note, note: '结合上下文判断为作业量大时的抱怨，无自伤意图。' },
        { kind: FollowUpKind.outcome, note: '已在八年级心理课上讲时间管理与求助方式，并向年级组反馈作业总量。' },
      ],
    },
  },
  { daysAgo: 60, category: 5, mood: 4, anonymous: false, content: '国庆去外婆家住了一周，回来看到同学们，想死你们了！' },
  { daysAgo: 57, category: 1, mood: 4, anonymous: false, content: '数学老师讲题好有意思，第一次觉得函数没那么难。' },
  { daysAgo: 55, category: 3, mood: 2, anonymous: true, content: '和最好的朋友吵架了，因为我没告诉她我报了别的社团。我想道歉，但不知道怎么开口。' },
  { daysAgo: 52, category: 1, mood: 2, anonymous: false, content: '期中考试前一周，最近整夜睡不着，一闭眼就是没复习完的卷子。' },
  { daysAgo: 50, category: 5, mood: 5, anonymous: false, content: '篮球赛我们班进决赛了！周五大家都来给我们加油！' },
  { daysAgo: 47, category: 2, mood: 2, anonymous: false, content: '爷爷住院了，上课老走神，放学想去医院又要上晚自习。' },
  {
    daysAgo: 45,
    category: 2,
    mood: 2,
    anonymous: true,
    content: '真的好想离家出走，去一个谁也不认识我的地方。每天回家都是吵架。',
    followUp: {
      level: RiskLevel.attention,
      notes: [
        { kind: FollowUpKind.note, note: '在心理辅导室开放时间，该生主动前来，谈及父母近期争吵较多，无实际出走计划。' },
        { kind: FollowUpKind.headTeacher, note: '已请班主任留意该生情绪和出勤，如有异常及时告知心理老师。' },
        { kind: FollowUpKind.outcome, note: '约定每两周来辅导室聊一次，已转为常规关注。' },
      ],
    },
  },
  { daysAgo: 42, category: 1, mood: 5, anonymous: false, content: '期中考试进步了十二名，谢谢一直鼓励我的班主任。' },
  { daysAgo: 40, category: 3, mood: 2, anonymous: false, content: '在班上好像被孤立了，分组的时候没人愿意和我一组。' },
  { daysAgo: 38, category: 5, mood: 4, anonymous: false, content: '学校食堂的糖醋排骨太好吃了，能不能每周都有？' },
  { daysAgo: 35, category: 4, mood: 3, anonymous: true, content: '有时候一个人吃午饭，看别人都有伴，有点孤单。不过图书馆挺安静的。' },
  { daysAgo: 33, category: 2, mood: 2, anonymous: true, content: '爸妈离婚了，我跟着妈妈，周末才能见到爸爸。表面上没事，其实心里空落落的。' },
  { daysAgo: 31, category: 5, mood: 4, anonymous: false, content: '参加了科技节的机器人比赛，虽然没拿奖，但是学到了好多东西。' },
  {
    daysAgo: 28,
    category: 2,
    mood: 1,
    anonymous: false,
    content: '爸爸喝了酒就打我和妈妈，我好害怕周末回家。',
    followUp: {
      level: RiskLevel.high,
      notes: [
        { kind: FollowUpKind.headTeacher, note: '当天与班主任一起和学生面谈，学生手臂有淤青，已拍照留存。' },
        { kind: FollowUpKind.guardian, note: '联系学生母亲，母亲证实情况，已告知可向妇联和派出所求助，学校按规定向主管部门报告。' },
        { kind: FollowUpKind.note, note: '每周一次个别辅导，学生情绪逐步平稳。' },
      ],
    },
  },
  { daysAgo: 26, category: 4, mood: 2, anonymous: true, content: '晚上刷手机停不下来，第二天上课很困，想改又管不住自己。' },
  { daysAgo: 24, category: 3, mood: 3, anonymous: false, content: '同桌总借我的作业抄，我不想借又不好意思拒绝。' },
  { daysAgo: 22, category: 5, mood: 5, anonymous: false, content: '今天是我生日，好朋友偷偷准备了蛋糕，超级感动！' },
  { daysAgo: 20, category: 1, mood: 3, anonymous: false, content: '数学考试笑死，最后一题我算出来的答案是负的身高。' },
  { daysAgo: 18, category: 1, mood: 2, anonymous: true, content: '感觉老师只喜欢成绩好的同学，我举手从来叫不到我。' },
  {
    daysAgo: 16,
    category: 4,
    mood: 1,
    anonymous: true,
    content: '这次月考又没考好，爸妈说我没用。有时候真的觉得活着没意思，不知道能跟谁说。',
    followUp: {
      level: RiskLevel.high,
      notes: [
        { kind: FollowUpKind.note, note: '匿名来信，已在该班开展一次“压力与求助”主题班会，并公布心理辅导室开放时间和热线。' },
        { kind: FollowUpKind.headTeacher, note: '已请班主任留意月考后情绪低落、与家长关系紧张的学生。' },
      ],
    },
  },
  { daysAgo: 14, category: 2, mood: 3, anonymous: false, content: '我喜欢画画，可是爸爸说画画没用，让我多刷题。' },
  { daysAgo: 12, category: 5, mood: 5, anonymous: false, content: '小狗豆豆今天学会握手了，放学就想回家抱它。' },
  { daysAgo: 11, category: 3, mood: 2, anonymous: false, content: '班里有人给我起外号，虽然他们说是开玩笑，但我真的不喜欢。' },
  { daysAgo: 9, category: 1, mood: 2, anonymous: true, content: '马上要体考了，压力太大了，晚上躺在床上喘不过气。' },
  { daysAgo: 8, category: 5, mood: 4, anonymous: false, content: '今天体育课八百米跑进了3分40秒，累死了但是好开心！' },
  { daysAgo: 6, category: 5, mood: 5, anonymous: false, content: '合唱比赛我们班拿了一等奖，嗓子都喊哑了。' },
  { daysAgo: 5, category: 3, mood: 1, anonymous: false, content: '放学后那几个男生总在车棚堵我，逼我给钱，不给就推我，我不敢告诉老师。' },
  { daysAgo: 3, category: 4, mood: 1, anonymous: true, content: '晚上睡不着，又用刀片划了手臂，看到血反而觉得轻松一点。' },
  { daysAgo: 2, category: 1, mood: 3, anonymous: false, content: '物理实验课第一次自己连好了电路，灯亮的那一下好有成就感。' },
  { daysAgo: 1, category: 4, mood: 3, anonymous: true, content: '天气冷了，早上起床好难，但是看到操场上的银杏叶全黄了，心情好一点。' },
  { daysAgo: 0, category: 4, mood: 1, anonymous: true, content: '我不想活了，没有人在乎我。' },
];

interface Roster {
  schoolName: string;
  students: { userId: number; studentNo: string }[];
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Posts the demo messages through the terminals of the demo school, in turn (a terminal takes a
 * few messages in ten minutes, docs/api-devices.md), each from a student spread over the roster;
 * a named message with the student's terminal PIN (the demo's, from the student number). A
 * student under 14 whose guardian's consent is not recorded is refused by the API (403); the next
 * student writes instead. Returns the posted ids by the message's position in DEMO_VOICES.
 */
export async function postDemoHeartVoices(clients: readonly DeviceClient[], rosters: Map<DeviceClient, Roster>, now = new Date()): Promise<Map<number, number>> {
  const posted = new Map<number, number>();
  const terminals = clients.filter((c) => rosters.get(c)?.schoolName === DEMO_HEART_SCHOOL);
  if (!terminals.length) return posted;
  const students = rosters.get(terminals[0])!.students;
  let sent = 0;
  for (const [i, voice] of DEMO_VOICES.entries()) {
    // Late afternoon of that day, after school, as terminals are mostly used.
    const writtenAt = new Date(Math.min(now.getTime() - 60_000, now.getTime() - voice.daysAgo * DAY_MS - ((i * 37) % 120) * 60_000));
    for (let k = 0; k < students.length; k++) {
      const student = students[(i * 53 + k * 7) % students.length];
      const client = terminals[sent++ % terminals.length];
      const reply = await client.deliver('POST', '/api/device/v1/heartVoices', {
        studentId: student.userId,
        ...(voice.anonymous ? {} : { pin: demoStudentPin(student.studentNo) }),
        content: voice.content,
        mood: voice.mood,
        anonymous: voice.anonymous,
        category: voice.category,
        writtenAt: writtenAt.toISOString(),
      });
      if (reply.body.success) {
        posted.set(i, (reply.body.data as { id: number }).id);
        break;
      }
      if (reply.status !== 403) throw new Error(`${client.serial} heartVoices: ${reply.status} ${reply.body.msg}`);
    }
  }
  return posted;
}

async function call(url: string, token: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'blade-auth': `bearer ${token}`, 'x-active-role': 'psychologyteacher' },
    body: JSON.stringify(body),
  });
  const reply = (await res.json()) as { success: boolean; msg: string };
  if (!reply.success) throw new Error(`${path}: ${res.status} ${reply.msg}`);
}

/** The psychology teacher's follow-up of the demo messages that have one, through the API. */
export async function followUpDemoHeartVoices(url: string, posted: Map<number, number>): Promise<void> {
  const login = await fetch(`${url}/api/juno/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'psych', password: DEMO_PASSWORD }),
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  for (const [i, voice] of DEMO_VOICES.entries()) {
    const id = posted.get(i);
    if (!id || !voice.followUp) continue;
    await call(url, token, `/api/heart/v1/voices/${id}/level`, { level: voice.followUp.level });
    for (const note of voice.followUp.notes ?? []) await call(url, token, `/api/heart/v1/voices/${id}/followUps`, note);
  }
}
