// 物理 exercise books for grades 7–9 (the demo school starts physics in grade 7), written for the
// demo: numbers are seeded, answers computed from the formula each section practises.
import { blank, int, judge, num, pick, single, solve, type BookSpec } from './draft';

export const physicsBooks: BookSpec[] = [
  {
    subject: '物理',
    gradeLevel: 7,
    title: '七年级物理启蒙 · 课时练习',
    edition: '学助原创',
    chapters: [
      {
        title: '第一章 机械运动',
        point: '机械运动',
        sections: [
          {
            title: '1.1 长度和时间的测量',
            point: '长度和时间的测量',
            make: (rng) => {
              const cm = int(rng, 12, 980);
              return blank(`单位换算：${cm} cm = ______ m`, num(cm / 100), `1 m = 100 cm，所以 ${cm} cm = ${cm} ÷ 100 m = ${num(cm / 100)} m。`, 1, 2);
            },
          },
          {
            title: '1.2 运动的快慢',
            point: '速度',
            make: (rng) => {
              const v = int(rng, 2, 25);
              const t = int(rng, 10, 120);
              return solve(`一辆自行车以 ${v} m/s 的速度匀速行驶了 ${t} s，通过的路程是多少米？`, `${v * t} m`, `由 $v = \\dfrac{s}{t}$ 得 $s = vt = ${v}\\ \\text{m/s} \\times ${t}\\ \\text{s} = ${v * t}\\ \\text{m}$。`, 2, 6);
            },
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
            make: (rng) => {
              const t = int(rng, 2, 20) / 2;
              const d = (340 * t) / 2;
              return solve(`对着远处的山崖大喊一声，经过 ${num(t)} s 听到回声。已知声音在空气中的速度为 340 m/s，人离山崖多远？`, `${num(d)} m`, `声音往返的路程 $s = vt = 340 \\times ${num(t)} = ${num(340 * t)}\\ \\text{m}$，人到山崖的距离是它的一半：${num(d)} m。`, 3, 6);
            },
          },
          {
            title: '2.2 声音的特性',
            point: '声音的特性',
            make: (rng, i) => {
              const facts: [string, boolean, string][] = [
                ['音调的高低由发声体振动的频率决定。', true, '频率越高，音调越高。'],
                ['响度的大小只与发声体的振幅有关，与距离无关。', false, '响度与振幅有关，还与距发声体的远近有关。'],
                ['我们能分辨不同乐器的声音，是因为它们的音色不同。', true, '不同发声体的材料、结构不同，音色不同。'],
                ['声音可以在真空中传播。', false, '声音的传播需要介质，真空不能传声。'],
                ['超声波的频率高于 20000 Hz。', true, '人耳能听到的频率范围约为 20～20000 Hz，高于 20000 Hz 的是超声波。'],
                ['“引吭高歌”中的“高”指的是音调高。', false, '“引吭高歌”指声音大，说的是响度。'],
                ['在教室周围植树可以在传播过程中减弱噪声。', true, '树木能阻挡、吸收声音，属于在传播过程中减弱噪声。'],
                ['声音在钢铁中的传播速度比在空气中慢。', false, '一般情况下声音在固体中传播得最快。'],
                ['利用回声可以测量海水的深度。', true, '声呐发出声波，根据回声时间求深度。'],
                ['医生用 B 超检查身体，说明声音能传递能量。', false, 'B 超是利用声音传递信息。'],
                ['蝙蝠利用超声波确定目标的位置。', true, '这叫回声定位。'],
                ['次声波的频率高于 20 Hz。', false, '次声波的频率低于 20 Hz。'],
              ];
              const [stem, ok, why] = facts[i % facts.length];
              return judge(stem, ok, why, 2);
            },
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
            make: (rng) => {
              const between = int(rng, 10, 80);
              const incidence = 90 - between;
              return blank(`一束光与镜面的夹角为 ${between}°，则反射角为 ______°`, String(incidence), `入射角是入射光线与法线的夹角：$90^\\circ - ${between}^\\circ = ${incidence}^\\circ$，反射角等于入射角，为 $${incidence}^\\circ$。`, 2);
            },
          },
          {
            title: '3.2 平面镜成像',
            point: '平面镜成像',
            make: (rng, i) => {
              const d = int(rng, 1, 10) / 2;
              if (i % 2 === 1) return blank(`一支铅笔竖直放在平面镜前 ${num(d)} m 处，它的像到平面镜的距离是 ______ m`, num(d), `平面镜成像时像与物到镜面的距离相等，所以像到镜面的距离也是 ${num(d)} m。`, 1, 2);
              return single(rng, `小明站在平面镜前 ${num(d)} m 处，他在镜中的像到他本人的距离是（　　）`, `${num(2 * d)} m`, [`${num(d)} m`, `${num(d / 2)} m`, `${num(4 * d)} m`, `${num(2 * d + 1)} m`], `平面镜成像时像与物到镜面的距离相等，像到镜面 ${num(d)} m，所以像到人的距离为 ${num(2 * d)} m。`, 2);
            },
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
            make: (rng) => {
              const [name, rho] = pick(rng, [
                ['铝', 2.7],
                ['铁', 7.9],
                ['铜', 8.9],
                ['冰', 0.9],
              ] as const);
              const v = int(rng, 2, 30) * 10;
              return solve(`一块体积为 ${v} cm³ 的${name}块，质量是 ${num(rho * v)} g，求它的密度（单位 g/cm³）。`, `${rho} g/cm³`, `$\\rho = \\dfrac{m}{V} = \\dfrac{${num(rho * v)}\\ \\text{g}}{${v}\\ \\text{cm}^3} = ${rho}\\ \\text{g/cm}^3$。`, 3, 6);
            },
          },
          {
            title: '4.2 测量物质的密度',
            point: '密度的测量',
            make: (rng) => {
              const v1 = int(rng, 20, 50);
              const v2 = v1 + int(rng, 5, 30);
              const m = (v2 - v1) * pick(rng, [2, 3, 4]);
              return blank(`用量筒测小石块的体积：放入石块前水面在 ${v1} mL，放入后在 ${v2} mL；石块质量为 ${m} g。石块的密度为 ______ g/cm³`, num(m / (v2 - v1)), `$V = ${v2} - ${v1} = ${v2 - v1}\\ \\text{cm}^3$，$\\rho = \\dfrac{${m}}{${v2 - v1}} = ${num(m / (v2 - v1))}\\ \\text{g/cm}^3$。`, 3);
            },
          },
        ],
      },
    ],
  },
  {
    subject: '物理',
    gradeLevel: 8,
    title: '八年级物理下册 · 课时练习',
    edition: '学助原创',
    chapters: [
      {
        title: '第七章 力',
        point: '力',
        sections: [
          {
            title: '7.1 重力',
            point: '重力',
            make: (rng) => {
              const m = int(rng, 2, 60) / 2;
              return blank(`质量为 ${num(m)} kg 的物体受到的重力是 ______ N（$g$ 取 10 N/kg）`, num(m * 10), `$G = mg = ${num(m)}\\ \\text{kg} \\times 10\\ \\text{N/kg} = ${num(m * 10)}\\ \\text{N}$。`, 1);
            },
          },
          {
            title: '7.2 弹力',
            point: '弹力',
            make: (rng) => {
              const k = int(rng, 1, 5);
              const f = int(rng, 1, 8);
              return single(rng, `一根弹簧每受到 1 N 的拉力伸长 ${k} cm（在弹性限度内），受到 ${f} N 的拉力时伸长（　　）`, `${k * f} cm`, [`${k + f} cm`, `${k * f + k} cm`, `${f} cm`, `${k * f * 2} cm`, `${k * f + 1} cm`, `${k * f + 2} cm`], `在弹性限度内，弹簧的伸长量与拉力成正比：$${k} \\times ${f} = ${k * f}$ cm。`, 2);
            },
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
            make: (rng) => {
              const f = int(rng, 10, 90) * 10;
              const s = pick(rng, [0.01, 0.02, 0.04, 0.05, 0.1, 0.2]);
              return solve(`一个箱子对水平地面的压力为 ${f} N，与地面的接触面积为 ${s} m²，求箱子对地面的压强。`, `${num(f / s)} Pa`, `$p = \\dfrac{F}{S} = \\dfrac{${f}\\ \\text{N}}{${s}\\ \\text{m}^2} = ${num(f / s)}\\ \\text{Pa}$。`, 2, 6);
            },
          },
          {
            title: '9.2 液体的压强',
            point: '液体压强',
            make: (rng) => {
              const h = int(rng, 1, 30) / 10;
              return blank(`水深 ${num(h)} m 处水的压强为 ______ Pa（$\\rho_\\text{水} = 1.0 \\times 10^3$ kg/m³，$g$ 取 10 N/kg）`, num(1000 * 10 * h), `$p = \\rho g h = 1.0 \\times 10^3 \\times 10 \\times ${num(h)} = ${num(10000 * h)}\\ \\text{Pa}$。`, 3);
            },
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
            make: (rng) => {
              const v = int(rng, 1, 50) * 100;
              return solve(`一个体积为 ${v} cm³ 的物体浸没在水中，它受到的浮力是多少？（$g$ 取 10 N/kg）`, `${num(v / 100)} N`, `$V_\\text{排} = ${v}\\ \\text{cm}^3 = ${num(v / 1e6)}\\ \\text{m}^3$，$F_\\text{浮} = \\rho_\\text{水} g V_\\text{排} = 1.0 \\times 10^3 \\times 10 \\times ${num(v / 1e6)} = ${num(v / 100)}\\ \\text{N}$。`, 4, 8);
            },
          },
          {
            title: '10.2 物体的浮沉条件',
            point: '物体的浮沉条件',
            make: (rng, i) => {
              const rho = [0.6, 0.8, 0.9, 1.2, 2.7, 7.9, 0.5, 11.3, 0.4, 1.5, 0.95, 19.3][i % 12];
              const floats = rho < 1;
              return judge(`把密度为 ${rho} g/cm³ 的实心物体放入水中，静止时它会漂浮在水面上。`, floats, `实心物体密度${floats ? '小于' : '大于'}水的密度（1.0 g/cm³）时，物体${floats ? '上浮，最终漂浮' : '下沉'}。`, 2);
            },
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
            make: (rng) => {
              const f = int(rng, 5, 60) * 10;
              const s = int(rng, 2, 20);
              return blank(`用 ${f} N 的水平推力推着箱子沿水平方向前进了 ${s} m，推力做的功为 ______ J`, String(f * s), `$W = Fs = ${f}\\ \\text{N} \\times ${s}\\ \\text{m} = ${f * s}\\ \\text{J}$。`, 2);
            },
          },
          {
            title: '11.2 功率',
            point: '功率',
            make: (rng) => {
              const w = int(rng, 3, 60) * 100;
              const t = pick(rng, [5, 10, 20, 25, 50]);
              return single(rng, `一台机器在 ${t} s 内做了 ${w} J 的功，它的功率是（　　）`, `${num(w / t)} W`, [`${w * t} W`, `${num(t / w)} W`, `${w} W`, `${num(w / t) + 10} W`], `$P = \\dfrac{W}{t} = \\dfrac{${w}\\ \\text{J}}{${t}\\ \\text{s}} = ${num(w / t)}\\ \\text{W}$。`, 2);
            },
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
            make: (rng) => {
              const m = int(rng, 1, 10) / 2;
              const dt = int(rng, 5, 60);
              const q = 4.2e3 * m * dt;
              return solve(`质量为 ${num(m)} kg 的水温度升高 ${dt} ℃，吸收的热量是多少？（$c_\\text{水} = 4.2 \\times 10^3$ J/(kg·℃)）`, `${num(q)} J`, `$Q = cm\\Delta t = 4.2 \\times 10^3 \\times ${num(m)} \\times ${dt} = ${num(q)}\\ \\text{J}$。`, 3, 6);
            },
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
            make: (rng) => {
              const r = pick(rng, [2, 4, 5, 8, 10, 12, 20, 25]);
              const i = pick(rng, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 1, 1.5]);
              return blank(`一个 ${r} Ω 的定值电阻中通过的电流为 ${i} A，它两端的电压为 ______ V`, num(r * i), `由 $I = \\dfrac{U}{R}$ 得 $U = IR = ${i}\\ \\text{A} \\times ${r}\\ \\Omega = ${num(r * i)}\\ \\text{V}$。`, 2);
            },
          },
          {
            title: '17.2 串联电路的电阻',
            point: '串并联电路的电阻',
            make: (rng) => {
              const r1 = int(rng, 2, 20);
              const r2 = int(rng, 2, 20);
              const total = r1 + r2;
              const u = total * pick(rng, [0.1, 0.2, 0.5, 1]);
              return solve(`电阻 $R_1 = ${r1}\\ \\Omega$ 与 $R_2 = ${r2}\\ \\Omega$ 串联接在 ${num(u)} V 的电源上，求电路中的电流。`, `${num(u / total)} A`, `串联总电阻 $R = R_1 + R_2 = ${total}\\ \\Omega$，$I = \\dfrac{U}{R} = \\dfrac{${num(u)}}{${total}} = ${num(u / total)}\\ \\text{A}$。`, 4, 8);
            },
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
            make: (rng) => {
              const p = pick(rng, [40, 60, 100, 200, 500, 1000, 1500]);
              const h = int(rng, 1, 10);
              return blank(`一个 ${p} W 的用电器正常工作 ${h} h，消耗的电能是 ______ kW·h`, num((p / 1000) * h), `$W = Pt = ${num(p / 1000)}\\ \\text{kW} \\times ${h}\\ \\text{h} = ${num((p / 1000) * h)}\\ \\text{kW·h}$。`, 2);
            },
          },
          {
            title: '18.3 焦耳定律',
            point: '焦耳定律',
            make: (rng) => {
              const i = pick(rng, [0.5, 1, 2, 3]);
              const r = pick(rng, [2, 5, 10, 20, 50]);
              const t = pick(rng, [10, 30, 60, 100, 120]);
              return blank(`电流为 ${i} A 的电流通过 ${r} Ω 的电阻，${t} s 内产生的热量是 ______ J`, num(i * i * r * t), `由焦耳定律 $Q = I^2Rt = ${i}^2 \\times ${r} \\times ${t} = ${num(i * i * r * t)}\\ \\text{J}$。`, 3);
            },
          },
          {
            title: '18.2 电功率',
            point: '电功率',
            make: (rng) => {
              const u = pick(rng, [3, 6, 12, 220]);
              const i = pick(rng, [0.2, 0.5, 1, 2]);
              return single(rng, `某用电器两端电压为 ${u} V，通过的电流为 ${i} A，它的电功率是（　　）`, `${num(u * i)} W`, [`${num(u / i)} W`, `${num(u + i)} W`, `${num(u * i * 2)} W`, `${num((u * i) / 2)} W`], `$P = UI = ${u}\\ \\text{V} \\times ${i}\\ \\text{A} = ${num(u * i)}\\ \\text{W}$。`, 2);
            },
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
