// 物理 exercise books for grades 8–9 (physics starts in 八年级, as in Chinese junior schools): 八年级上册
// for the autumn term the demo seeds, 八年级下册 for the spring, 九年级全一册. Written for the demo:
// numbers are seeded, answers computed from the formula each section practises.
import { blank, forms, int, judge, nth, num, pick, single, solve, type BookSpec } from './draft';

export const physicsBooks: BookSpec[] = [
  {
    subject: '物理',
    gradeLevel: 8,
    title: '八年级物理上册 · 课时练习',
    edition: '学助原创',
    chapters: [
      {
        title: '第一章 机械运动',
        point: '机械运动',
        sections: [
          {
            title: '1.1 长度和时间的测量',
            point: '长度和时间的测量',
            make: forms(
              (rng) => {
                const cm = int(rng, 12, 980);
                return blank(`单位换算：${cm} cm = ______ m`, num(cm / 100), `1 m = 100 cm，所以 ${cm} cm = ${cm} ÷ 100 m = ${num(cm / 100)} m。`, 1, 2, [num(cm / 10), num(cm * 100), num(cm / 1000)]);
              },
              (rng) => {
                const [thing, value, unit] = pick(rng, [
                  ['一名中学生的身高约为 16', 16, 'dm'],
                  ['物理课本的长度约为 26', 26, 'cm'],
                  ['一支新铅笔的长度约为 1.8', 1.8, 'dm'],
                  ['教室门的高度约为 2', 2, 'm'],
                ] as const);
                return single(rng, `${thing}（　　）`, unit, ['mm', 'cm', 'dm', 'm', 'km'].filter((u) => u !== unit), `结合生活经验估测：${thing.replace(String(value), '')}${value} ${unit}最合理。`, 2, 3);
              },
              (rng) => {
                const start = int(rng, 10, 40) / 10;
                const len = int(rng, 15, 60) / 10;
                return blank(`用刻度尺测木块的长度，木块左端对准 ${num(start)} cm 刻度线，右端对准 ${num(start + len)} cm 刻度线，木块长 ______ cm`, num(len), `物体的长度等于两端读数之差：${num(start + len)} cm − ${num(start)} cm = ${num(len)} cm。`, 2, 2, [num(start + len), num(len * 10)]);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['多次测量求平均值可以减小误差。', true, '误差不能消除，但可以通过多次测量求平均值来减小。'],
                  ['误差就是测量中产生的错误，是可以避免的。', false, '错误可以避免，误差只能减小、不能消除。'],
                  ['用刻度尺测量时，读数要估读到分度值的下一位。', true, '长度测量要估读到分度值的下一位。'],
                ], i, 4);
                return judge(stem, ok, why, 1);
              },
            ),
          },
          {
            title: '1.2 运动的快慢',
            point: '速度',
            make: forms(
              (rng) => {
                const v = int(rng, 2, 25);
                const t = int(rng, 10, 120);
                return solve(`一辆自行车以 ${v} m/s 的速度匀速行驶了 ${t} s，通过的路程是多少米？`, `${v * t} m`, `由 $v = \\dfrac{s}{t}$ 得 $s = vt = ${v}\\ \\text{m/s} \\times ${t}\\ \\text{s} = ${v * t}\\ \\text{m}$。`, 2, 6, [`${num(t / v)} m`, `${v * t}`]);
              },
              (rng) => {
                const v = pick(rng, [10, 15, 20, 25, 30]);
                return blank(`单位换算：${v} m/s = ______ km/h`, String(v * 3.6), `1 m/s = 3.6 km/h，所以 ${v} m/s = ${num(v * 3.6)} km/h。`, 2, 2, [num(v / 3.6), String(v * 36)]);
              },
              (rng) => {
                const s = int(rng, 3, 12) * 100;
                const t = pick(rng, [50, 100, 150, 200, 250]);
                return single(rng, `小明骑车上学，家到学校的路程为 ${s} m，用时 ${t} s，他骑车的平均速度是（　　）`, `${num(s / t)} m/s`, [`${num(t / s)} m/s`, `${num((s / t) * 3.6)} m/s`, `${num(s / t + 2)} m/s`, `${num(s * t)} m/s`], `$v = \\dfrac{s}{t} = \\dfrac{${s}\\ \\text{m}}{${t}\\ \\text{s}} = ${num(s / t)}\\ \\text{m/s}$。`, 2);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['坐在行驶汽车里的乘客，以汽车为参照物是静止的。', true, '乘客相对汽车的位置没有改变。'],
                  ['速度越大的物体，通过的路程一定越长。', false, '路程还与时间有关。'],
                  ['判断物体是否运动，与所选的参照物有关。', true, '运动和静止是相对的。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
        ],
      },
      {
        title: '第二章 声现象',
        point: '声现象',
        sections: [
          {
            title: '2.1 声音的传播',
            point: '声音的产生与传播',
            make: forms(
              (rng) => {
                const t = int(rng, 2, 20) / 2;
                const d = (340 * t) / 2;
                return solve(`对着远处的山崖大喊一声，经过 ${num(t)} s 听到回声。已知声音在空气中的速度为 340 m/s，人离山崖多远？`, `${num(d)} m`, `声音往返的路程 $s = vt = 340 \\times ${num(t)} = ${num(340 * t)}\\ \\text{m}$，人到山崖的距离是它的一半：${num(d)} m。`, 3, 6, [`${num(2 * d)} m`]);
              },
              (rng) => {
                const [source, part] = pick(rng, [
                  ['敲响的鼓', '鼓面'],
                  ['正在发声的音叉', '音叉'],
                  ['拨动的吉他弦', '琴弦'],
                  ['吹响的笛子', '笛管内的空气柱'],
                ] as const);
                return blank(`${source}发声，是由于${part === '笛管内的空气柱' ? '' : ''}______ 在振动`, part, `声音是由物体的振动产生的，${source}发声时振动的是${part}。`, 1, 2);
              },
              (rng, i) => {
                const [stem, right, wrong, why] = nth<[string, string, string[], string]>([
                  ['声音在下列物质中传播得最快的是（　　）', '钢铁', ['空气', '水', '真空'], '一般情况下，声音在固体中传播最快，液体中次之，气体中最慢，真空不能传声。'],
                  ['把正在响铃的闹钟放在玻璃罩内，逐渐抽出罩内的空气，听到的铃声（　　）', '逐渐变小', ['逐渐变大', '不变', '音调变高'], '空气越来越少，传声的介质越来越少，铃声变小；由此推理真空不能传声。'],
                  ['古人“伏地听声”能及早发现敌人的马队，是因为（　　）', '声音在大地中传播得比在空气中快', ['马蹄声的音调高', '大地能把声音放大', '声音只能在大地中传播'], '固体传声比气体快，且效果好。'],
                ], i, 4);
                return single(rng, stem, right, wrong, why, 2);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['宇航员在太空中可以直接对话。', false, '太空是真空，不能传声，宇航员要靠无线电交谈。'],
                  ['一切正在发声的物体都在振动。', true, '声音是由物体振动产生的。'],
                  ['声音在 15 ℃ 的空气中传播速度约为 340 m/s。', true, '这是常用的声速。'],
                ], i, 4);
                return judge(stem, ok, why, 1);
              },
            ),
          },
          {
            title: '2.2 声音的特性',
            point: '声音的特性',
            make: forms(
              (_rng, i) => {
                const facts: [string, boolean, string][] = [
                  ['音调的高低由发声体振动的频率决定。', true, '频率越高，音调越高。'],
                  ['响度的大小只与发声体的振幅有关，与距离无关。', false, '响度与振幅有关，还与距发声体的远近有关。'],
                  ['超声波的频率高于 20000 Hz。', true, '人耳能听到的频率范围约为 20～20000 Hz，高于 20000 Hz 的是超声波。'],
                ];
                const [stem, ok, why] = nth(facts, i, 4);
                return judge(stem, ok, why, 2);
              },
              (rng, i) => {
                const [phrase, answer] = nth<[string, string]>([
                  ['“引吭高歌”中的“高”', '响度'],
                  ['“闻其声而知其人”依据的是', '音色'],
                  ['女高音的“高”', '音调'],
                ], i, 4);
                return single(rng, `${phrase}指声音的（　　）`, answer, ['音调', '响度', '音色', '频率'].filter((x) => x !== answer), `${phrase}，说的是${answer}。`, 2);
              },
              (rng) => {
                const f = pick(rng, [5, 8, 10, 15]);
                return blank(`某昆虫的翅膀在 ${f} s 内振动了 ${f * 400} 次，它振动的频率是 ______ Hz`, '400', `频率是每秒振动的次数：${f * 400} 次 ÷ ${f} s = 400 Hz。`, 2, 2, [String(f * 400), String(f * 400 * f)]);
              },
              (rng, i) => {
                const [way, answer] = nth<[string, string]>([
                  ['在教室周围植树', '在传播过程中减弱'],
                  ['摩托车安装消声器', '在声源处减弱'],
                  ['工人戴上防噪声耳罩', '在人耳处减弱'],
                ], i, 4);
                return single(rng, `“${way}”属于哪种控制噪声的方法？（　　）`, answer, ['在声源处减弱', '在传播过程中减弱', '在人耳处减弱', '改变声音的音色'].filter((x) => x !== answer), `${way}是${answer}噪声。`, 2);
              },
            ),
          },
        ],
      },
      {
        title: '第三章 光现象',
        point: '光现象',
        sections: [
          {
            title: '3.1 光的反射',
            point: '光的反射定律',
            make: forms(
              (rng) => {
                const between = int(rng, 10, 80);
                const incidence = 90 - between;
                return blank(`一束光与镜面的夹角为 ${between}°，则反射角为 ______°`, String(incidence), `入射角是入射光线与法线的夹角：$90^\\circ - ${between}^\\circ = ${incidence}^\\circ$，反射角等于入射角，为 $${incidence}^\\circ$。`, 2, 3, [String(between), String(2 * incidence)]);
              },
              (rng) => {
                const angle = int(rng, 2, 8) * 5;
                return single(rng, `入射光线与法线的夹角为 ${angle}°，则反射光线与入射光线的夹角为（　　）`, `${2 * angle}°`, [`${angle}°`, `${90 - angle}°`, `${180 - 2 * angle}°`, `${90 + angle}°`, `${2 * angle + 10}°`], `反射角等于入射角 ${angle}°，反射光线与入射光线的夹角为 $2 \\times ${angle}^\\circ = ${2 * angle}^\\circ$。`, 2);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['漫反射不遵循光的反射定律。', false, '镜面反射和漫反射都遵循光的反射定律。'],
                  ['在光的反射中，光路是可逆的。', true, '把反射光线逆着射回，反射光线会沿原入射光线射出。'],
                  ['我们能从各个方向看到黑板上的字，是因为发生了漫反射。', true, '粗糙表面把光反射向各个方向。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
              (rng, i) => {
                const [scene, answer] = nth<[string, string]>([
                  ['湖面上映出岸边树木的倒影', '光的反射'],
                  ['阳光下树木留下影子', '光的直线传播'],
                  ['插入水中的筷子看起来“折断”了', '光的折射'],
                ], i, 4);
                return single(rng, `“${scene}”是由于（　　）形成的`, answer, ['光的直线传播', '光的反射', '光的折射', '光的色散'].filter((x) => x !== answer), `${scene}，属于${answer}。`, 2);
              },
            ),
          },
          {
            title: '3.2 平面镜成像',
            point: '平面镜成像',
            make: forms(
              (rng) => {
                const d = int(rng, 1, 10) / 2;
                return single(rng, `小明站在平面镜前 ${num(d)} m 处，他在镜中的像到他本人的距离是（　　）`, `${num(2 * d)} m`, [`${num(d)} m`, `${num(d / 2)} m`, `${num(4 * d)} m`, `${num(2 * d + 1)} m`], `平面镜成像时像与物到镜面的距离相等，像到镜面 ${num(d)} m，所以像到人的距离为 ${num(2 * d)} m。`, 2);
              },
              (rng) => {
                const d = int(rng, 1, 10) / 2;
                return blank(`一支铅笔竖直放在平面镜前 ${num(d)} m 处，它的像到平面镜的距离是 ______ m`, num(d), `平面镜成像时像与物到镜面的距离相等，所以像到镜面的距离也是 ${num(d)} m。`, 1, 2, [num(2 * d)]);
              },
              (rng) => {
                const h = int(rng, 150, 175) / 100;
                const d = int(rng, 2, 6) / 2;
                return blank(`身高 ${num(h)} m 的同学站在平面镜前 ${num(d)} m 处，当他向镜面走近 0.5 m 时，像的高度为 ______ m`, num(h), `平面镜成的像与物体大小相等，走近时像的大小不变，仍为 ${num(h)} m（“近大远小”只是视觉感受）。`, 3, 2, [num(h + 0.5), num(h - 0.5)]);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['平面镜所成的像是虚像，不能用光屏承接。', true, '平面镜成像是反射光线的反向延长线会聚而成的虚像。'],
                  ['人离平面镜越近，镜中的像越大。', false, '像的大小始终与人等大。'],
                  ['探究平面镜成像时用玻璃板代替平面镜，是为了便于确定像的位置。', true, '玻璃板透光，能同时看到像和后面的蜡烛。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
        ],
      },
      {
        title: '第四章 质量与密度',
        point: '质量与密度',
        sections: [
          {
            title: '4.1 密度',
            point: '密度',
            make: forms(
              (rng) => {
                const [name, rho] = pick(rng, [
                  ['铝', 2.7],
                  ['铁', 7.9],
                  ['铜', 8.9],
                  ['冰', 0.9],
                ] as const);
                const v = int(rng, 2, 30) * 10;
                return solve(`一块体积为 ${v} cm³ 的${name}块，质量是 ${num(rho * v)} g，求它的密度（单位 g/cm³）。`, `${rho} g/cm³`, `$\\rho = \\dfrac{m}{V} = \\dfrac{${num(rho * v)}\\ \\text{g}}{${v}\\ \\text{cm}^3} = ${rho}\\ \\text{g/cm}^3$。`, 3, 6, [`${num(v / (rho * v))} g/cm³`, `${rho * 1000} g/cm³`]);
              },
              (rng) => {
                const rho = pick(rng, [0.8, 1.0, 2.7, 7.9, 13.6]);
                return blank(`单位换算：${rho} g/cm³ = ______ kg/m³`, num(rho * 1000), `1 g/cm³ = 1 × 10³ kg/m³，所以 ${rho} g/cm³ = ${num(rho * 1000)} kg/m³。`, 2, 2, [num(rho / 1000), num(rho * 100)]);
              },
              (rng) => {
                const v = int(rng, 2, 10);
                return single(rng, `一瓶 ${v} L 的矿泉水喝掉一半后，剩下的水（　　）`, '质量减半，密度不变', ['质量和密度都减半', '质量不变，密度减半', '质量和密度都不变'], '密度是物质的一种特性，与质量、体积无关；喝掉一半，质量减半，密度不变。', 2);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['一块冰熔化成水后，质量不变。', true, '质量不随物态的改变而改变。'],
                  ['由 $\\rho = \\dfrac{m}{V}$ 可知，物质的密度与质量成正比。', false, '密度是物质的特性，与质量和体积无关。'],
                  ['宇航员把一块月岩带回地球，月岩的质量变大了。', false, '质量不随位置改变。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
          {
            title: '4.2 测量物质的密度',
            point: '密度的测量',
            make: forms(
              (rng) => {
                const v1 = int(rng, 20, 50);
                const v2 = v1 + int(rng, 5, 30);
                const m = (v2 - v1) * pick(rng, [2, 3, 4]);
                return blank(`用量筒测小石块的体积：放入石块前水面在 ${v1} mL，放入后在 ${v2} mL；石块质量为 ${m} g。石块的密度为 ______ g/cm³`, num(m / (v2 - v1)), `$V = ${v2} - ${v1} = ${v2 - v1}\\ \\text{cm}^3$，$\\rho = \\dfrac{${m}}{${v2 - v1}} = ${num(m / (v2 - v1))}\\ \\text{g/cm}^3$。`, 3, 3, [num(m / v2), num((v2 - v1) / m)]);
              },
              (rng) => {
                const big = pick(rng, [50, 20]);
                const small = pick(rng, [5, 10]);
                const rider = int(rng, 1, 9) / 5;
                const m = big + small + rider;
                return blank(`用天平称物体质量，右盘中有 ${big} g 和 ${small} g 的砝码各一个，游码对应的示数是 ${num(rider)} g，物体的质量是 ______ g`, num(m), `物体质量 = 砝码总质量 + 游码示数 = ${big} + ${small} + ${num(rider)} = ${num(m)} g。`, 2, 2, [num(big + small - rider), String(big + small)]);
              },
              (rng, i) => {
                const [stem, right, wrong, why] = nth<[string, string, string[], string]>([
                  ['测量盐水密度时，下列步骤顺序最合理的是（　　）', '先测烧杯和盐水的总质量，倒一部分入量筒读体积，再测剩余部分的质量', ['先测空烧杯质量，再测烧杯和盐水总质量，最后全部倒入量筒测体积', '先用量筒测体积，再把盐水倒入烧杯测质量', '只测盐水体积，用体积除以 1 g/cm³'], '这样倒入量筒的盐水质量和体积对应，避免烧杯壁残留造成误差。'],
                  ['测小石块密度时，先用量筒测体积、再用天平测质量，测得的密度会（　　）', '偏大', ['偏小', '不变', '无法判断'], '石块从水中取出会沾水，测得的质量偏大，密度偏大。'],
                  ['测量不规则小木块（漂浮在水上）的体积，可以（　　）', '用细针把木块压入水中，读出水面变化', ['直接把木块放入量筒读数', '用刻度尺量它的边长', '称出质量后除以水的密度'], '木块漂浮不能完全浸没，用针压法使它浸没后再读体积的变化。'],
                ], i, 4);
                return single(rng, stem, right, wrong, why, 3);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['读量筒示数时，视线应与凹液面的底部相平。', true, '俯视读数偏大，仰视读数偏小。'],
                  ['调节天平平衡时，指针偏左应将平衡螺母向左调。', false, '指针偏左说明左盘重，平衡螺母应向右调。'],
                  ['称量时可以用手直接拿取砝码。', false, '要用镊子夹取，以免砝码生锈。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
        ],
      },
    ],
  },
  {
    subject: '物理',
    gradeLevel: 8,
    title: '八年级物理下册 · 课时练习',
    term: 2,
    edition: '学助原创',
    chapters: [
      {
        title: '第七章 力',
        point: '力',
        sections: [
          {
            title: '7.1 重力',
            point: '重力',
            make: forms(
              (rng) => {
                const m = int(rng, 2, 60) / 2;
                return blank(`质量为 ${num(m)} kg 的物体受到的重力是 ______ N（$g$ 取 10 N/kg）`, num(m * 10), `$G = mg = ${num(m)}\\ \\text{kg} \\times 10\\ \\text{N/kg} = ${num(m * 10)}\\ \\text{N}$。`, 1);
              },
              (rng) => {
                const g = int(rng, 2, 30) * 10;
                return blank(`一个物体重 ${g} N，它的质量是 ______ kg（$g$ 取 10 N/kg）`, num(g / 10), `$m = \\dfrac{G}{g} = \\dfrac{${g}}{10} = ${num(g / 10)}$ kg。`, 2, 2, [String(g * 10), String(g)]);
              },
              (rng) => {
                const m = int(rng, 3, 9);
                return single(rng, `宇航员把 ${m} kg 的仪器从地球带到月球上，仪器的（　　）`, '质量不变，重力变小', ['质量变小，重力变小', '质量和重力都不变', '质量变大，重力不变'], '质量不随位置改变；月球对物体的引力约为地球的六分之一，重力变小。', 2);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['重力的方向总是垂直向下的。', false, '重力的方向是竖直向下，不是垂直向下。'],
                  ['建筑工人用铅垂线检查墙是否竖直，利用了重力的方向竖直向下。', true, '铅垂线静止时沿竖直方向。'],
                  ['物体的重心一定在物体上。', false, '如圆环的重心在环的中心，不在物体上。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
          {
            title: '7.2 弹力',
            point: '弹力',
            make: forms(
              (rng) => {
                const k = int(rng, 1, 5);
                const f = int(rng, 1, 8);
                return single(rng, `一根弹簧每受到 1 N 的拉力伸长 ${k} cm（在弹性限度内），受到 ${f} N 的拉力时伸长（　　）`, `${k * f} cm`, [`${k + f} cm`, `${k * f + k} cm`, `${f} cm`, `${k * f * 2} cm`, `${k * f + 1} cm`, `${k * f + 2} cm`], `在弹性限度内，弹簧的伸长量与拉力成正比：$${k} \\times ${f} = ${k * f}$ cm。`, 2);
              },
              (rng) => {
                const f = int(rng, 1, 9);
                return blank(`弹簧测力计的分度值是 0.2 N，指针指在第 ${f * 5} 小格处，示数是 ______ N`, String(f), `每小格 0.2 N，$${f * 5} \\times 0.2 = ${f}$ N。`, 2, 2, [String(f * 5), num(f / 5)]);
              },
              (rng, i) => {
                const [stem, right, wrong, why] = nth<[string, string, string[], string]>([
                  ['下列物体之间不存在弹力的是（　　）', '相互靠近但未接触的两块磁铁', ['压弯的跳板与运动员', '拉长的橡皮筋与手', '桌面与放在上面的书'], '弹力产生在直接接触并发生弹性形变的物体之间。'],
                  ['使用弹簧测力计时，下列做法错误的是（　　）', '所测的力超过它的量程', ['使用前调零', '拉力方向与弹簧轴线一致', '读数时视线与刻度盘垂直'], '超过量程会损坏弹簧测力计。'],
                  ['跳水运动员站在跳板上，跳板被压弯，使跳板发生形变的力是（　　）', '运动员对跳板的压力', ['运动员受到的重力', '跳板对运动员的支持力', '跳板受到的重力'], '施力物体是运动员，受力物体是跳板。'],
                ], i, 4);
                return single(rng, stem, right, wrong, why, 2);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['在弹性限度内，弹簧的伸长量与受到的拉力成正比。', true, '这是弹簧测力计的工作原理。'],
                  ['只要物体发生形变就一定产生弹力。', false, '必须是弹性形变。'],
                  ['用弹簧测力计可以测量竖直方向以外的力。', true, '只要拉力方向与弹簧轴线一致即可。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
        ],
      },
      {
        title: '第九章 压强',
        point: '压强',
        sections: [
          {
            title: '9.1 压强',
            point: '固体压强',
            make: forms(
              (rng) => {
                const f = int(rng, 10, 90) * 10;
                const s = pick(rng, [0.01, 0.02, 0.04, 0.05, 0.1, 0.2]);
                return solve(`一个箱子对水平地面的压力为 ${f} N，与地面的接触面积为 ${s} m²，求箱子对地面的压强。`, `${num(f / s)} Pa`, `$p = \\dfrac{F}{S} = \\dfrac{${f}\\ \\text{N}}{${s}\\ \\text{m}^2} = ${num(f / s)}\\ \\text{Pa}$。`, 2, 6);
              },
              (rng) => {
                const f = int(rng, 2, 9) * 100;
                const s = pick(rng, [2, 4, 5]);
                return blank(`一个人双脚站立时对地面的压强是 ${f * s} Pa，他单脚站立时对地面的压强是 ______ Pa`, String(2 * f * s), `压力不变，受力面积减半，压强变为原来的 2 倍：${2 * f * s} Pa。`, 3, 3, [num((f * s) / 2), String(f * s)]);
              },
              (rng, i) => {
                const [what, way] = nth<[string, string]>([['书包带做得较宽', '增大受力面积来减小压强'], ['菜刀的刀刃磨得很薄', '减小受力面积来增大压强'], ['铁轨铺在枕木上', '增大受力面积来减小压强']], i, 4);
                return single(rng, `“${what}”是通过（　　）`, way, ['增大受力面积来减小压强', '减小受力面积来增大压强', '增大压力来增大压强', '减小压力来减小压强'].filter((x) => x !== way), `${what}，是${way}。`, 2);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['压力的方向总是竖直向下的。', false, '压力垂直于受力面，不一定竖直向下。'],
                  ['压强是表示压力作用效果的物理量。', true, '压力的作用效果与压力和受力面积有关。'],
                  ['1 Pa 表示 1 m² 面积上受到的压力是 1 N。', true, '这是压强单位的物理意义。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
          {
            title: '9.2 液体的压强',
            point: '液体压强',
            make: forms(
              (rng) => {
                const h = int(rng, 1, 30) / 10;
                return blank(`水深 ${num(h)} m 处水的压强为 ______ Pa（$\\rho_\\text{水} = 1.0 \\times 10^3$ kg/m³，$g$ 取 10 N/kg）`, num(1000 * 10 * h), `$p = \\rho g h = 1.0 \\times 10^3 \\times 10 \\times ${num(h)} = ${num(10000 * h)}\\ \\text{Pa}$。`, 3);
              },
              (rng) => {
                const h = int(rng, 2, 9) / 10;
                return single(rng, `同一容器中，A 点在水面下 ${num(h)} m，B 点在水面下 ${num(2 * h)} m，两点的压强关系是（　　）`, '$p_B = 2p_A$', ['$p_A = p_B$', '$p_A = 2p_B$', '无法比较'], `液体压强与深度成正比，B 点深度是 A 点的 2 倍。`, 2);
              },
              (rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['拦河坝设计成上窄下宽，是因为液体压强随深度增加而增大。', true, '越深处水的压强越大。'],
                  ['液体内部只有向下的压强。', false, '液体内部向各个方向都有压强。'],
                  ['船闸是利用连通器原理工作的。', true, '上端开口、底部连通的容器是连通器。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
              (rng) => {
                const p = int(rng, 1, 9) * 1000;
                return blank(`潜水员在江中作业时，身体受到水的压强为 ${p} Pa，他下潜的深度是 ______ m`, num(p / 10000), `$h = \\dfrac{p}{\\rho g} = \\dfrac{${p}}{1.0 \\times 10^3 \\times 10} = ${num(p / 10000)}$ m。`, 3, 3, [num(p / 1000), num(p / 100)]);
              },
            ),
          },
        ],
      },
      {
        title: '第十章 浮力',
        point: '浮力',
        sections: [
          {
            title: '10.1 阿基米德原理',
            point: '阿基米德原理',
            make: forms(
              (rng) => {
                const v = int(rng, 1, 50) * 100;
                return solve(`一个体积为 ${v} cm³ 的物体浸没在水中，它受到的浮力是多少？（$g$ 取 10 N/kg）`, `${num(v / 100)} N`, `$V_\\text{排} = ${v}\\ \\text{cm}^3 = ${num(v / 1e6)}\\ \\text{m}^3$，$F_\\text{浮} = \\rho_\\text{水} g V_\\text{排} = 1.0 \\times 10^3 \\times 10 \\times ${num(v / 1e6)} = ${num(v / 100)}\\ \\text{N}$。`, 4, 8);
              },
              (rng) => {
                const g = int(rng, 3, 9);
                const f = int(rng, 1, g - 1);
                return blank(`用弹簧测力计测得石块重 ${g} N，浸没在水中时示数为 ${f} N，石块受到的浮力是 ______ N`, String(g - f), `称重法：$F_\\text{浮} = G - F = ${g} - ${f} = ${g - f}$ N。`, 2, 3, [String(g + f), String(f)]);
              },
              (rng, i) => {
                const [stem, right, wrong, why] = nth<[string, string, string[], string]>([
                  ['浸在液体中的物体所受浮力的大小等于（　　）', '它排开的液体所受的重力', ['物体所受的重力', '物体的体积乘以液体密度', '液体所受的重力'], '这是阿基米德原理。'],
                  ['一个铁块从刚好浸没到继续下沉（未触底），所受浮力（　　）', '不变', ['变大', '变小', '先变大后变小'], '浸没后排开液体的体积不变，浮力不变。'],
                  ['同一个物体分别浸没在水和酒精中，受到的浮力（　　）', '在水中较大', ['在酒精中较大', '一样大', '无法比较'], '排开液体体积相同，水的密度大，浮力大。'],
                ], i, 4);
                return single(rng, stem, right, wrong, why, 2);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['浮力的方向总是竖直向上的。', true, '浮力方向竖直向上。'],
                  ['物体浸入液体越深，受到的浮力一定越大。', false, '浸没后浮力与深度无关。'],
                  ['在空气中的物体也受到浮力。', true, '气体对浸在其中的物体也有浮力，如热气球。'],
                ], i, 4);
                return judge(stem, ok, why, 1);
              },
            ),
          },
          {
            title: '10.2 物体的浮沉条件',
            point: '物体的浮沉条件',
            make: forms(
              (rng, i) => {
                const rho = [0.6, 0.8, 0.9, 1.2, 2.7, 7.9, 0.5, 11.3, 0.4, 1.5, 0.95, 19.3][i % 12];
                const floats = rho < 1;
                return judge(`把密度为 ${rho} g/cm³ 的实心物体放入水中，静止时它会漂浮在水面上。`, floats, `实心物体密度${floats ? '小于' : '大于'}水的密度（1.0 g/cm³）时，物体${floats ? '上浮，最终漂浮' : '下沉'}。`, 2);
              },
              (rng) => {
                const m = int(rng, 2, 9) * 10;
                return blank(`一只 ${m} g 的苹果漂浮在水面上，它受到的浮力是 ______ N（$g$ 取 10 N/kg）`, num(m / 100), `漂浮时浮力等于重力：$F_\\text{浮} = G = ${num(m / 1000)} \\times 10 = ${num(m / 100)}$ N。`, 3, 3, [String(m), num(m / 10)]);
              },
              (rng, i) => {
                const [stem, right, wrong, why] = nth<[string, string, string[], string]>([
                  ['潜水艇是靠（　　）实现上浮和下沉的', '改变自身的重力', ['改变浮力的大小', '改变自身的体积', '改变水的密度'], '潜水艇通过水舱充水、排水改变自身重力。'],
                  ['轮船从长江驶入东海，它受到的浮力（　　）', '不变', ['变大', '变小', '无法确定'], '轮船始终漂浮，浮力等于重力，不变。'],
                  ['热气球能升空，是因为（　　）', '球内热空气的密度小于外面的空气', ['热空气没有重力', '球内没有空气', '球内空气的浮力大于外面'], '热空气密度小，整体所受浮力大于重力。'],
                ], i, 4);
                return single(rng, stem, right, wrong, why, 3);
              },
              (rng) => {
                const v = int(rng, 2, 9) * 100;
                const part = pick(rng, [2, 3, 4, 5]);
                return solve(`一块体积为 ${v} cm³ 的木块漂浮在水面上，露出水面的体积是总体积的 $\\frac{1}{${part}}$，求木块受到的浮力。（$g$ 取 10 N/kg）`, `${num((v * (part - 1)) / part / 100)} N`, `$V_\\text{排} = ${v} \\times \\frac{${part - 1}}{${part}} = ${num((v * (part - 1)) / part)}\\ \\text{cm}^3$，$F_\\text{浮} = \\rho_\\text{水} g V_\\text{排} = ${num((v * (part - 1)) / part / 100)}$ N。`, 4, 8, [`${num(v / 100)} N`, `${num(v / part / 100)} N`]);
              },
            ),
          },
        ],
      },
      {
        title: '第十一章 功和机械能',
        point: '功和机械能',
        sections: [
          {
            title: '11.1 功',
            point: '功',
            make: forms(
              (rng) => {
                const f = int(rng, 5, 60) * 10;
                const s = int(rng, 2, 20);
                return blank(`用 ${f} N 的水平推力推着箱子沿水平方向前进了 ${s} m，推力做的功为 ______ J`, String(f * s), `$W = Fs = ${f}\\ \\text{N} \\times ${s}\\ \\text{m} = ${f * s}\\ \\text{J}$。`, 2);
              },
              (rng, i) => {
                const [stem, right, wrong, why] = nth<[string, string, string[], string]>([
                  ['下列情况中，人对物体做了功的是（　　）', '把书包从地上提到桌面上', ['提着书包在水平路面上匀速行走', '用力推墙，墙没动', '举着杠铃不动'], '做功要有力，并且在力的方向上移动了距离。'],
                  ['足球被踢出后在草地上滚动，滚动过程中（　　）', '人对足球不做功', ['人对足球做了功', '重力对足球做了功', '无法判断'], '球离开脚后人不再对它施力。'],
                  ['用水平力推着小车在水平面上前进，重力对小车（　　）', '不做功', ['做正功', '做的功等于推力做的功', '无法判断'], '重力竖直向下，小车在竖直方向没有移动距离。'],
                ], i, 4);
                return single(rng, stem, right, wrong, why, 2);
              },
              (rng) => {
                const m = int(rng, 2, 9) * 5;
                const h = int(rng, 2, 6);
                return blank(`把重 ${m * 10} N 的箱子匀速搬上 ${h} m 高的二楼，克服重力做功 ______ J`, String(m * 10 * h), `$W = Gh = ${m * 10} \\times ${h} = ${m * 10 * h}$ J。`, 2, 3, [String(m * h), String(m * 10 + h)]);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['力越大，做的功一定越多。', false, '功还与在力的方向上移动的距离有关。'],
                  ['功的单位是焦耳，1 J = 1 N·m。', true, '由 $W = Fs$ 得出。'],
                  ['使用机械可以省力，但不能省功。', true, '这是功的原理。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
          {
            title: '11.2 功率',
            point: '功率',
            make: forms(
              (rng) => {
                const w = int(rng, 3, 60) * 100;
                const t = pick(rng, [5, 10, 20, 25, 50]);
                return single(rng, `一台机器在 ${t} s 内做了 ${w} J 的功，它的功率是（　　）`, `${num(w / t)} W`, [`${w * t} W`, `${num(t / w)} W`, `${w} W`, `${num(w / t) + 10} W`], `$P = \\dfrac{W}{t} = \\dfrac{${w}\\ \\text{J}}{${t}\\ \\text{s}} = ${num(w / t)}\\ \\text{W}$。`, 2);
              },
              (rng) => {
                const p = pick(rng, [50, 100, 150, 200]);
                const t = int(rng, 2, 10) * 10;
                return blank(`功率为 ${p} W 的电动机工作 ${t} s，做功 ______ J`, String(p * t), `$W = Pt = ${p} \\times ${t} = ${p * t}$ J。`, 2, 3, [num(p / t), String(p + t)]);
              },
              (rng) => {
                const g = int(rng, 40, 60) * 10;
                const h = pick(rng, [3, 6, 9]);
                const t = pick(rng, [10, 15, 20, 30]);
                return solve(`体重 ${g} N 的小明用 ${t} s 从一楼爬到高 ${h} m 的三楼，他爬楼的功率是多少？`, `${num((g * h) / t)} W`, `$W = Gh = ${g} \\times ${h} = ${g * h}$ J，$P = \\dfrac{W}{t} = \\dfrac{${g * h}}{${t}} = ${num((g * h) / t)}$ W。`, 3, 6, [`${g * h} W`, `${num((g * t) / h)} W`]);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['功率越大的机器，做功越快。', true, '功率表示做功的快慢。'],
                  ['功率大的机器做的功一定多。', false, '做功多少还与时间有关。'],
                  ['汽车上坡时换低速挡，是为了增大牵引力。', true, '由 $P = Fv$，功率一定时速度小牵引力大。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
        ],
      },
    ],
  },
  {
    subject: '物理',
    gradeLevel: 9,
    title: '九年级物理全一册 · 课时练习',
    edition: '学助原创',
    chapters: [
      {
        title: '第十三章 内能',
        point: '内能',
        sections: [
          {
            title: '13.1 比热容',
            point: '比热容',
            make: forms(
              (rng) => {
                const m = int(rng, 1, 10) / 2;
                const dt = int(rng, 5, 60);
                const q = 4.2e3 * m * dt;
                return solve(`质量为 ${num(m)} kg 的水温度升高 ${dt} ℃，吸收的热量是多少？（$c_\\text{水} = 4.2 \\times 10^3$ J/(kg·℃)）`, `${num(q)} J`, `$Q = cm\\Delta t = 4.2 \\times 10^3 \\times ${num(m)} \\times ${dt} = ${num(q)}\\ \\text{J}$。`, 3, 6);
              },
              (rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['沿海地区昼夜温差比内陆小，主要是因为水的比热容大。', true, '水的比热容大，吸收或放出相同热量时温度变化小。'],
                  ['一桶水的比热容比一杯水的比热容大。', false, '比热容是物质的特性，与质量无关。'],
                  ['汽车发动机用水来冷却，是利用了水的比热容大。', true, '相同条件下水能吸收更多热量。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
              (rng) => {
                const m = int(rng, 1, 4);
                const q = m * 4.2e3 * 10;
                return blank(`${m} kg 的水吸收 ${num(q)} J 的热量，温度升高 ______ ℃（$c_\\text{水} = 4.2 \\times 10^3$ J/(kg·℃)）`, '10', `$\\Delta t = \\dfrac{Q}{cm} = \\dfrac{${num(q)}}{4.2 \\times 10^3 \\times ${m}} = 10$ ℃。`, 3, 3, [String(10 * m), '100']);
              },
              (rng) => {
                return single(rng, `质量相同的水和沙子吸收相同的热量，${pick(rng, ['', '在阳光下', '在同一个实验中'])}（　　）`, '沙子升高的温度多', ['水升高的温度多', '升高的温度一样多', '无法比较'], '沙子的比热容比水小，吸收相同热量时温度升高得多。', 2);
              },
            ),
          },
          {
            title: '13.2 内能的改变',
            point: '改变内能的方式',
            make: (rng, i) => {
              const cases: [string, string][] = [
                ['冬天搓手取暖', '做功'],
                ['用热水袋暖手', '热传递'],
                ['锯木头时锯条发热', '做功'],
                ['把饮料放进冰箱降温', '热传递'],
                ['钻木取火', '做功'],
                ['太阳晒热路面', '热传递'],
                ['反复弯折铁丝，弯折处变热', '做功'],
                ['用燃气灶烧水', '热传递'],
                ['陨石进入大气层后燃烧发光', '做功'],
                ['冬天用暖气取暖', '热传递'],
                ['用打气筒打气，筒壁发热', '做功'],
                ['热汤放凉', '热传递'],
              ];
              const [what, how] = cases[i % cases.length];
              return single(rng, `“${what}”是通过哪种方式改变物体内能的？（　　）`, how, [how === '做功' ? '热传递' : '做功', '既不是做功也不是热传递', '内能没有改变', '无法判断'], `${how === '做功' ? '克服摩擦或压缩气体，机械能转化为内能，属于做功' : '能量从高温物体转移到低温物体，属于热传递'}。`, 2);
            },
          },
        ],
      },
      {
        title: '第十七章 欧姆定律',
        point: '欧姆定律',
        sections: [
          {
            title: '17.1 欧姆定律',
            point: '欧姆定律',
            make: forms(
              (rng) => {
                const r = pick(rng, [2, 4, 5, 8, 10, 12, 20, 25]);
                const i = pick(rng, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 1, 1.5]);
                return blank(`一个 ${r} Ω 的定值电阻中通过的电流为 ${i} A，它两端的电压为 ______ V`, num(r * i), `由 $I = \\dfrac{U}{R}$ 得 $U = IR = ${i}\\ \\text{A} \\times ${r}\\ \\Omega = ${num(r * i)}\\ \\text{V}$。`, 2);
              },
              (rng) => {
                const u = pick(rng, [3, 6, 9, 12]);
                const i = pick(rng, [0.2, 0.3, 0.5, 0.6]);
                return single(rng, `某导体两端电压为 ${u} V 时，通过它的电流为 ${i} A，它的电阻是（　　）`, `${num(u / i)} Ω`, [`${num(u * i)} Ω`, `${num(i / u)} Ω`, `${num(u / i / 2)} Ω`], `$R = \\dfrac{U}{I} = \\dfrac{${u}}{${i}} = ${num(u / i)}\\ \\Omega$。`, 2);
              },
              (rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['导体的电阻与它两端的电压成正比。', false, '电阻是导体本身的性质，与电压、电流无关。'],
                  ['电阻一定时，通过导体的电流与导体两端的电压成正比。', true, '这是欧姆定律的内容之一。'],
                  ['导体两端电压为 0 时，导体的电阻也为 0。', false, '电阻不随电压改变。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
              (rng) => {
                const r = pick(rng, [5, 10, 20]);
                const u = pick(rng, [2, 4, 6]);
                return blank(`一个 ${r} Ω 的电阻两端电压从 ${u} V 增大到 ${2 * u} V，通过它的电流增大了 ______ A`, num(u / r), `$\\Delta I = \\dfrac{${2 * u}}{${r}} - \\dfrac{${u}}{${r}} = ${num(u / r)}\\ \\text{A}$。`, 3, 3, [num((2 * u) / r), num(u * r)]);
              },
            ),
          },
          {
            title: '17.2 串联电路的电阻',
            point: '串并联电路的电阻',
            make: forms(
              (rng) => {
                const r1 = int(rng, 2, 20);
                const r2 = int(rng, 2, 20);
                const total = r1 + r2;
                const u = total * pick(rng, [0.1, 0.2, 0.5, 1]);
                return solve(`电阻 $R_1 = ${r1}\\ \\Omega$ 与 $R_2 = ${r2}\\ \\Omega$ 串联接在 ${num(u)} V 的电源上，求电路中的电流。`, `${num(u / total)} A`, `串联总电阻 $R = R_1 + R_2 = ${total}\\ \\Omega$，$I = \\dfrac{U}{R} = \\dfrac{${num(u)}}{${total}} = ${num(u / total)}\\ \\text{A}$。`, 4, 8);
              },
              (rng) => {
                const r1 = int(rng, 2, 10) * 2;
                const r2 = r1;
                return blank(`两个 ${r1} Ω 的电阻并联，总电阻是 ______ Ω`, num(r1 / 2), `并联：$\\dfrac{1}{R} = \\dfrac{1}{${r1}} + \\dfrac{1}{${r2}}$，$R = ${num(r1 / 2)}\\ \\Omega$。`, 3, 3, [String(2 * r1), String(r1)]);
              },
              (rng) => {
                const r1 = int(rng, 2, 10);
                const r2 = r1 + int(rng, 1, 8);
                return single(rng, `$R_1 = ${r1}\\ \\Omega$ 与 $R_2 = ${r2}\\ \\Omega$ 串联，它们两端的电压之比 $U_1 : U_2$ 是（　　）`, `${r1} : ${r2}`, [`${r2} : ${r1}`, '1 : 1', `${r1 + r2} : ${r2}`], `串联电流相等，电压与电阻成正比：$U_1 : U_2 = R_1 : R_2 = ${r1} : ${r2}$。`, 3);
              },
              (rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['几个电阻串联，总电阻比其中任何一个都大。', true, '串联相当于增加了导体的长度。'],
                  ['几个电阻并联，总电阻比其中最小的还小。', true, '并联相当于增大了导体的横截面积。'],
                  ['并联电路中，电阻越大的支路电流越大。', false, '并联电压相等，电阻越大电流越小。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
        ],
      },
      {
        title: '第十八章 电功率',
        point: '电功率',
        sections: [
          {
            title: '18.1 电能 电功',
            point: '电功',
            make: forms(
              (rng) => {
                const p = pick(rng, [40, 60, 100, 200, 500, 1000, 1500]);
                const h = int(rng, 1, 10);
                return blank(`一个 ${p} W 的用电器正常工作 ${h} h，消耗的电能是 ______ kW·h`, num((p / 1000) * h), `$W = Pt = ${num(p / 1000)}\\ \\text{kW} \\times ${h}\\ \\text{h} = ${num((p / 1000) * h)}\\ \\text{kW·h}$。`, 2);
              },
              (rng) => {
                const a = int(rng, 1000, 5000) / 10;
                const used = int(rng, 20, 150);
                return blank(`小明家电能表月初示数为 ${num(a)} kW·h，月末为 ${num(a + used)} kW·h，这个月用电 ______ kW·h`, String(used), `用电量 = 月末示数 − 月初示数 = ${num(a + used)} − ${num(a)} = ${used} kW·h。`, 1, 2, [num(a + used), String(used * 10)]);
              },
              (rng) => {
                const kwh = int(rng, 2, 9);
                return single(rng, `${kwh} kW·h 的电能等于（　　）`, `${num(kwh * 3.6)} × 10⁶ J`, [`${kwh * 1000} J`, `${num(kwh * 3.6)} × 10³ J`, `${kwh * 3600} J`], `1 kW·h = 3.6 × 10⁶ J，所以 ${kwh} kW·h = ${num(kwh * 3.6)} × 10⁶ J。`, 2);
              },
              (rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['电流做功的过程，就是电能转化为其他形式能的过程。', true, '用电器工作时消耗电能。'],
                  ['电能表是测量电功率的仪表。', false, '电能表测量的是消耗的电能（电功）。'],
                  ['电风扇工作时，电能主要转化为机械能。', true, '电动机把电能转化为机械能。'],
                ], i, 4);
                return judge(stem, ok, why, 1);
              },
            ),
          },
          {
            title: '18.3 焦耳定律',
            point: '焦耳定律',
            make: forms(
              (rng) => {
                const i = pick(rng, [0.5, 1, 2, 3]);
                const r = pick(rng, [2, 5, 10, 20, 50]);
                const t = pick(rng, [10, 30, 60, 100, 120]);
                return blank(`电流为 ${i} A 的电流通过 ${r} Ω 的电阻，${t} s 内产生的热量是 ______ J`, num(i * i * r * t), `由焦耳定律 $Q = I^2Rt = ${i}^2 \\times ${r} \\times ${t} = ${num(i * i * r * t)}\\ \\text{J}$。`, 3);
              },
              (rng, i) => {
                const [what, answer] = nth<[string, string]>([
                  ['电饭锅', '电流的热效应'],
                  ['电动机', '通电导体在磁场中受力'],
                  ['电热水壶', '电流的热效应'],
                ], i, 4);
                return single(rng, `${what}工作时主要利用的是（　　）`, answer, ['电流的热效应', '电流的磁效应', '通电导体在磁场中受力', '电磁感应'].filter((x) => x !== answer), `${what}是利用${answer}工作的。`, 2);
              },
              (rng) => {
                const k = int(rng, 2, 5);
                return blank(`同一电阻，通电时间相同，电流变为原来的 ${k} 倍，产生的热量变为原来的 ______ 倍`, String(k * k), `由 $Q = I^2Rt$，热量与电流的平方成正比：$${k}^2 = ${k * k}$。`, 3, 3, [String(k), String(2 * k)]);
              },
              (rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['电炉丝热得发红而导线几乎不热，是因为导线的电阻小。', true, '串联电流相同，电阻小产生的热量少。'],
                  ['所有用电器工作时都把电能全部转化为内能。', false, '只有纯电阻用电器才全部转化为内能。'],
                  ['电脑机箱内装风扇是为了散热，防止电热造成危害。', true, '这是防止电热危害的做法。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
          {
            title: '18.2 电功率',
            point: '电功率',
            make: forms(
              (rng) => {
                const u = pick(rng, [3, 6, 12, 220]);
                const i = pick(rng, [0.2, 0.5, 1, 2]);
                return single(rng, `某用电器两端电压为 ${u} V，通过的电流为 ${i} A，它的电功率是（　　）`, `${num(u * i)} W`, [`${num(u / i)} W`, `${num(u + i)} W`, `${num(u * i * 2)} W`, `${num((u * i) / 2)} W`], `$P = UI = ${u}\\ \\text{V} \\times ${i}\\ \\text{A} = ${num(u * i)}\\ \\text{W}$。`, 2);
              },
              (rng) => {
                const p = pick(rng, [40, 60, 100, 800, 1000]);
                return blank(`一盏标有“220 V ${p} W”的用电器正常工作 1 h 消耗电能 ______ kW·h`, num(p / 1000), `$W = Pt = ${num(p / 1000)}\\ \\text{kW} \\times 1\\ \\text{h} = ${num(p / 1000)}\\ \\text{kW·h}$。`, 2, 3, [String(p), num(p / 100)]);
              },
              (rng) => {
                const p = pick(rng, [40, 60, 100]);
                return single(rng, `标有“220 V ${p} W”的灯泡接在 110 V 的电路中，它的实际功率是（　　）`, `${p / 4} W`, [`${p} W`, `${p / 2} W`, `${p * 2} W`], `电阻不变，$P = \\dfrac{U^2}{R}$，电压减半，功率变为原来的 $\\frac{1}{4}$：${p / 4} W。`, 4);
              },
              (rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['灯泡的亮度由它的实际功率决定。', true, '实际功率越大，灯越亮。'],
                  ['额定功率大的用电器，消耗的电能一定多。', false, '消耗电能还与工作时间有关。'],
                  ['用电器正常工作时的功率叫额定功率。', true, '额定电压下的功率就是额定功率。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
        ],
      },
      {
        title: '第十九章 生活用电',
        point: '生活用电',
        sections: [
          {
            title: '19.1 安全用电',
            point: '安全用电',
            make: (rng, i) => {
              const facts: [string, boolean, string][] = [
                ['家庭电路中，开关应接在火线与用电器之间。', true, '这样断开开关后用电器不带电，更安全。'],
                ['用湿手拔插头没有危险。', false, '生活用水是导体，湿手操作容易触电。'],
                ['有金属外壳的用电器应使用三孔插座。', true, '金属外壳通过地线接地，漏电时电流流入大地。'],
                ['发现有人触电，应立即用手把他拉开。', false, '应先切断电源或用干燥的绝缘体挑开电线。'],
                ['保险丝熔断后可以用铜丝代替。', false, '铜丝熔点高，电流过大时不能熔断，起不到保护作用。'],
                ['同时使用多个大功率用电器可能使干路电流过大。', true, '总功率越大，干路电流越大。'],
                ['雷雨天可以在大树下避雨。', false, '大树容易被雷击，不能在树下避雨。'],
                ['试电笔使用时手要接触笔尾金属体。', true, '这样才能构成通路，使氖管发光。'],
                ['家庭电路中各用电器是串联的。', false, '家庭电路中各用电器是并联的，互不影响。'],
                ['电能表是测量用电器消耗电能的仪表。', true, '电能表记录一段时间内消耗的电能。'],
                ['空气开关跳闸一定是发生了短路。', false, '也可能是用电器总功率过大。'],
                ['更换灯泡前应先断开开关。', true, '断电操作可防止触电。'],
              ];
              const [stem, ok, why] = facts[i % facts.length];
              return judge(stem, ok, why, 1);
            },
          },
        ],
      },
    ],
  },
];
