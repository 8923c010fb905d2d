// Terminals and the students who use them, through the real API: every terminal has its own random
// secret, shown once when registered or rotated and in no list, detail or export, and a rotated one
// is refused at once; each terminal is held to per-terminal limits (a Chinese 429 with
// Retry-After), counted only for correctly signed requests; a named 学生心声 needs the student's
// terminal PIN, which the school admin sets, resets and imports, and wrong PINs lock it; the
// psychology teacher sees an anonymous message's time to the hour, and partners see no student's
// name with the time they stood at a terminal.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, multipart, readRows, workbook, XLSX } from '../support/school';
import { demoDevice, injectTransport } from '../support/devices';
import { rows } from '../../server/db/query';
import { DeviceClient } from '../../server/devices/client';
import { demoTerminalSecrets, replacePublishedDemoSecrets } from '../../server/devices/demoSecrets';
import { signedHeaders } from '../../server/modules/devices/signature';
import { demoStudentPin } from '../../server/auth/terminalPins';
import { DEVICE_RATE_LIMITS, STUDENT_VOICE_LIMIT } from '../../src/domain/devices';

let t: TestApp;
let c: ReturnType<typeof client>;
const DEVICES = '/api/wrongbook/v1.0/partner/devices';
const BOARD = '/api/wrongbook/v1.0/partner/board';
const VOICES = '/api/device/v1/heartVoices';
const q = <T>(query: ReturnType<typeof sql>) => rows<T>(t.database.db, query);

interface Student {
  id: number;
  name: string;
  studentNo: string;
}

/** Students of the demo school who may write (14 or older, or with a guardian's consent), each used by one test. */
let writers: Student[];
let nextWriter = 0;
const writer = () => writers[nextWriter++];

const voice = (body: Record<string, unknown>) => ({ category: 5, mood: 4, content: '今天食堂的红烧肉很好吃。', anonymous: false, ...body });
const post = (device: DeviceClient, body: Record<string, unknown>) => device.send('POST', VOICES, voice(body));
/** A PIN that is not the student's (the demo's PIN with its last digit changed). */
const wrongPin = (s: Student) => demoStudentPin(s.studentNo).replace(/.$/, (d) => String((Number(d) + 1) % 10));

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  writers = await q<Student>(sql`
    SELECT s.id, s.name, s.student_no AS "studentNo" FROM students s JOIN schools sc ON sc.id = s.school_id
     WHERE sc.name = '杭州市西湖区实验中学' AND s.status = 0 AND EXISTS (SELECT 1 FROM guardian_consents gc WHERE gc.student_id = s.id)
       AND (SELECT count(*) FROM students o WHERE o.school_id = s.school_id AND o.name = s.name) = 1
     ORDER BY s.id LIMIT 60`);
}, 180_000);
afterAll(() => t.close());

describe('per-terminal secrets', () => {
  it('gives every demo terminal its own random secret, none derived from a key in the source', async () => {
    const secrets = await demoTerminalSecrets(t.database.db);
    expect(secrets.size).toBe(30);
    expect(new Set(secrets.values()).size).toBe(30);
    for (const [serial, secret] of secrets) {
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      expect(secret).not.toBe(createHmac('sha256', 'xuezhu-demo-terminals').update(serial).digest('hex'));
    }
    // A database seeded when secrets came from the published key gets random ones at start.
    const [serial] = [...secrets.keys()].slice(-1);
    const published = createHmac('sha256', 'xuezhu-demo-terminals').update(serial).digest('hex');
    await t.database.db.execute(sql`UPDATE devices SET secret = ${published} WHERE serial = ${serial}`);
    expect(await replacePublishedDemoSecrets(t.database.db)).toBe(1);
    const replaced = (await demoTerminalSecrets(t.database.db)).get(serial)!;
    expect(replaced).toMatch(/^[0-9a-f]{64}$/);
    expect(replaced).not.toBe(published);
    expect(await replacePublishedDemoSecrets(t.database.db)).toBe(0);
  });

  it('shows a registered terminal’s secret once; a rotated secret refuses the old one at once', async () => {
    const registered = await c.post('partner3', `${DEVICES}/register`, { serial: 'XZT-TEST-0001', model: 'XZ-P100' });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json().msg).toBe('已登记设备XZT-TEST-0001，请将密钥写入终端');
    const { deviceId, secret } = registered.json().data as { deviceId: number; secret: string };
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await c.post('partner2', `${DEVICES}/register`, { serial: 'XZT-TEST-0001', model: 'XZ-P200' })).json()).toMatchObject({ code: 409, msg: '设备编号XZT-TEST-0001已登记，不能重复登记' });
    expect((await c.post('partner3', `${DEVICES}/register`, { serial: 'bad serial!', model: 'XZ-P100' })).json()).toMatchObject({ code: 400, msg: '设备编号格式不正确' });

    // In the partner's stock; bound to its school it signs like any terminal.
    const school = (await q<{ id: number }>(sql`SELECT id FROM schools WHERE name = '杭州市西湖区实验中学'`))[0].id;
    await c.done('partner3', `${DEVICES}/bind`, { deviceIds: [deviceId], schoolId: school });
    const terminal = new DeviceClient('XZT-TEST-0001', secret, injectTransport(t.app));
    const beat = { paperLeft: 480, jammed: false, firmware: '2.4.0' };
    expect((await terminal.send('POST', '/api/device/v1/heartbeat', beat)).status).toBe(200);

    const rotated = await c.post('partner3', `${DEVICES}/rotateSecret`, { deviceId });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json().msg).toBe('已重置设备XZT-TEST-0001的密钥，旧密钥已失效');
    const fresh = rotated.json().data.secret as string;
    expect(fresh).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh).not.toBe(secret);
    // The old secret was cached by the heartbeat above: it is refused all the same.
    expect((await terminal.send('POST', '/api/device/v1/heartbeat', beat)).body).toMatchObject({ code: 401, msg: '设备签名校验失败' });
    const renewed = new DeviceClient('XZT-TEST-0001', fresh, injectTransport(t.app));
    expect((await renewed.send('POST', '/api/device/v1/heartbeat', beat)).status).toBe(200);

    // No list, detail, history or export carries either secret.
    const export_ = await c.get('partner3', `${DEVICES}/export?keyword=XZT`);
    expect(export_.statusCode).toBe(200);
    const payloads = [
      (await c.get('partner3', `${DEVICES}/page?keyword=XZT`)).body,
      (await c.get('partner1', `${DEVICES}/page?size=100`)).body,
      (await c.get('partner3', `${DEVICES}/detail?deviceId=${deviceId}`)).body,
      (await c.get('partner3', `${DEVICES}/events?deviceId=${deviceId}&size=50`)).body,
      (await c.get('partner3', `${DEVICES}/printJobs?deviceId=${deviceId}`)).body,
      (await c.get('partner3', `${DEVICES}/daily?deviceId=${deviceId}`)).body,
      (await c.get('partner3', `${BOARD}/school?schoolId=${school}`)).body,
      JSON.stringify(await readRows(export_.rawPayload)),
    ];
    for (const body of payloads) {
      expect(body).not.toContain(secret);
      expect(body).not.toContain(fresh);
      expect(body).not.toContain('"secret"');
    }
    const events = await c.data('partner3', `${DEVICES}/events?deviceId=${deviceId}&size=50`);
    expect(events.records.map((e: { kind: string }) => e.kind)).toEqual(expect.arrayContaining(['registered', 'bound', 'secretRotated']));
  });

  it('rotates only a terminal of the caller’s subtree, for partners only', async () => {
    const [theirs] = await q<{ id: number }>(sql`SELECT d.id FROM devices d JOIN schools s ON s.id = d.school_id WHERE s.name = '杭州市拱墅区文澜中学' ORDER BY d.id LIMIT 1`);
    expect((await c.post('partner3', `${DEVICES}/rotateSecret`, { deviceId: theirs.id })).json()).toMatchObject({ code: 404, msg: '设备不存在' });
    for (const user of ['teacher', 'schooladmin', 'psych']) {
      expect((await c.post(user, `${DEVICES}/rotateSecret`, { deviceId: theirs.id })).statusCode, user).toBe(403);
      expect((await c.post(user, `${DEVICES}/register`, { serial: 'XZT-TEST-0002', model: 'XZ-P100' })).statusCode, user).toBe(403);
    }
    // The level-2 partner above the owner may rotate it.
    expect((await c.post('partner2', `${DEVICES}/rotateSecret`, { deviceId: theirs.id })).statusCode).toBe(200);
  });
});

describe('per-terminal limits', () => {
  it('answers a Chinese 429 with Retry-After past the sign-in limit; unsigned requests spend nothing', async () => {
    const terminal = await demoDevice(t.app, 2);
    const [s] = await q<{ studentNo: string }>(sql`SELECT s.student_no AS "studentNo" FROM students s JOIN devices d ON d.school_id = s.school_id WHERE d.serial = ${terminal.serial} AND s.status = 0 LIMIT 1`);
    const body = JSON.stringify({ userKind: 1, studentNo: s.studentNo });
    // Someone without the secret sends many sign-ins in the terminal's name: all refused, none counted.
    for (let i = 0; i < DEVICE_RATE_LIMITS.signIn.max + 10; i++) {
      const forged = signedHeaders(terminal.serial, 'f'.repeat(64), 'POST', '/api/device/v1/signIn', body);
      expect((await injectTransport(t.app)('POST', '/api/device/v1/signIn', body, { ...forged, 'content-type': 'application/json' })).status).toBe(401);
    }
    for (let i = 0; i < DEVICE_RATE_LIMITS.signIn.max; i++) {
      expect((await terminal.send('POST', '/api/device/v1/signIn', { userKind: 1, studentNo: s.studentNo })).status).toBe(200);
    }
    const refused = await terminal.send('POST', '/api/device/v1/signIn', { userKind: 1, studentNo: s.studentNo });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/^本终端登录过于频繁，请(\d+秒|1分钟)后再试$/);
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(DEVICE_RATE_LIMITS.signIn.seconds);
    // Other terminals and other calls of this one are not held up.
    expect((await terminal.send('POST', '/api/device/v1/heartbeat', { paperLeft: 300, jammed: false, firmware: '2.4.0' })).status).toBe(200);
    expect((await (await demoDevice(t.app, 5)).send('POST', '/api/device/v1/signIn', { userKind: 1, studentNo: s.studentNo })).status).toBe(200);
  });

  it('takes a bounded number of 学生心声 per terminal', async () => {
    const terminal = await demoDevice(t.app, 3);
    for (let i = 0; i < DEVICE_RATE_LIMITS.heartVoice.max; i++) {
      const reply = await post(terminal, { studentId: writer().id, anonymous: true });
      expect(reply.status, reply.body.msg).toBe(200);
    }
    const refused = await post(terminal, { studentId: writer().id, anonymous: true });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/^本终端提交心声过于频繁，请\d+分钟后再试。.*12355/);
    expect(refused.retryAfter).toBeGreaterThan(DEVICE_RATE_LIMITS.heartVoice.seconds - 120);
  });

  it('takes a few 学生心声 per student, whichever terminal', async () => {
    const student = writer();
    const [a, b] = [await demoDevice(t.app, 5), await demoDevice(t.app, 6)];
    for (let i = 0; i < STUDENT_VOICE_LIMIT.max; i++) expect((await post(i % 2 ? a : b, { studentId: student.id, anonymous: true })).status).toBe(200);
    for (const terminal of [a, b]) {
      const refused = await post(terminal, { studentId: student.id, anonymous: true });
      expect(refused.status).toBe(429);
      expect(refused.body.msg).toMatch(/^该学生提交心声过于频繁，请\d+分钟后再试。.*12355/);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
  });
});

describe('student PIN at the terminal', () => {
  let terminal: DeviceClient;
  beforeAll(async () => {
    terminal = await demoDevice(t.app, 4);
  });

  it('refuses a named message without the PIN or with a wrong one, and takes the right one', async () => {
    const s = writer();
    expect((await post(terminal, { studentId: s.id })).body).toMatchObject({ code: 401, msg: '实名提交心声需要输入学生本人的终端PIN' });
    expect((await post(terminal, { studentId: s.id, pin: wrongPin(s) })).body).toMatchObject({ code: 401, msg: '终端PIN不正确，再错4次将暂时锁定' });
    expect((await post(terminal, { studentId: s.id, pin: '12ab56' })).body).toMatchObject({ code: 400, msg: '终端PIN格式不正确' });
    const right = await post(terminal, { studentId: s.id, pin: demoStudentPin(s.studentNo) });
    expect(right.status, right.body.msg).toBe(200);
    const [row] = await q<{ verified: boolean; failures: number }>(
      sql`SELECT v.pin_verified AS verified, s.pin_failures AS failures FROM heart_voices v JOIN students s ON s.id = v.student_id WHERE v.id = ${(right.body.data as { id: number }).id}`,
    );
    // The right PIN clears the count of wrong ones.
    expect(row).toEqual({ verified: true, failures: 0 });
    // Anonymous: no PIN needed (marked unproved); a PIN given is checked.
    const anonymous = await post(terminal, { studentId: s.id, anonymous: true });
    expect(anonymous.status).toBe(200);
    expect((await q<{ v: boolean }>(sql`SELECT pin_verified AS v FROM heart_voices WHERE id = ${(anonymous.body.data as { id: number }).id}`))[0].v).toBe(false);
    expect((await post(terminal, { studentId: s.id, anonymous: true, pin: wrongPin(s) })).status).toBe(401);
  });

  it('locks the PIN after five wrong ones, even for the right one, until the school admin resets it', async () => {
    const s = writer();
    for (let i = 4; i >= 1; i--) expect((await post(terminal, { studentId: s.id, pin: wrongPin(s) })).body.msg).toBe(`终端PIN不正确，再错${i}次将暂时锁定`);
    const locked = await post(terminal, { studentId: s.id, pin: wrongPin(s) });
    expect(locked.status).toBe(423);
    expect(locked.body.msg).toBe('终端PIN错误次数过多，已暂时锁定，请15分钟后再试，或请学校管理员重置终端PIN');
    expect(locked.retryAfter).toBeGreaterThan(14 * 60);
    const stillLocked = await post(terminal, { studentId: s.id, pin: demoStudentPin(s.studentNo) });
    expect(stillLocked.status).toBe(423);
    // The admin's list says so.
    const listed = await c.data('schooladmin', `/api/vesta/student/page?keyword=${s.studentNo}`);
    expect(listed.records[0].terminalPin).toBe(2);

    const reset = await c.done('schooladmin', '/api/vesta/student/terminalPin', { studentId: s.id });
    expect(reset.pin).toMatch(/^\d{6}$/);
    expect((await c.data('schooladmin', `/api/vesta/student/page?keyword=${s.studentNo}`)).records[0].terminalPin).toBe(1);
    if (reset.pin !== demoStudentPin(s.studentNo)) expect((await post(terminal, { studentId: s.id, pin: demoStudentPin(s.studentNo) })).status).toBe(401);
    expect((await post(terminal, { studentId: s.id, pin: reset.pin })).status).toBe(200);
  });

  it('refuses a named message of a student without a PIN', async () => {
    const s = writer();
    await t.database.db.execute(sql`UPDATE students SET terminal_pin_hash = NULL WHERE id = ${s.id}`);
    expect((await post(terminal, { studentId: s.id, pin: '314159' })).body).toMatchObject({ code: 403, msg: '该学生尚未设置终端PIN，请联系学校管理员设置后再实名提交，也可以选择匿名提交' });
    expect((await c.data('schooladmin', `/api/vesta/student/page?keyword=${s.studentNo}`)).records[0].terminalPin).toBe(0);
  });
});

describe('the school admin sets terminal PINs', () => {
  const SET = '/api/vesta/student/terminalPin';

  it('sets a typed PIN or draws one, shown once; the list and export never carry it', async () => {
    const s = writer();
    const typed = await c.post('schooladmin', SET, { studentId: s.id, pin: '246813' });
    expect(typed.json()).toMatchObject({ code: 200, msg: '终端PIN已设置', data: { studentId: s.id, pin: '246813' } });
    const terminal = await demoDevice(t.app, 5);
    expect((await post(terminal, { studentId: s.id, pin: '246813' })).status).toBe(200);
    const drawn = await c.post('schooladmin', SET, { studentId: s.id });
    expect(drawn.json().msg).toBe('终端PIN已重置，请告知学生本人');
    const pin = drawn.json().data.pin as string;
    expect(pin).toMatch(/^\d{6}$/);
    for (const bad of [
      ['123456', '终端PIN过于简单（如123456、000000），请换一个'],
      ['000000', '终端PIN过于简单（如123456、000000），请换一个'],
      ['12a456', '终端PIN须为6位数字'],
      ['1234567', '终端PIN长度不能超过6个字符'],
    ]) {
      expect((await c.post('schooladmin', SET, { studentId: s.id, pin: bad[0] })).json()).toMatchObject({ code: 400, msg: bad[1] });
    }
    const [{ hash }] = await q<{ hash: string }>(sql`SELECT terminal_pin_hash AS hash FROM students WHERE id = ${s.id}`);
    const page = (await c.get('schooladmin', `/api/vesta/student/page?keyword=${s.studentNo}`)).body;
    const exported = JSON.stringify(await readRows((await c.get('schooladmin', `/api/vesta/student/exportStudentData?keyword=${s.studentNo}`)).rawPayload));
    for (const body of [page, exported]) {
      expect(body).not.toContain(hash);
      expect(body).not.toContain(`"${pin}"`);
    }
  });

  it('only the school admin of that school: another school’s student is 404, a teacher 403', async () => {
    const s = writers[0];
    const [other] = await q<{ id: number }>(sql`SELECT s.id FROM students s JOIN schools sc ON sc.id = s.school_id WHERE sc.name = '宁波市海曙区育才中学' LIMIT 1`);
    expect((await c.post('schooladmin', SET, { studentId: other.id })).json()).toMatchObject({ code: 404, msg: '学生不存在' });
    expect((await c.post('schooladmin2', SET, { studentId: s.id, pin: '246813' })).json()).toMatchObject({ code: 404, msg: '学生不存在' });
    for (const [user, role] of [['teacher', undefined], ['teacher', 'mpTeacher'], ['psych', undefined], ['principal', undefined], ['partner3', undefined]] as const) {
      const res = await c.post(user, SET, { studentId: s.id, pin: '246813' }, role);
      expect(res.statusCode, `${user} ${role}`).toBe(403);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('imports PINs with the roster (终端PIN or 卡片码), refusing a bad one, and they work at the terminal', async () => {
    const [cls] = await q<{ gradeName: string; className: string }>(sql`
      SELECT g.name AS "gradeName", c.name AS "className" FROM classes c JOIN grades g ON g.id = c.grade_id JOIN schools s ON s.id = c.school_id
       WHERE s.name = '杭州市西湖区实验中学' AND g.graduated_year IS NULL ORDER BY g.level DESC, c.id LIMIT 1`);
    const upload = async (header: string, data: string[][]) =>
      c.upload('schooladmin', '/api/vesta/student/importData', multipart({}, { name: '学生.xlsx', content: await workbook(['姓名*', '学号*', '性别', '年级*', '班级*', '家长手机号', header], data), type: XLSX }));
    const bad = await upload('终端PIN', [
      ['林一', 'PIN-001', '男', cls.gradeName, cls.className, '', '13579'],
      ['林二', 'PIN-002', '女', cls.gradeName, cls.className, '', '111111'],
    ]);
    expect(bad.statusCode).toBe(422);
    const back = await readRows(bad.rawPayload);
    expect(back[1][7]).toBe('终端PIN须为6位数字');
    expect(back[2][7]).toBe('终端PIN过于简单（如123456、000000），请换一个');

    expect((await upload('终端PIN', [['林一', 'PIN-001', '男', cls.gradeName, cls.className, '', '135792']])).json().data).toMatchObject({ created: 1 });
    expect((await upload('卡片码', [['林二', 'PIN-002', '女', cls.gradeName, cls.className, '', '864209']])).json().data).toMatchObject({ created: 1 });
    const imported = await q<{ id: number; studentNo: string }>(sql`SELECT id, student_no AS "studentNo" FROM students WHERE student_no IN ('PIN-001', 'PIN-002') ORDER BY student_no`);
    const terminal = await demoDevice(t.app, 6);
    for (const [s, pin] of [[imported[0], '135792'], [imported[1], '864209']] as const) {
      await c.done('schooladmin', '/api/heart/v1/consents', { studentId: s.id, guardianName: '林女士', consentedOn: new Date().toISOString().slice(0, 10) });
      expect((await post(terminal, { studentId: s.id, pin: '975318' })).status).toBe(401);
      expect((await post(terminal, { studentId: s.id, pin })).status).toBe(200);
    }
    // A re-import without the column keeps the PIN; with it, replaces it.
    await upload('备注', [['林一', 'PIN-001', '男', cls.gradeName, cls.className, '', '']]);
    expect((await post(terminal, { studentId: imported[0].id, pin: '135792' })).status).toBe(200);
  });
});

describe('anonymous times and what partners see', () => {
  it('gives the psychology teacher an anonymous message’s time to the hour, a named one’s exactly', async () => {
    const terminal = await demoDevice(t.app, 5);
    const writtenAt = new Date(Date.now() - 2 * 86_400_000);
    writtenAt.setUTCMinutes(37, 12, 345);
    const [anonymous, named] = [writer(), writer()];
    const a = await post(terminal, { studentId: anonymous.id, anonymous: true, writtenAt: writtenAt.toISOString() });
    const n = await post(terminal, { studentId: named.id, pin: demoStudentPin(named.studentNo), writtenAt: writtenAt.toISOString() });
    const [aId, nId] = [(a.body.data as { id: number }).id, (n.body.data as { id: number }).id];
    const hour = new Date(writtenAt);
    hour.setUTCMinutes(0, 0, 0);
    const list = await c.data('psych', '/api/heart/v1/voices?size=200');
    expect(list.records.find((r: { id: number }) => r.id === aId).createdAt).toBe(hour.toISOString());
    expect(list.records.find((r: { id: number }) => r.id === nId).createdAt).toBe(writtenAt.toISOString());
    expect((await c.data('psych', `/api/heart/v1/voices/${aId}`)).createdAt).toBe(hour.toISOString());
    expect((await c.data('psych', `/api/heart/v1/voices/${nId}`)).createdAt).toBe(writtenAt.toISOString());
    // Every anonymous message of the list is on the hour.
    for (const r of list.records.filter((x: { anonymous: boolean }) => x.anonymous)) expect(r.createdAt).toMatch(/T\d\d:00:00\.000Z$/);

    // A crisis alert about an anonymous message is dated to the hour too.
    const crisis = await post(terminal, { studentId: writer().id, anonymous: true, content: '我不想活了。' });
    const notices = await c.data('psych', '/api/heart/v1/notices');
    const alert = notices.records.find((x: { voiceId: number }) => x.voiceId === (crisis.body.data as { id: number }).id);
    expect(alert.createdAt).toMatch(/T\d\d:00:00\.000Z$/);
  });

  it('shows partners no student’s name with the time they used a terminal', async () => {
    const terminal = await demoDevice(t.app, 1);
    const s = writer();
    // At the terminal: sign in, print, write an anonymous message.
    const signedIn = await terminal.send('POST', '/api/device/v1/signIn', { userKind: 1, studentNo: s.studentNo });
    expect(signedIn.status).toBe(200);
    const printedAt = new Date(Date.now() - 30_000).toISOString();
    const job = { clientJobId: 'privacy-1', userKind: 1, userId: s.id, app: 1, subjectId: null, pages: 2, printedAt };
    expect((await terminal.send('POST', '/api/device/v1/printJobs', { jobs: [job] })).status).toBe(200);
    expect((await post(terminal, { studentId: s.id, anonymous: true, content: '最近压力好大，晚上睡不着。' })).status).toBe(200);

    const [{ deviceId, schoolId }] = await q<{ deviceId: number; schoolId: number }>(sql`SELECT id AS "deviceId", school_id AS "schoolId" FROM devices WHERE serial = ${terminal.serial}`);
    const jobs = await c.data('partner3', `${DEVICES}/printJobs?deviceId=${deviceId}&size=20`);
    const mine = jobs.records.find((r: { printedAt: string }) => r.printedAt === printedAt);
    expect(mine).toMatchObject({ userKind: 1, userName: null, pages: 2 });

    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const range = `queryMode=custom&startDate=${today}&endDate=${today}`;
    const signIns = await c.get('partner3', `${BOARD}/student/signIns?schoolId=${schoolId}&studentId=${s.id}&${range}`);
    expect(signIns.json().data.records).toEqual([{ day: today, signIns: 1, deviceSerials: [terminal.serial] }]);
    const printed = await c.get('partner3', `${BOARD}/student/printJobs?schoolId=${schoolId}&studentId=${s.id}&${range}`);
    expect(printed.json().data.records).toEqual([expect.objectContaining({ day: today, pages: 2, deviceSerial: terminal.serial })]);
    const usage = await c.get('partner3', `${BOARD}/student?schoolId=${schoolId}&studentId=${s.id}&${range}`);
    expect(usage.json().data.kpis).toMatchObject({ signIns: 1, jobs: 1 });
    // The student's own pages: days, never a time of day.
    for (const body of [signIns.body, printed.body, usage.body]) {
      expect(body).not.toMatch(/T\d\d:\d\d/);
      expect(body).not.toContain(printedAt);
    }
    // The terminal's page: times, never a student's name.
    expect(JSON.stringify(jobs)).not.toContain(s.name);
  });
});
