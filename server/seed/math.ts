// 数学 exercise books for grades 7–9, written for the demo: every question computed from seeded numbers.
import { blank, frac, int, judge, paren, pick, single, solve, type BookSpec, type Rng } from './draft';

/** $x^2 + bx + c$ as printed: no zero terms, no coefficient 1. */
const quadratic = (b: number, c: number) =>
  `x^2${b === 0 ? '' : ` ${b < 0 ? '-' : '+'} ${Math.abs(b) === 1 ? '' : Math.abs(b)}x`}${c === 0 ? '' : ` ${c < 0 ? '-' : '+'} ${Math.abs(c)}`}`;

const nonZero = (rng: Rng, lo: number, hi: number) => {
  const n = int(rng, lo, hi);
  return n === 0 ? hi : n;
};

export const mathBooks: BookSpec[] = [
  {
    subject: '数学',
    gradeLevel: 7,
    title: '七年级数学上册 · 同步练习',
    edition: '学助原创',
    chapters: [
      {
        title: '第一章 有理数',
        point: '有理数',
        sections: [
          {
            title: '1.1 正数和负数',
            point: '正数和负数',
            make: (rng) => {
              const up = int(rng, 2, 30);
              const down = int(rng, 2, 30);
              return single(rng, `如果高于海平面 ${up} 米记作 $+${up}$ 米，那么低于海平面 ${down} 米记作（　　）`, `$-${down}$ 米`, [`$+${down}$ 米`, `$-${up}$ 米`, `$${up - down}$ 米`, `$${down + up}$ 米`], `高于海平面为正，低于海平面为负，所以低于海平面 ${down} 米记作 $-${down}$ 米。`, 1, 3);
            },
          },
          {
            title: '1.2 有理数的加减法',
            point: '有理数的加减法',
            make: (rng) => {
              const a = nonZero(rng, -20, 20);
              const b = int(rng, 1, 20);
              const c = nonZero(rng, -15, 15);
              const result = a - b + c;
              return blank(`计算：$${a} - ${b} + ${paren(c)} = $ ______`, String(result), `减去一个数等于加上它的相反数：$${a} - ${b} + ${paren(c)} = ${a} + (-${b}) + ${paren(c)} = ${result}$。`, 2);
            },
          },
          {
            title: '1.3 有理数的乘除法',
            point: '有理数的乘除法',
            make: (rng) => {
              const c = int(rng, 2, 6);
              const q = int(rng, 2, 9);
              const a = int(rng, 2, 9);
              const b = c * q;
              const value = a * q;
              return blank(`计算：$(-${a}) \\times ${b} \\div (-${c}) = $ ______`, String(value), `两数相乘除，同号得正。$(-${a}) \\times ${b} = -${a * b}$，$-${a * b} \\div (-${c}) = ${value}$。`, 2);
            },
          },
          {
            title: '1.4 有理数的乘方',
            point: '有理数的乘方',
            make: (rng) => {
              const a = int(rng, 2, 5);
              const n = int(rng, 2, 4);
              const value = (-a) ** n;
              const wrong = [String(-value), String(a * n), String(-a * n), String(value + a), String(-value - a), String(value - 1)];
              return single(rng, `$(-${a})^{${n}}$ 的值是（　　）`, String(value), wrong, `负数的偶次幂是正数，奇次幂是负数。$(-${a})^{${n}} = ${value}$。`, 2);
            },
          },
        ],
      },
      {
        title: '第二章 整式的加减',
        point: '整式的加减',
        sections: [
          {
            title: '2.1 合并同类项',
            point: '合并同类项',
            make: (rng) => {
              const a = int(rng, 2, 9);
              const b = int(rng, 2, 9);
              const c = int(rng, 1, Math.min(9, a + b - 1));
              const k = a + b - c;
              const term = (n: number) => (n === 1 ? 'x' : n === -1 ? '-x' : n === 0 ? '0' : `${n}x`);
              return single(rng, `合并同类项：$${a}x + ${b}x - ${c}x = $（　　）`, `$${term(k)}$`, [`$${term(a + b + c)}$`, `$${term(a - b - c)}$`, `$${term(k)}^2$`, `$${term(k + 1)}$`], `把同类项的系数相加，字母和指数不变：$(${a} + ${b} - ${c})x = ${term(k)}$。`, 1);
            },
          },
          {
            title: '2.2 去括号',
            point: '去括号',
            make: (rng) => {
              const p = int(rng, 2, 5);
              const m = int(rng, 1, 6);
              const q = int(rng, 2, 4);
              const n = int(rng, 1, 6);
              const coef = p - q;
              const constant = -p * m - q * n;
              const x = coef === 1 ? 'x' : coef === -1 ? '-x' : `${coef}x`;
              const expr = coef === 0 ? String(constant) : `${x} - ${-constant}`;
              return solve(`化简：$${p}(x - ${m}) - ${q}(x + ${n})$`, `$${expr}$`, `去括号：$${p}x - ${p * m} - ${q}x - ${q * n}$，合并同类项得 $${expr}$。括号前是负号时，括号内各项都要变号。`, 3, 6);
            },
          },
        ],
      },
      {
        title: '第三章 一元一次方程',
        point: '一元一次方程',
        sections: [
          {
            title: '3.1 解一元一次方程',
            point: '解一元一次方程',
            make: (rng) => {
              const a = int(rng, 2, 9);
              const x = nonZero(rng, -8, 12);
              const b = nonZero(rng, -20, 20);
              const c = a * x + b;
              return solve(`解方程：$${a}x ${b < 0 ? '-' : '+'} ${Math.abs(b)} = ${c}$`, `$x = ${x}$`, `移项得 $${a}x = ${c} ${b < 0 ? '+' : '-'} ${Math.abs(b)} = ${a * x}$，系数化为 1 得 $x = ${x}$。`, 2, 6);
            },
          },
          {
            title: '3.2 实际问题与一元一次方程',
            point: '实际问题与一元一次方程',
            make: (rng) => {
              const price = int(rng, 3, 12);
              const more = int(rng, 2, 8);
              const count = int(rng, 4, 15);
              const total = count * price + (count + more) * (price + 2);
              return solve(
                `学校买笔记本和钢笔，笔记本每本 ${price} 元，钢笔每支 ${price + 2} 元，钢笔比笔记本多买 ${more} 件，共花费 ${total} 元。笔记本买了多少本？`,
                `${count} 本`,
                `设笔记本买了 $x$ 本，则钢笔买了 $(x + ${more})$ 支。列方程 $${price}x + ${price + 2}(x + ${more}) = ${total}$，解得 $x = ${count}$。`,
                4,
                8,
              );
            },
          },
        ],
      },
    ],
  },
  {
    subject: '数学',
    gradeLevel: 8,
    title: '八年级数学上册 · 同步练习',
    edition: '学助原创',
    chapters: [
      {
        title: '第十一章 三角形',
        point: '三角形',
        sections: [
          {
            title: '11.1 三角形的内角和',
            point: '三角形的内角和',
            make: (rng) => {
              const a = int(rng, 30, 80);
              const b = int(rng, 30, 150 - a);
              return blank(`在 $\\triangle ABC$ 中，$\\angle A = ${a}^\\circ$，$\\angle B = ${b}^\\circ$，则 $\\angle C = $ ______°`, String(180 - a - b), `三角形内角和为 $180^\\circ$，$\\angle C = 180^\\circ - ${a}^\\circ - ${b}^\\circ = ${180 - a - b}^\\circ$。`, 1);
            },
          },
          {
            title: '11.2 多边形的内角和',
            point: '多边形及其内角和',
            make: (rng, i) => {
              const n = int(rng, 5, 12);
              const sum = (n - 2) * 180;
              const why = `$n$ 边形内角和为 $(n - 2) \\times 180^\\circ$，$(${n} - 2) \\times 180^\\circ = ${sum}^\\circ$。`;
              if (i % 2 === 1) return single(rng, `内角和为 $${sum}^\\circ$ 的多边形是（　　）`, `${n} 边形`, [`${n - 1} 边形`, `${n + 1} 边形`, `${n + 2} 边形`], why, 3);
              return single(rng, `${n} 边形的内角和是（　　）`, `$${sum}^\\circ$`, [`$${n * 180}^\\circ$`, `$${(n - 1) * 180}^\\circ$`, `$${(n - 3) * 180}^\\circ$`, `$360^\\circ$`], why, 2);
            },
          },
          {
            title: '11.3 三角形的三边关系',
            point: '三角形的三边关系',
            make: (rng, i) => {
              const a = int(rng, 3, 9);
              const b = int(rng, 3, 9);
              const forms = i % 2 === 0;
              const c = forms ? int(rng, Math.abs(a - b) + 1, a + b - 1) : a + b + int(rng, 0, 3);
              return judge(`长度分别为 ${a} cm、${b} cm、${c} cm 的三条线段能组成三角形。`, forms, `三角形任意两边之和大于第三边、两边之差小于第三边。${forms ? `$${Math.abs(a - b)} < ${c} < ${a + b}$，能组成三角形。` : `$${a} + ${b} = ${a + b} \\le ${c}$，不能组成三角形。`}`, 2);
            },
          },
        ],
      },
      {
        title: '第十四章 整式的乘法与因式分解',
        point: '整式的乘法与因式分解',
        sections: [
          {
            title: '14.1 同底数幂的乘法',
            point: '幂的运算',
            make: (rng) => {
              const m = int(rng, 2, 7);
              const n = int(rng, 2, 7);
              return single(rng, `计算 $a^{${m}} \\cdot a^{${n}}$ 的结果是（　　）`, `$a^{${m + n}}$`, [`$a^{${m * n}}$`, `$2a^{${m + n}}$`, `$a^{${Math.abs(m - n) + (m === n ? 1 : 0)}}$`, `$a^{${m + n + 1}}$`], `同底数幂相乘，底数不变，指数相加：$a^{${m}} \\cdot a^{${n}} = a^{${m + n}}$。`, 1);
            },
          },
          {
            title: '14.2 平方差公式',
            point: '乘法公式',
            make: (rng) => {
              const a = int(rng, 2, 12);
              const k = int(rng, 1, 3);
              const x = k === 1 ? 'x' : `${k}x`;
              const answer = `${k === 1 ? '' : k * k}x^2 - ${a * a}`;
              return blank(`计算：$(${x} + ${a})(${x} - ${a}) = $ ______`, `$${answer}$`, `平方差公式 $(a + b)(a - b) = a^2 - b^2$，所以结果为 $(${x})^2 - ${a}^2 = ${answer}$。`, 2);
            },
          },
          {
            title: '14.3 因式分解',
            point: '因式分解',
            make: (rng) => {
              const p = int(rng, 1, 7);
              const q = int(rng, 1, 7) + (rng() < 0.5 ? 0 : 1);
              const b = p + q;
              const c = p * q;
              return single(rng, `把 $x^2 + ${b}x + ${c}$ 因式分解，结果是（　　）`, `$(x + ${p})(x + ${q})$`, [`$(x - ${p})(x - ${q})$`, `$(x + ${c})(x - 1)$`, `$(x + ${b})(x - ${c === b ? c + 1 : c})$`, `$(x + ${p + 1})(x + ${q})$`], `十字相乘：$${p} \\times ${q} = ${c}$，$${p} + ${q} = ${b}$，所以 $x^2 + ${b}x + ${c} = (x + ${p})(x + ${q})$。`, 3);
            },
          },
        ],
      },
      {
        title: '第十五章 分式',
        point: '分式',
        sections: [
          {
            title: '15.1 分式方程',
            point: '分式方程',
            make: (rng) => {
              // a/x = b/(x - c) ⇒ x = ac/(a - b); pick x first so the root is an integer.
              const x = int(rng, 2, 9);
              const c = int(rng, 1, x - 1);
              const k = int(rng, 1, 3);
              const a = k * x;
              const b = k * (x - c);
              return solve(`解分式方程：$\\dfrac{${a}}{x} = \\dfrac{${b}}{x - ${c}}$`, `$x = ${x}$`, `去分母得 $${a}(x - ${c}) = ${b}x$，解得 $x = ${x}$。检验：$x = ${x}$ 时 $x(x - ${c}) \\ne 0$，所以 $x = ${x}$ 是原方程的解。`, 3, 8);
            },
          },
        ],
      },
      {
        title: '第十七章 勾股定理',
        point: '勾股定理',
        sections: [
          {
            title: '17.1 勾股定理',
            point: '勾股定理',
            make: (rng) => {
              const [p, q, r] = pick(rng, [
                [3, 4, 5],
                [5, 12, 13],
                [8, 15, 17],
                [6, 8, 10],
                [7, 24, 25],
              ]);
              const k = int(rng, 1, 3);
              return blank(`直角三角形的两条直角边分别为 ${p * k} 和 ${q * k}，则斜边长为 ______`, String(r * k), `由勾股定理，斜边 $= \\sqrt{${p * k}^2 + ${q * k}^2} = \\sqrt{${(r * k) ** 2}} = ${r * k}$。`, 2);
            },
          },
        ],
      },
    ],
  },
  {
    subject: '数学',
    gradeLevel: 9,
    title: '九年级数学上册 · 同步练习',
    edition: '学助原创',
    chapters: [
      {
        title: '第二十一章 一元二次方程',
        point: '一元二次方程',
        sections: [
          {
            title: '21.1 因式分解法解一元二次方程',
            point: '解一元二次方程',
            make: (rng) => {
              const p = int(rng, 1, 9);
              const drawn = -int(rng, 1, 9);
              // p + q = 0 would print a 0x term.
              const q = drawn === -p ? drawn - 1 : drawn;
              const b = -(p + q);
              const c = p * q;
              const roots = [p, q].sort((m, n) => m - n);
              return blank(`方程 $${quadratic(b, c)} = 0$ 的两个根是 ______（从小到大，用逗号隔开）`, `${roots[0]}，${roots[1]}`, `因式分解得 $(x - ${p})(x + ${-q}) = 0$，所以 $x_1 = ${roots[0]}$，$x_2 = ${roots[1]}$。`, 3);
            },
          },
          {
            title: '21.2 根的判别式',
            point: '一元二次方程根的判别式',
            make: (rng, i) => {
              const b = int(rng, 1, 8) * (rng() < 0.5 ? -1 : 1);
              const kind = i % 3;
              // kind 0: two roots (Δ > 0), 1: one double root (Δ = 0, b even), 2: none (Δ < 0).
              const bb = kind === 1 ? 2 * Math.ceil(Math.abs(b) / 2) * Math.sign(b) : b;
              const c = kind === 0 ? Math.floor((bb * bb) / 4) - int(rng, 1, 5) : kind === 1 ? (bb * bb) / 4 : Math.floor((bb * bb) / 4) + int(rng, 1, 5);
              const delta = bb * bb - 4 * c;
              const answers = ['有两个不相等的实数根', '有两个相等的实数根', '没有实数根'];
              return single(rng, `关于 $x$ 的方程 $${quadratic(bb, c)} = 0$ 的根的情况是（　　）`, answers[kind], [...answers.filter((_, k) => k !== kind), '无法确定'], `$\\Delta = b^2 - 4ac = ${bb * bb} - ${paren(4 * c)} = ${delta}$，${delta > 0 ? '$\\Delta > 0$，方程有两个不相等的实数根' : delta === 0 ? '$\\Delta = 0$，方程有两个相等的实数根' : '$\\Delta < 0$，方程没有实数根'}。`, 3);
            },
          },
          {
            title: '21.3 根与系数的关系',
            point: '一元二次方程根与系数的关系',
            make: (rng) => {
              const p = nonZero(rng, -6, 9);
              const drawn = nonZero(rng, -6, 9);
              const q = drawn === -p ? drawn + 10 : drawn;
              const b = -(p + q);
              const c = p * q;
              return blank(`若 $x_1$、$x_2$ 是方程 $${quadratic(b, c)} = 0$ 的两个根，则 $x_1 + x_2 = $ ______，$x_1 x_2 = $ ______`, `${p + q}；${c}`, `由根与系数的关系，$x_1 + x_2 = -\\dfrac{b}{a} = ${p + q}$，$x_1 x_2 = \\dfrac{c}{a} = ${c}$。`, 3, 4);
            },
          },
        ],
      },
      {
        title: '第二十二章 二次函数',
        point: '二次函数',
        sections: [
          {
            title: '22.1 二次函数的图象和性质',
            point: '二次函数的图象和性质',
            make: (rng) => {
              const a = nonZero(rng, -3, 3);
              const h = nonZero(rng, -5, 5);
              const k = nonZero(rng, -6, 6);
              return single(rng, `抛物线 $y = ${a === 1 ? '' : a === -1 ? '-' : a}(x ${h < 0 ? '+' : '-'} ${Math.abs(h)})^2 ${k < 0 ? '-' : '+'} ${Math.abs(k)}$ 的顶点坐标是（　　）`, `$(${h}, ${k})$`, [`$(${-h}, ${k})$`, `$(${h}, ${-k})$`, `$(${-h}, ${-k})$`, `$(${k}, ${h})$`], `抛物线 $y = a(x - h)^2 + k$ 的顶点为 $(h, k)$，所以顶点是 $(${h}, ${k})$。`, 2);
            },
          },
          {
            title: '22.2 二次函数与一元二次方程',
            point: '二次函数与一元二次方程',
            make: (rng) => {
              const p = int(rng, -6, -1);
              const drawn = int(rng, 1, 7);
              const q = drawn === -p ? drawn + 1 : drawn;
              const b = -(p + q);
              const c = p * q;
              return solve(`求抛物线 $y = ${quadratic(b, c)}$ 与 $x$ 轴的交点坐标。`, `$(${p}, 0)$，$(${q}, 0)$`, `令 $y = 0$，得 $${quadratic(b, c)} = 0$，即 $(x + ${-p})(x - ${q}) = 0$，所以 $x_1 = ${p}$，$x_2 = ${q}$，交点为 $(${p}, 0)$ 和 $(${q}, 0)$。`, 4, 8);
            },
          },
        ],
      },
      {
        title: '第二十四章 圆',
        point: '圆',
        sections: [
          {
            title: '24.1 圆周角',
            point: '圆周角定理',
            make: (rng) => {
              const inscribed = int(rng, 15, 80);
              return blank(`在 $\\odot O$ 中，弧 $AB$ 所对的圆周角 $\\angle ACB = ${inscribed}^\\circ$，则圆心角 $\\angle AOB = $ ______°`, String(2 * inscribed), `同弧所对的圆周角等于它所对圆心角的一半，所以 $\\angle AOB = 2 \\times ${inscribed}^\\circ = ${2 * inscribed}^\\circ$。`, 2);
            },
          },
          {
            title: '24.2 弧长和扇形面积',
            point: '弧长和扇形面积',
            make: (rng) => {
              const n = pick(rng, [30, 45, 60, 90, 120, 135, 150]);
              const r = int(rng, 2, 12);
              const length = frac(n * r, 180);
              return blank(`半径为 ${r} 的圆中，${n}° 的圆心角所对的弧长为 ______（结果保留 $\\pi$）`, `$${length === '1' ? '' : length}\\pi$`, `弧长 $l = \\dfrac{n\\pi r}{180} = \\dfrac{${n} \\times ${r}\\pi}{180} = ${length === '1' ? '' : length}\\pi$。`, 3);
            },
          },
        ],
      },
      {
        title: '第二十五章 概率初步',
        point: '概率初步',
        sections: [
          {
            title: '25.1 用列举法求概率',
            point: '用列举法求概率',
            make: (rng) => {
              const red = int(rng, 1, 8);
              const white = int(rng, 1, 8) + (red % 2);
              const answer = `$${frac(red, red + white)}$`;
              return single(rng, `一个不透明的袋子里有 ${red} 个红球和 ${white} 个白球，它们除颜色外都相同。从中随机摸出一个球，摸到红球的概率是（　　）`, answer, [`$${frac(white, red + white)}$`, `$${frac(red, white === red ? white + 1 : white)}$`, `$${frac(1, red + white)}$`, `$${frac(1, 2)}$` === answer ? `$${frac(1, 3)}$` : `$${frac(1, 2)}$`, `$${frac(red + 1, red + white + 1)}$`], `共有 ${red + white} 个球，摸到每个球的可能性相同，红球有 ${red} 个，所以 $P(\\text{红球}) = ${frac(red, red + white)}$。`, 2);
            },
          },
        ],
      },
    ],
  },
];
