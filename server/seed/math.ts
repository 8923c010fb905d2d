// 数学 exercise books for grades 7–9, written for the demo: every question computed from seeded numbers.
import { blank, forms, frac, int, judge, nth, num, paren, pick, single, solve, type BookSpec, type Rng } from './draft';

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
            make: forms(
              (rng) => {
                const up = int(rng, 2, 30);
                const down = int(rng, 2, 30);
                return single(rng, `如果高于海平面 ${up} 米记作 $+${up}$ 米，那么低于海平面 ${down} 米记作（　　）`, `$-${down}$ 米`, [`$+${down}$ 米`, `$-${up}$ 米`, `$${up - down}$ 米`, `$${down + up}$ 米`], `高于海平面为正，低于海平面为负，所以低于海平面 ${down} 米记作 $-${down}$ 米。`, 1, 3);
              },
              (rng) => {
                const hi = int(rng, 3, 15);
                const lo = int(rng, 1, 12);
                return blank(`某地一天的最高气温是 ${hi}℃，最低气温是 $-${lo}$℃，这一天的温差是 ______℃`, String(hi + lo), `温差 = 最高气温 − 最低气温 $= ${hi} - (-${lo}) = ${hi + lo}$（℃）。`, 2, 3, [String(hi - lo), String(-(hi + lo))]);
              },
              (rng) => {
                const a = int(rng, 2, 30);
                return single(rng, `比 0 小 ${a} 的数是（　　）`, `$-${a}$`, [`$${a}$`, '$0$', `$\\frac{1}{${a}}$`], `比 0 小的数是负数，比 0 小 ${a} 的数是 $0 - ${a} = -${a}$。`, 1, 3);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['0 既不是正数，也不是负数。', true, '0 是正数和负数的分界。'],
                  ['不带“+”号的数都是正数。', false, '0 不带“+”号，但 0 不是正数。'],
                  ['若向东走 5 米记作 +5 米，则 −3 米表示向西走 3 米。', true, '相反意义的量用正负数表示。'],
                ], i, 5);
                return judge(stem, ok, why, 1);
              },
              (rng) => {
                const x = int(rng, 20, 90) * 10;
                const y = int(rng, 5, 60) * 10;
                return blank(`小华记账时把收入 ${x} 元记作 $+${x}$ 元，那么支出 ${y} 元应记作 ______ 元`, `-${y}`, `收入记为正，支出就记为负：$-${y}$ 元。`, 1, 3, [String(y), `+${y}`]);
              },
            ),
          },
          {
            title: '1.2 有理数的加减法',
            point: '有理数的加减法',
            make: forms(
              (rng) => {
                const a = nonZero(rng, -20, 20);
                const b = int(rng, 1, 20);
                const c = nonZero(rng, -15, 15);
                const result = a - b + c;
                return blank(`计算：$${a} - ${b} + ${paren(c)} = $ ______`, String(result), `减去一个数等于加上它的相反数：$${a} - ${b} + ${paren(c)} = ${a} + (-${b}) + ${paren(c)} = ${result}$。`, 2, 3, [String(a + b + c), String(a - b - c)]);
              },
              (rng) => {
                const a = int(rng, 2, 12);
                const b = int(rng, 2, 9);
                return single(rng, `比 $-${a}$ 小 ${b} 的数是（　　）`, `$${-(a + b)}$`, [`$${b - a === -(a + b) ? b + a : b - a}$`, `$${a + b}$`, `$${a - b === b - a ? a - b + 1 : a - b}$`, `$${-(a + b) + 1}$`], `比一个数小 ${b}，就是减去 ${b}：$-${a} - ${b} = ${-(a + b)}$。`, 2, 3);
              },
              (rng) => {
                const a = int(rng, 1, 9);
                const b = int(rng, 1, 9);
                return blank(`数轴上点 $A$ 表示 $-${a}$，点 $B$ 表示 ${b}，则 $A$、$B$ 两点之间的距离是 ______`, String(a + b), `两点间的距离 $= ${b} - (-${a}) = ${a + b}$。`, 2, 3, [String(b - a), String(Math.abs(a - b) + 1)]);
              },
              (rng) => {
                const moves = Array.from({ length: 5 }, (_, k) => (k % 2 === 0 ? 1 : -1) * int(rng, 5, 40));
                const sum = moves.reduce((s, x) => s + x, 0);
                const text = moves.map((x) => (x > 0 ? `+${x}` : String(x))).join('，');
                return solve(`某粮库一周内粮食进出的吨数记录如下（运进为正，运出为负）：${text}。这一周粮库里的粮食是增加了还是减少了？变化了多少吨？`, sum >= 0 ? `增加了 ${sum} 吨` : `减少了 ${-sum} 吨`, `把各数相加：$${moves.map(paren).join(' + ')} = ${sum}$，所以粮食${sum >= 0 ? `增加了 ${sum}` : `减少了 ${-sum}`} 吨。`, 3, 6, [sum >= 0 ? `减少了 ${sum} 吨` : `增加了 ${-sum} 吨`, `${moves.reduce((s, x) => s + Math.abs(x), 0)} 吨`]);
              },
            ),
          },
          {
            title: '1.3 有理数的乘除法',
            point: '有理数的乘除法',
            make: forms(
              (rng) => {
                const c = int(rng, 2, 6);
                const q = int(rng, 2, 9);
                const a = int(rng, 2, 9);
                const b = c * q;
                const value = a * q;
                return blank(`计算：$(-${a}) \\times ${b} \\div (-${c}) = $ ______`, String(value), `两数相乘除，同号得正。$(-${a}) \\times ${b} = -${a * b}$，$-${a * b} \\div (-${c}) = ${value}$。`, 2, 3, [String(-value)]);
              },
              (rng) => {
                const a = int(rng, 2, 9);
                return single(rng, `$-${a}$ 的倒数是（　　）`, `$-\\frac{1}{${a}}$`, [`$\\frac{1}{${a}}$`, `$${a}$`, `$-${a}$`], `乘积是 1 的两个数互为倒数，$-${a} \\times (-\\frac{1}{${a}}) = 1$。注意不要和相反数 ${a} 混淆。`, 1, 3);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['几个不为 0 的数相乘，负因数有奇数个时，积为负。', true, '积的符号由负因数的个数决定：奇数个为负，偶数个为正。'],
                  ['任何有理数都有倒数。', false, '0 没有倒数。'],
                  ['一个数除以 −1，商等于这个数的相反数。', true, '$a \\div (-1) = -a$。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
              (rng) => {
                const v = int(rng, 3, 12);
                const t = int(rng, 2, 9);
                return blank(`一艘潜水器从海面开始匀速下潜，每分钟下潜 ${v} 米。以海平面为 0、向上为正，${t} 分钟后它的位置是 ______ 米`, String(-v * t), `下潜用负数表示：$(-${v}) \\times ${t} = ${-v * t}$（米）。`, 2, 3, [String(v * t), String(-v - t)]);
              },
            ),
          },
          {
            title: '1.4 有理数的乘方',
            point: '有理数的乘方',
            make: forms(
              (rng) => {
                const a = int(rng, 2, 5);
                const n = int(rng, 2, 4);
                const value = (-a) ** n;
                const wrong = [String(-value), String(a * n), String(-a * n), String(value + a), String(-value - a), String(value - 1)];
                return single(rng, `$(-${a})^{${n}}$ 的值是（　　）`, String(value), wrong, `负数的偶次幂是正数，奇次幂是负数。$(-${a})^{${n}} = ${value}$。`, 2);
              },
              (rng) => {
                const a = int(rng, 2, 9);
                return blank(`计算：$-${a}^2 = $ ______`, String(-a * a), `$-${a}^2$ 表示 $${a}^2$ 的相反数，底数是 ${a} 而不是 $-${a}$，所以结果是 $-${a * a}$。`, 3, 3, [String(a * a), String(-2 * a)]);
              },
              (rng, i) => {
                const a = int(rng, 2, 6);
                const n = 2 + (i % 2) + 2 * int(rng, 0, 1);
                const equal = n % 2 === 1;
                return judge(`$(-${a})^{${n}}$ 与 $-${a}^{${n}}$ 的值相等。`, equal, `$(-${a})^{${n}} = ${(-a) ** n}$，$-${a}^{${n}} = ${-(a ** n)}$，${equal ? '指数是奇数时两者相等' : '指数是偶数时两者互为相反数'}。`, 3);
              },
              (rng) => {
                const m = int(rng, 11, 99) / 10;
                const k = int(rng, 4, 8);
                const n = Math.round(m * 10 ** k);
                return blank(`用科学记数法表示 ${n.toLocaleString('en-US').replace(/,/g, ' ')}：______`, `$${num(m)} \\times 10^{${k}}$`, `把小数点移到第一个非零数字后面：$${n} = ${num(m)} \\times 10^{${k}}$，指数等于原数整数位数减 1。`, 2, 3, [`$${num(m)} \\times 10^{${k + 1}}$`, `$${num(m * 10)} \\times 10^{${k - 1}}$`]);
              },
            ),
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
            make: forms(
              (rng) => {
                const a = int(rng, 2, 9);
                const b = int(rng, 2, 9);
                const c = int(rng, 1, Math.min(9, a + b - 1));
                const k = a + b - c;
                const term = (n: number) => (n === 1 ? 'x' : n === -1 ? '-x' : n === 0 ? '0' : `${n}x`);
                return single(rng, `合并同类项：$${a}x + ${b}x - ${c}x = $（　　）`, `$${term(k)}$`, [`$${term(a + b + c)}$`, `$${term(a - b - c)}$`, `$${term(k)}^2$`, `$${term(k + 1)}$`], `把同类项的系数相加，字母和指数不变：$(${a} + ${b} - ${c})x = ${term(k)}$。`, 1);
              },
              (rng, i) => {
                const a = int(rng, 2, 9);
                const b = int(rng, 2, 9);
                const same = i % 2 === 0;
                return judge(`$${a}x^2y$ 与 $-${b}${same ? 'yx^2' : 'xy^2'}$ 是同类项。`, same, same ? '所含字母相同，相同字母的指数也相同，是同类项（与字母顺序、系数无关）。' : '相同字母 $x$、$y$ 的指数不同，不是同类项。', 2);
              },
              (rng) => {
                const p = int(rng, 2, 5);
                const q = int(rng, 2, 5);
                const a = int(rng, 2, 7);
                const b = int(rng, 2, 7);
                return blank(`若 $${a}x^{m}y^{${q}}$ 与 $-${b}x^{${p}}y^{n}$ 是同类项，则 $m + n = $ ______`, String(p + q), `同类项中相同字母的指数相同，所以 $m = ${p}$，$n = ${q}$，$m + n = ${p + q}$。`, 3, 3, [String(p * q), String(p)]);
              },
              (rng) => {
                const [a, b, c, d] = [int(rng, 2, 6), int(rng, 2, 9), int(rng, 1, 5), int(rng, 1, 9)];
                const x = nonZero(rng, -3, 3);
                const A = a + c;
                const B = d - b;
                const value = A * x * x + B * x;
                const simplified = `${A}x^2${B === 0 ? '' : ` ${B < 0 ? '-' : '+'} ${Math.abs(B) === 1 ? '' : Math.abs(B)}x`}`;
                return solve(`先化简，再求值：$${a}x^2 - ${b}x + ${c}x^2 + ${d}x$，其中 $x = ${x}$。`, `${value}`, `原式 $= ${simplified}$。当 $x = ${x}$ 时，原式 $= ${A} \\times ${paren(x)}^2 ${B < 0 ? '-' : '+'} ${Math.abs(B)} \\times ${paren(x)} = ${value}$。`, 3, 6, [String(A * x * x - B * x), String(-value)]);
              },
            ),
          },
          {
            title: '2.2 去括号',
            point: '去括号',
            make: forms(
              (rng) => {
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
              (rng) => {
                const c = int(rng, 2, 9);
                return single(rng, `化简 $a - (b - ${c})$ 的结果是（　　）`, `$a - b + ${c}$`, [`$a - b - ${c}$`, `$a + b - ${c}$`, `$a + b + ${c}$`], `括号前是“−”号，去括号后括号内各项都变号：$a - (b - ${c}) = a - b + ${c}$。`, 2);
              },
              (rng) => {
                const a = int(rng, 2, 9);
                const b = int(rng, 1, 9);
                return blank(`化简：$-(${a}x - ${b}) = $ ______`, `$-${a}x + ${b}$`, `括号前是负号，去括号时各项都变号：$-(${a}x - ${b}) = -${a}x + ${b}$。`, 2, 3, [`$-${a}x - ${b}$`, `$${a}x - ${b}$`]);
              },
              (rng, i) => {
                const k = int(rng, 2, 6);
                const m = int(rng, 1, 8);
                const right = i % 2 === 1;
                return judge(`$-${k}(x - ${m}) = -${k}x ${right ? '+' : '-'} ${k * m}$`, right, `用乘法分配律去括号，$-${k}$ 要乘括号内的每一项：$-${k} \\times (-${m}) = +${k * m}$，所以 $-${k}(x - ${m}) = -${k}x + ${k * m}$。`, 2);
              },
            ),
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
            make: forms(
              (rng) => {
                const a = int(rng, 2, 9);
                const x = nonZero(rng, -8, 12);
                const b = nonZero(rng, -20, 20);
                const c = a * x + b;
                return solve(`解方程：$${a}x ${b < 0 ? '-' : '+'} ${Math.abs(b)} = ${c}$`, `$x = ${x}$`, `移项得 $${a}x = ${c} ${b < 0 ? '+' : '-'} ${Math.abs(b)} = ${a * x}$，系数化为 1 得 $x = ${x}$。`, 2, 6, [`$x = ${-x}$`, `$x = ${num((c + b) / a)}$`]);
              },
              (rng) => {
                const x = nonZero(rng, -5, 6);
                const a = int(rng, 2, 7);
                const m = int(rng, -9, 9);
                const c = a * x + m;
                return blank(`若 $x = ${x}$ 是关于 $x$ 的方程 $${a}x + m = ${c}$ 的解，则 $m = $ ______`, String(m), `把 $x = ${x}$ 代入方程：$${a} \\times ${paren(x)} + m = ${c}$，所以 $m = ${c} - ${paren(a * x)} = ${m}$。`, 2, 3);
              },
              (rng) => {
                const a = int(rng, 2, 5);
                const b = int(rng, 1, 6);
                const k = nonZero(rng, -4, 5);
                const x = b + k;
                const wrong = [b * k, k, b - k, x + 1, x - 1].filter((w) => w !== x).map((w) => `$x = ${w}$`);
                return single(rng, `方程 $${a}(x - ${b}) = ${a * k}$ 的解是（　　）`, `$x = ${x}$`, wrong, `两边同除以 ${a}：$x - ${b} = ${k}$，所以 $x = ${x}$。`, 2);
              },
              (rng, i) => {
                const a = int(rng, 2, 9);
                const b = int(rng, 2, 9) + (a % 2);
                const right = i % 2 === 1;
                return judge(`由 $${a}x = ${b}$ 得 $x = ${right ? frac(b, a) : frac(a, b)}$。`, right, `系数化为 1 时，两边都除以 $x$ 的系数 ${a}：$x = ${frac(b, a)}$。`, 2);
              },
            ),
          },
          {
            title: '3.2 实际问题与一元一次方程',
            point: '实际问题与一元一次方程',
            make: forms(
              (rng) => {
                const price = int(rng, 3, 12);
                const more = int(rng, 2, 8);
                const count = int(rng, 4, 15);
                const total = count * price + (count + more) * (price + 2);
                return solve(`学校买笔记本和钢笔，笔记本每本 ${price} 元，钢笔每支 ${price + 2} 元，钢笔比笔记本多买 ${more} 件，共花费 ${total} 元。笔记本买了多少本？`, `${count} 本`, `设笔记本买了 $x$ 本，则钢笔买了 $(x + ${more})$ 支。列方程 $${price}x + ${price + 2}(x + ${more}) = ${total}$，解得 $x = ${count}$。`, 4, 8, [`${count + more} 本`]);
              },
              (rng) => {
                const v1 = int(rng, 3, 6);
                const v2 = int(rng, 3, 6) + 1;
                const t = int(rng, 2, 5);
                const d = (v1 + v2) * t;
                return solve(`甲、乙两人从相距 ${d} 千米的两地同时出发，相向而行。甲每小时走 ${v1} 千米，乙每小时走 ${v2} 千米，几小时后两人相遇？`, `${t} 小时`, `设 $x$ 小时后相遇，则 $${v1}x + ${v2}x = ${d}$，解得 $x = ${t}$。`, 3, 8, [`${num(d / Math.abs(v2 - v1 || 1))} 小时`]);
              },
              (rng) => {
                const k = int(rng, 3, 4);
                const s = int(rng, 6, 12);
                const x = int(rng, 2, 8);
                const f = k * (s + x) - x;
                return blank(`今年父亲 ${f} 岁，儿子 ${s} 岁，______ 年后父亲的年龄是儿子的 ${k} 倍`, String(x), `设 $x$ 年后，则 $${f} + x = ${k}(${s} + x)$，解得 $x = ${x}$。`, 3, 3);
              },
              (rng) => {
                const p = pick(rng, [7, 8, 9]);
                const price = int(rng, 10, 40) * 10;
                const sale = (price * p) / 10;
                return single(rng, `一件衣服按标价的 ${p} 折出售，售价是 ${num(sale)} 元，这件衣服的标价是（　　）`, `${price} 元`, [`${num((sale * p) / 10)} 元`, `${num(sale + price / 10)} 元`, `${num(sale * (1 + p / 10))} 元`, `${num(sale - 10)} 元`], `设标价为 $x$ 元，$${p / 10}x = ${num(sale)}$，$x = ${price}$。`, 3);
              },
            ),
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
            make: forms(
              (rng) => {
                const a = int(rng, 30, 80);
                const b = int(rng, 30, 150 - a);
                return blank(`在 $\\triangle ABC$ 中，$\\angle A = ${a}^\\circ$，$\\angle B = ${b}^\\circ$，则 $\\angle C = $ ______°`, String(180 - a - b), `三角形内角和为 $180^\\circ$，$\\angle C = 180^\\circ - ${a}^\\circ - ${b}^\\circ = ${180 - a - b}^\\circ$。`, 1);
              },
              (rng) => {
                const top = int(rng, 4, 16) * 10;
                return blank(`等腰三角形的顶角是 ${top}°，它的一个底角是 ______°`, num((180 - top) / 2), `等腰三角形两底角相等：$(180^\\circ - ${top}^\\circ) \\div 2 = ${num((180 - top) / 2)}^\\circ$。`, 2, 3, [String(180 - top), String(top)]);
              },
              (rng) => {
                const a = int(rng, 20, 70);
                return single(rng, `直角三角形的一个锐角是 ${a}°，另一个锐角是（　　）`, `${90 - a}°`, [`${180 - a}°`, `${a}°`, `${90 + a}°`, `${100 - a}°`], `直角三角形的两个锐角互余：$90^\\circ - ${a}^\\circ = ${90 - a}^\\circ$。`, 1);
              },
              (rng) => {
                const a = int(rng, 30, 70);
                const b = int(rng, 30, 70);
                return blank(`已知三角形的两个内角分别为 ${a}° 和 ${b}°，那么第三个内角的外角为 ______°`, String(a + b), `三角形的一个外角等于与它不相邻的两个内角的和：$${a}^\\circ + ${b}^\\circ = ${a + b}^\\circ$。`, 3, 3, [String(180 - a - b), String(180 - a)]);
              },
            ),
          },
          {
            title: '11.2 多边形的内角和',
            point: '多边形及其内角和',
            make: forms(
              (rng, i) => {
                const n = int(rng, 5, 12);
                const sum = (n - 2) * 180;
                const why = `$n$ 边形内角和为 $(n - 2) \\times 180^\\circ$，$(${n} - 2) \\times 180^\\circ = ${sum}^\\circ$。`;
                if (i % 2 === 1) return single(rng, `内角和为 $${sum}^\\circ$ 的多边形是（　　）`, `${n} 边形`, [`${n - 1} 边形`, `${n + 1} 边形`, `${n + 2} 边形`], why, 3);
                return single(rng, `${n} 边形的内角和是（　　）`, `$${sum}^\\circ$`, [`$${n * 180}^\\circ$`, `$${(n - 1) * 180}^\\circ$`, `$${(n - 3) * 180}^\\circ$`, `$360^\\circ$`], why, 2);
              },
              (rng) => {
                const n = int(rng, 5, 12);
                return blank(`一个正 ${n} 边形的每个外角都等于 ______°（结果保留一位小数）`, num(Math.round((3600 / n)) / 10), `多边形的外角和是 $360^\\circ$，正 ${n} 边形每个外角 $= 360^\\circ \\div ${n} \\approx ${num(Math.round(3600 / n) / 10)}^\\circ$。`, 3, 3, [num(Math.round(((n - 2) * 1800) / n) / 10), String(360 * n)]);
              },
              (rng, i) => {
                const n = int(rng, 5, 10);
                const right = i % 2 === 0;
                return judge(`${n} 边形的外角和是 ${right ? 360 : (n - 2) * 180}°。`, right, `任意多边形的外角和都是 $360^\\circ$，与边数无关。`, 2);
              },
              (rng) => {
                const n = int(rng, 4, 12);
                return blank(`从 ${n} 边形的一个顶点出发，可以画 ______ 条对角线`, String(n - 3), `从一个顶点出发，除去它本身和相邻的两个顶点，可画 $${n} - 3 = ${n - 3}$ 条对角线。`, 2, 3, [String(n - 2), String((n * (n - 3)) / 2)]);
              },
            ),
          },
          {
            title: '11.3 三角形的三边关系',
            point: '三角形的三边关系',
            make: forms(
              (rng, i) => {
                const a = int(rng, 3, 9);
                const b = int(rng, 3, 9);
                const forms = i % 2 === 0;
                const c = forms ? int(rng, Math.abs(a - b) + 1, a + b - 1) : a + b + int(rng, 0, 3);
                return judge(`长度分别为 ${a} cm、${b} cm、${c} cm 的三条线段能组成三角形。`, forms, `三角形任意两边之和大于第三边、两边之差小于第三边。${forms ? `$${Math.abs(a - b)} < ${c} < ${a + b}$，能组成三角形。` : `$${a} + ${b} = ${a + b} \\le ${c}$，不能组成三角形。`}`, 2);
              },
              (rng) => {
                const a = int(rng, 3, 9);
                const b = int(rng, a + 1, a + 8);
                return blank(`三角形的两边长分别为 ${a} 和 ${b}，则第三边 $x$ 的取值范围是 ______`, `${b - a} < x < ${a + b}`, `两边之差 < 第三边 < 两边之和：$${b} - ${a} < x < ${b} + ${a}$。`, 3, 3, [`${b - a} ≤ x ≤ ${a + b}`, `x < ${a + b}`, `${a} < x < ${b}`]);
              },
              (rng) => {
                const a = int(rng, 2, 6);
                const b = a + int(rng, 2, 5);
                const ok = b + int(rng, 0, a - 1);
                return single(rng, `已知三角形两边长为 ${a} cm 和 ${b} cm，第三边的长可以是（　　）`, `${ok} cm`, [`${b - a} cm`, `${a + b} cm`, `${a + b + 2} cm`, `${b - a - 1} cm`], `第三边应大于 ${b - a} cm 且小于 ${a + b} cm，只有 ${ok} cm 符合。`, 2);
              },
              (rng) => {
                const a = int(rng, 3, 8);
                const b = a + int(rng, 1, 4);
                return single(rng, `用长为 ${a} cm、${b} cm 的两根小木棒和第三根木棒钉成三角形，第三根木棒最短是（　　）（长度取整厘米）`, `${b - a + 1} cm`, [`${b - a} cm`, `${b - a + 2} cm`, `${a + b - 1} cm`, `1 cm`], `第三边要大于 $${b} - ${a} = ${b - a}$，取整数最短为 ${b - a + 1} cm。`, 3);
              },
            ),
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
            make: forms(
              (rng) => {
                const m = int(rng, 2, 7);
                const n = int(rng, 2, 7);
                return single(rng, `计算 $a^{${m}} \\cdot a^{${n}}$ 的结果是（　　）`, `$a^{${m + n}}$`, [`$a^{${m * n}}$`, `$2a^{${m + n}}$`, `$a^{${Math.abs(m - n) + (m === n ? 1 : 0)}}$`, `$a^{${m + n + 1}}$`], `同底数幂相乘，底数不变，指数相加：$a^{${m}} \\cdot a^{${n}} = a^{${m + n}}$。`, 1);
              },
              (rng) => {
                const m = int(rng, 2, 5);
                const n = int(rng, 2, 4);
                return blank(`计算：$(a^{${m}})^{${n}} = $ ______`, `$a^{${m * n}}$`, `幂的乘方，底数不变，指数相乘：$(a^{${m}})^{${n}} = a^{${m * n}}$。`, 2, 3, [`$a^{${m + n}}$`, `$a^{${m ** n}}$`]);
              },
              (rng, i) => {
                const m = int(rng, 2, 6);
                const right = i % 2 === 1;
                return judge(`$a^{${m}} + a^{${m}} = ${right ? `2a^{${m}}` : `a^{${2 * m}}`}$`, right, `这是合并同类项，系数相加，字母和指数不变：$a^{${m}} + a^{${m}} = 2a^{${m}}$。`, 2);
              },
              (rng) => {
                const x = int(rng, 2, 5);
                const y = int(rng, 2, 5);
                return blank(`已知 $2^m = ${2 ** x}$，$2^n = ${2 ** y}$，则 $2^{m + n} = $ ______`, String(2 ** (x + y)), `$2^{m + n} = 2^m \\cdot 2^n = ${2 ** x} \\times ${2 ** y} = ${2 ** (x + y)}$。`, 3, 3, [String(2 ** x + 2 ** y)]);
              },
            ),
          },
          {
            title: '14.2 平方差公式',
            point: '乘法公式',
            make: forms(
              (rng) => {
                const a = int(rng, 2, 12);
                const k = int(rng, 1, 3);
                const x = k === 1 ? 'x' : `${k}x`;
                const answer = `${k === 1 ? '' : k * k}x^2 - ${a * a}`;
                return blank(`计算：$(${x} + ${a})(${x} - ${a}) = $ ______`, `$${answer}$`, `平方差公式 $(a + b)(a - b) = a^2 - b^2$，所以结果为 $(${x})^2 - ${a}^2 = ${answer}$。`, 2);
              },
              (rng) => {
                const a = int(rng, 2, 9);
                return single(rng, `计算 $(x + ${a})^2$ 的结果是（　　）`, `$x^2 + ${2 * a}x + ${a * a}$`, [`$x^2 + ${a * a}$`, `$x^2 + ${a}x + ${a * a}$`, `$x^2 - ${2 * a}x + ${a * a}$`], `完全平方公式 $(a + b)^2 = a^2 + 2ab + b^2$，中间项 $2 \\times x \\times ${a} = ${2 * a}x$ 不能漏。`, 2);
              },
              (rng) => {
                const n = pick(rng, [98, 99, 101, 102, 199, 201]);
                const b = Math.round(n / 100) * 100;
                const d = n - b;
                return blank(`用简便方法计算：$${n} \\times ${b - d} = $ ______`, String(n * (b - d)), `$${n} \\times ${b - d} = (${b} ${d < 0 ? '-' : '+'} ${Math.abs(d)})(${b} ${d < 0 ? '+' : '-'} ${Math.abs(d)}) = ${b}^2 - ${Math.abs(d)}^2 = ${n * (b - d)}$。`, 3, 3, [String(b * b + d * d)]);
              },
              (rng) => {
                const a = int(rng, 2, 8);
                return solve(`先化简，再求值：$(x + ${a})(x - ${a}) - x(x - 2)$，其中 $x = ${a}$。`, String(2 * a - a * a), `原式 $= x^2 - ${a * a} - x^2 + 2x = 2x - ${a * a}$。当 $x = ${a}$ 时，原式 $= ${2 * a} - ${a * a} = ${2 * a - a * a}$。`, 3, 6);
              },
            ),
          },
          {
            title: '14.3 因式分解',
            point: '因式分解',
            make: forms(
              (rng) => {
                const p = int(rng, 1, 7);
                const q = int(rng, 1, 7) + (rng() < 0.5 ? 0 : 1);
                const b = p + q;
                const c = p * q;
                return single(rng, `把 $x^2 + ${b}x + ${c}$ 因式分解，结果是（　　）`, `$(x + ${p})(x + ${q})$`, [`$(x - ${p})(x - ${q})$`, `$(x + ${c})(x - 1)$`, `$(x + ${b})(x - ${c === b ? c + 1 : c})$`, `$(x + ${p + 1})(x + ${q})$`], `十字相乘：$${p} \\times ${q} = ${c}$，$${p} + ${q} = ${b}$，所以 $x^2 + ${b}x + ${c} = (x + ${p})(x + ${q})$。`, 3);
              },
              (rng) => {
                const a = int(rng, 2, 9);
                return blank(`因式分解：$x^2 - ${a * a} = $ ______`, `$(x + ${a})(x - ${a})$`, `平方差公式：$x^2 - ${a}^2 = (x + ${a})(x - ${a})$。`, 2, 3, [`$(x - ${a})^2$`, `$(x + ${a})^2$`]);
              },
              (rng) => {
                const k = int(rng, 2, 6);
                const b = int(rng, 2, 9);
                return single(rng, `将多项式 $${k}x^2 - ${k * b}x$ 提取公因式后，正确的是（　　）`, `$${k}x(x - ${b})$`, [`$x(${k}x - ${b})$`, `$${k}(x^2 - ${b}x)$`, `$${k}x(x + ${b})$`], `提取公因式 $${k}x$：$${k}x^2 - ${k * b}x = ${k}x(x - ${b})$，公因式要提尽。`, 2);
              },
              (rng) => {
                const a = int(rng, 1, 6);
                return blank(`若 $x^2 + ${2 * a}x + m$ 是一个完全平方式，则 $m = $ ______`, String(a * a), `完全平方式 $x^2 + 2 \\cdot ${a} \\cdot x + ${a}^2 = (x + ${a})^2$，所以 $m = ${a * a}$。`, 3, 3, [String(2 * a), String(a)]);
              },
            ),
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
            make: forms(
              (rng) => {
                // a/x = b/(x - c) ⇒ x = ac/(a - b); pick x first so the root is an integer.
                const x = int(rng, 2, 9);
                const c = int(rng, 1, x - 1);
                const k = int(rng, 1, 3);
                const a = k * x;
                const b = k * (x - c);
                return solve(`解分式方程：$\\dfrac{${a}}{x} = \\dfrac{${b}}{x - ${c}}$`, `$x = ${x}$`, `去分母得 $${a}(x - ${c}) = ${b}x$，解得 $x = ${x}$。检验：$x = ${x}$ 时 $x(x - ${c}) \\ne 0$，所以 $x = ${x}$ 是原方程的解。`, 3, 8);
              },
              (rng) => {
                const a = int(rng, 2, 6);
                return single(rng, `分式 $\\dfrac{${a}}{x - ${a}}$ 有意义的条件是（　　）`, `$x \\ne ${a}$`, [`$x \\ne 0$`, `$x = ${a}$`, `$x \\ne -${a}$`], `分母不为 0：$x - ${a} \\ne 0$，即 $x \\ne ${a}$。`, 1);
              },
              (rng) => {
                const a = int(rng, 2, 9);
                return blank(`当 $x = $ ______ 时，分式 $\\dfrac{x - ${a}}{x + ${a}}$ 的值为 0`, String(a), `分子为 0 且分母不为 0：$x - ${a} = 0$，且 $x + ${a} \\ne 0$，所以 $x = ${a}$。`, 2, 3, [String(-a), `±${a}`]);
              },
              (rng) => {
                const v = int(rng, 4, 12) * 5;
                const d = v * int(rng, 2, 6);
                const k = 2;
                return solve(`甲、乙两人各走 ${d} 米，乙的速度是甲的 ${k} 倍，结果乙比甲少用 ${d / v / 2 * 60 / 60} 分钟。求甲的速度（米/分）。`, `${v} 米/分`, `设甲的速度为 $x$ 米/分，则 $\\dfrac{${d}}{x} - \\dfrac{${d}}{${k}x} = ${d / v / 2}$，解得 $x = ${v}$，经检验 $x = ${v}$ 是原方程的解。`, 4, 8, [`${2 * v} 米/分`]);
              },
            ),
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
            make: forms(
              (rng) => {
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
              (rng) => {
                const [p, q, r] = pick(rng, [[3, 4, 5], [5, 12, 13], [6, 8, 10], [8, 15, 17]]);
                return blank(`直角三角形的斜边长为 ${r}，一条直角边长为 ${p}，则另一条直角边长为 ______`, String(q), `另一条直角边 $= \\sqrt{${r}^2 - ${p}^2} = \\sqrt{${r * r - p * p}} = ${q}$。`, 2, 3, [String(Math.round(Math.sqrt(r * r + p * p) * 10) / 10), String(r - p)]);
              },
              (rng, i) => {
                const [p, q, r] = nth([[5, 12, 13], [7, 24, 25], [6, 8, 11]], i, 4);
                const right = p * p + q * q === r * r;
                return judge(`以 ${p}、${q}、${r} 为边长的三角形是直角三角形。`, right, `$${p}^2 + ${q}^2 = ${p * p + q * q}$，$${r}^2 = ${r * r}$，${right ? '相等，由勾股定理的逆定理是直角三角形' : '不相等，不是直角三角形'}。`, 2);
              },
              (rng) => {
                const [p, q, r] = pick(rng, [[6, 8, 10], [5, 12, 13], [9, 12, 15]]);
                return solve(`一架长 ${r} 米的梯子斜靠在竖直的墙上，梯子底端离墙 ${p} 米，梯子顶端离地面多高？`, `${q} 米`, `梯子、墙和地面构成直角三角形，高 $= \\sqrt{${r}^2 - ${p}^2} = ${q}$（米）。`, 3, 6, [`${Math.round(Math.sqrt(r * r + p * p) * 10) / 10} 米`, `${r - p} 米`]);
              },
            ),
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
            make: forms(
              (rng) => {
                const p = int(rng, 1, 9);
                const drawn = -int(rng, 1, 9);
                // p + q = 0 would print a 0x term.
                const q = drawn === -p ? drawn - 1 : drawn;
                const b = -(p + q);
                const c = p * q;
                const roots = [p, q].sort((m, n) => m - n);
                return blank(`方程 $${quadratic(b, c)} = 0$ 的两个根是 ______（从小到大，用逗号隔开）`, `${roots[0]}，${roots[1]}`, `因式分解得 $(x - ${p})(x + ${-q}) = 0$，所以 $x_1 = ${roots[0]}$，$x_2 = ${roots[1]}$。`, 3);
              },
              (rng) => {
                const a = int(rng, 2, 9);
                return blank(`方程 $x^2 = ${a * a}$ 的解是 ______`, `$x_1 = ${a}$，$x_2 = -${a}$`, `直接开平方：$x = \\pm ${a}$。`, 2, 3, [`$x = ${a}$`]);
              },
              (rng) => {
                const k = int(rng, 2, 7);
                return single(rng, `方程 $x^2 - ${k}x = 0$ 的根是（　　）`, `$x_1 = 0$，$x_2 = ${k}$`, [`$x = ${k}$`, `$x_1 = 0$，$x_2 = -${k}$`, `$x = -${k}$`], `提取公因式：$x(x - ${k}) = 0$，所以 $x_1 = 0$，$x_2 = ${k}$。两边同除以 $x$ 会丢根。`, 2);
              },
              (rng) => {
                const r = int(rng, 2, 6);
                return solve(`某商品原价 100 元，连续两次降价的百分率相同，降价后售价为 ${(100 - r * 5) ** 2 / 100} 元，求每次降价的百分率。`, `${r * 5}%`, `设每次降价的百分率为 $x$，则 $100(1 - x)^2 = ${(100 - r * 5) ** 2 / 100}$，解得 $x = ${r * 5}\\%$（另一根大于 1，舍去）。`, 4, 8, [`${r * 10}%`]);
              },
            ),
          },
          {
            title: '21.2 根的判别式',
            point: '一元二次方程根的判别式',
            make: forms(
              (rng, i) => {
                const b = int(rng, 1, 8) * (rng() < 0.5 ? -1 : 1);
                const kind = i % 3;
                // kind 0: two roots (Δ > 0), 1: one double root (Δ = 0, b even), 2: none (Δ < 0).
                const bb = kind === 1 ? 2 * Math.ceil(Math.abs(b) / 2) * Math.sign(b) : b;
                const c = kind === 0 ? Math.floor((bb * bb) / 4) - int(rng, 1, 5) : kind === 1 ? (bb * bb) / 4 : Math.floor((bb * bb) / 4) + int(rng, 1, 5);
                const delta = bb * bb - 4 * c;
                const answers = ['有两个不相等的实数根', '有两个相等的实数根', '没有实数根'];
                return single(rng, `关于 $x$ 的方程 $${quadratic(bb, c)} = 0$ 的根的情况是（　　）`, answers[kind], [...answers.filter((_, k) => k !== kind), '无法确定'], `$\\Delta = b^2 - 4ac = ${bb * bb} - ${paren(4 * c)} = ${delta}$，${delta > 0 ? '$\\Delta > 0$，方程有两个不相等的实数根' : delta === 0 ? '$\\Delta = 0$，方程有两个相等的实数根' : '$\\Delta < 0$，方程没有实数根'}。`, 3);
              },
              (rng) => {
                const b = int(rng, 1, 5) * 2;
                return blank(`若关于 $x$ 的方程 $x^2 + ${b}x + m = 0$ 有两个相等的实数根，则 $m = $ ______`, String((b * b) / 4), `$\\Delta = ${b}^2 - 4m = 0$，所以 $m = ${(b * b) / 4}$。`, 3, 3, [String(b * b), String(-(b * b) / 4)]);
              },
              (rng, i) => {
                const c = int(rng, 1, 6);
                const right = i % 2 === 0;
                return judge(`方程 $x^2 + ${c} = 0$ ${right ? '没有' : '有两个'}实数根。`, right, `$x^2 = -${c} < 0$，没有实数根（$\\Delta = -${4 * c} < 0$）。`, 2);
              },
              (rng) => {
                const b = int(rng, 2, 6);
                const k = Math.floor((b * b) / 4);
                return solve(`已知关于 $x$ 的一元二次方程 $x^2 - ${b}x + k = 0$ 有两个不相等的实数根，求 $k$ 的取值范围。`, `$k < ${frac(b * b, 4)}$`, `$\\Delta = ${b * b} - 4k > 0$，解得 $k < ${frac(b * b, 4)}$。`, 3, 6, [`$k > ${frac(b * b, 4)}$`, `$k \\le ${k}$`]);
              },
            ),
          },
          {
            title: '21.3 根与系数的关系',
            point: '一元二次方程根与系数的关系',
            make: forms(
              (rng) => {
                const p = nonZero(rng, -6, 9);
                const drawn = nonZero(rng, -6, 9);
                const q = drawn === -p ? drawn + 10 : drawn;
                const b = -(p + q);
                const c = p * q;
                return blank(`若 $x_1$、$x_2$ 是方程 $${quadratic(b, c)} = 0$ 的两个根，则 $x_1 + x_2 = $ ______，$x_1 x_2 = $ ______`, `${p + q}；${c}`, `由根与系数的关系，$x_1 + x_2 = -\\dfrac{b}{a} = ${p + q}$，$x_1 x_2 = \\dfrac{c}{a} = ${c}$。`, 3, 4);
              },
              (rng) => {
                const p = int(rng, 1, 6);
                const q = int(rng, 1, 6) + p;
                return single(rng, `已知方程 $x^2 - ${p + q}x + k = 0$ 的一个根是 ${p}，则另一个根是（　　）`, String(q), [String(-q), String(p + q + p), String(q - p === q ? q + 1 : q - p)], `两根之和为 ${p + q}，另一根 $= ${p + q} - ${p} = ${q}$。`, 3);
              },
              (rng) => {
                const p = int(rng, 1, 5);
                const q = int(rng, 1, 5) + 1;
                return blank(`若 $x_1$、$x_2$ 是方程 $x^2 - ${p + q}x + ${p * q} = 0$ 的两根，则 $x_1^2 + x_2^2 = $ ______`, String(p * p + q * q), `$x_1^2 + x_2^2 = (x_1 + x_2)^2 - 2x_1x_2 = ${p + q}^2 - 2 \\times ${p * q} = ${p * p + q * q}$。`, 4, 3, [String((p + q) ** 2), String((p + q) ** 2 + 2 * p * q)]);
              },
              (rng, i) => {
                const s = int(rng, 2, 8);
                const right = i % 2 === 1;
                return judge(`方程 $2x^2 - ${2 * s}x - 1 = 0$ 的两根之和是 ${right ? s : 2 * s}。`, right, `两根之和 $= -\\dfrac{b}{a} = \\dfrac{${2 * s}}{2} = ${s}$，注意二次项系数不是 1。`, 3);
              },
            ),
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
            make: forms(
              (rng) => {
                const a = nonZero(rng, -3, 3);
                const h = nonZero(rng, -5, 5);
                const k = nonZero(rng, -6, 6);
                return single(rng, `抛物线 $y = ${a === 1 ? '' : a === -1 ? '-' : a}(x ${h < 0 ? '+' : '-'} ${Math.abs(h)})^2 ${k < 0 ? '-' : '+'} ${Math.abs(k)}$ 的顶点坐标是（　　）`, `$(${h}, ${k})$`, [`$(${-h}, ${k})$`, `$(${h}, ${-k})$`, `$(${-h}, ${-k})$`, `$(${k}, ${h})$`], `抛物线 $y = a(x - h)^2 + k$ 的顶点为 $(h, k)$，所以顶点是 $(${h}, ${k})$。`, 2);
              },
              (rng) => {
                const a = nonZero(rng, -4, 4);
                return single(rng, `抛物线 $y = ${a === 1 ? '' : a === -1 ? '-' : a}x^2$ 的开口方向和对称轴分别是（　　）`, `${a > 0 ? '向上' : '向下'}，$y$ 轴`, [`${a > 0 ? '向下' : '向上'}，$y$ 轴`, `${a > 0 ? '向上' : '向下'}，$x$ 轴`, `${a > 0 ? '向下' : '向上'}，$x$ 轴`], `$a = ${a}$，${a > 0 ? '$a > 0$ 开口向上' : '$a < 0$ 开口向下'}，对称轴是 $y$ 轴。`, 1);
              },
              (rng) => {
                const h = nonZero(rng, -5, 5);
                const k = nonZero(rng, -5, 5);
                return blank(`把抛物线 $y = x^2$ 向${h > 0 ? '右' : '左'}平移 ${Math.abs(h)} 个单位，再向${k > 0 ? '上' : '下'}平移 ${Math.abs(k)} 个单位，得到的抛物线是 ______`, `$y = (x ${h > 0 ? '-' : '+'} ${Math.abs(h)})^2 ${k > 0 ? '+' : '-'} ${Math.abs(k)}$`, `“左加右减，上加下减”。`, 3, 3, [`$y = (x ${h > 0 ? '+' : '-'} ${Math.abs(h)})^2 ${k > 0 ? '+' : '-'} ${Math.abs(k)}$`]);
              },
              (rng) => {
                const h = nonZero(rng, -4, 4);
                return blank(`抛物线 $y = -(x ${h < 0 ? '+' : '-'} ${Math.abs(h)})^2 + 1$ 中，当 $x$ ______ 时，$y$ 随 $x$ 的增大而减小`, `$> ${h}$`, `开口向下，对称轴是 $x = ${h}$，在对称轴右侧 $y$ 随 $x$ 增大而减小。`, 3, 3, [`$< ${h}$`, `$> ${-h}$`]);
              },
            ),
          },
          {
            title: '22.2 二次函数与一元二次方程',
            point: '二次函数与一元二次方程',
            make: forms(
              (rng) => {
                const p = int(rng, -6, -1);
                const drawn = int(rng, 1, 7);
                const q = drawn === -p ? drawn + 1 : drawn;
                const b = -(p + q);
                const c = p * q;
                return solve(`求抛物线 $y = ${quadratic(b, c)}$ 与 $x$ 轴的交点坐标。`, `$(${p}, 0)$，$(${q}, 0)$`, `令 $y = 0$，得 $${quadratic(b, c)} = 0$，即 $(x + ${-p})(x - ${q}) = 0$，所以 $x_1 = ${p}$，$x_2 = ${q}$，交点为 $(${p}, 0)$ 和 $(${q}, 0)$。`, 4, 8);
              },
              (rng, i) => {
                const c = int(rng, 1, 9);
                const [sign, count] = nth([['+', 0], ['-', 2]] as const, i, 4);
                return single(rng, `抛物线 $y = x^2 ${sign} ${c}$ 与 $x$ 轴的交点个数是（　　）`, `${count} 个`, ['0 个', '1 个', '2 个', '3 个'].filter((x) => x !== `${count} 个`), `令 $y = 0$：$x^2 = ${sign === '+' ? '-' : ''}${c}$，${count === 0 ? '无实数解，没有交点' : '有两个实数解，有两个交点'}。`, 2);
              },
              (rng) => {
                const p = int(rng, 1, 5);
                return blank(`抛物线 $y = x^2 - ${2 * p}x + ${p * p}$ 与 $x$ 轴的交点坐标是 ______`, `$(${p}, 0)$`, `$x^2 - ${2 * p}x + ${p * p} = (x - ${p})^2 = 0$，只有一个交点 $(${p}, 0)$。`, 3, 3, [`$(-${p}, 0)$`, `$(0, ${p * p})$`]);
              },
              (rng) => {
                const v = pick(rng, [10, 20, 30]);
                return blank(`小球竖直上抛，高度 $h = ${v}t - 5t^2$（米）。小球经过 ______ 秒回到抛出点`, num(v / 5), `令 $h = 0$：$t(${v} - 5t) = 0$，$t = 0$（抛出时）或 $t = ${num(v / 5)}$。`, 4, 3, [num(v / 10), String(v)]);
              },
            ),
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
            make: forms(
              (rng) => {
                const inscribed = int(rng, 15, 80);
                return blank(`在 $\\odot O$ 中，弧 $AB$ 所对的圆周角 $\\angle ACB = ${inscribed}^\\circ$，则圆心角 $\\angle AOB = $ ______°`, String(2 * inscribed), `同弧所对的圆周角等于它所对圆心角的一半，所以 $\\angle AOB = 2 \\times ${inscribed}^\\circ = ${2 * inscribed}^\\circ$。`, 2);
              },
              (rng) => {
                const a = int(rng, 20, 70);
                return single(rng, `$AB$ 是 $\\odot O$ 的直径，点 $C$ 在圆上，$\\angle A = ${a}^\\circ$，则 $\\angle B$ 的度数是（　　）`, `${90 - a}°`, [`${a}°`, `${180 - a}°`, `${2 * a}°`, `${90 + a}°`], `直径所对的圆周角是直角，$\\angle ACB = 90^\\circ$，所以 $\\angle B = 90^\\circ - ${a}^\\circ = ${90 - a}^\\circ$。`, 2);
              },
              (rng) => {
                const a = int(rng, 50, 130);
                return blank(`四边形 $ABCD$ 内接于 $\\odot O$，$\\angle A = ${a}^\\circ$，则 $\\angle C = $ ______°`, String(180 - a), `圆内接四边形的对角互补：$180^\\circ - ${a}^\\circ = ${180 - a}^\\circ$。`, 2, 3, [String(a), String(360 - a)]);
              },
              (_rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['在同圆或等圆中，同弧所对的圆周角相等。', true, '这是圆周角定理的推论。'],
                  ['相等的圆周角所对的弧一定相等。', false, '必须在同圆或等圆中才成立。'],
                  ['圆周角的度数等于它所对弧上的圆心角度数的一半。', true, '这是圆周角定理。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
            ),
          },
          {
            title: '24.2 弧长和扇形面积',
            point: '弧长和扇形面积',
            make: forms(
              (rng) => {
                const n = pick(rng, [30, 45, 60, 90, 120, 135, 150]);
                const r = int(rng, 2, 12);
                const length = frac(n * r, 180);
                return blank(`半径为 ${r} 的圆中，${n}° 的圆心角所对的弧长为 ______（结果保留 $\\pi$）`, `$${length === '1' ? '' : length}\\pi$`, `弧长 $l = \\dfrac{n\\pi r}{180} = \\dfrac{${n} \\times ${r}\\pi}{180} = ${length === '1' ? '' : length}\\pi$。`, 3);
              },
              (rng) => {
                const n = pick(rng, [60, 90, 120, 180]);
                const r = int(rng, 2, 6) * 3;
                const area = frac(n * r * r, 360);
                return blank(`半径为 ${r}、圆心角为 ${n}° 的扇形面积是 ______（结果保留 $\\pi$）`, `$${area}\\pi$`, `$S = \\dfrac{n\\pi r^2}{360} = \\dfrac{${n} \\times ${r * r}\\pi}{360} = ${area}\\pi$。`, 3, 3, [`$${frac(n * r, 180)}\\pi$`]);
              },
              (rng) => {
                const r = int(rng, 2, 9);
                return single(rng, `半径为 ${r} 的圆的周长是（　　）`, `$${2 * r}\\pi$`, [`$${r}\\pi$`, `$${r * r}\\pi$`, `$${4 * r}\\pi$`, `$${2 * r + 1}\\pi$`], `$C = 2\\pi r = ${2 * r}\\pi$。`, 1);
              },
              (rng) => {
                const l = int(rng, 2, 6);
                const r = int(rng, 2, 6);
                return blank(`一个扇形的弧长为 $${l}\\pi$，半径为 ${r}，它的面积是 ______（结果保留 $\\pi$）`, `$${frac(l * r, 2)}\\pi$`, `$S = \\dfrac{1}{2}lr = \\dfrac{1}{2} \\times ${l}\\pi \\times ${r} = ${frac(l * r, 2)}\\pi$。`, 3, 3, [`$${l * r}\\pi$`]);
              },
            ),
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
            make: forms(
              (rng) => {
                const red = int(rng, 1, 8);
                const white = int(rng, 1, 8) + (red % 2);
                const answer = `$${frac(red, red + white)}$`;
                return single(rng, `一个不透明的袋子里有 ${red} 个红球和 ${white} 个白球，它们除颜色外都相同。从中随机摸出一个球，摸到红球的概率是（　　）`, answer, [`$${frac(white, red + white)}$`, `$${frac(red, white === red ? white + 1 : white)}$`, `$${frac(1, red + white)}$`, `$${frac(1, 2)}$` === answer ? `$${frac(1, 3)}$` : `$${frac(1, 2)}$`, `$${frac(red + 1, red + white + 1)}$`], `共有 ${red + white} 个球，摸到每个球的可能性相同，红球有 ${red} 个，所以 $P(\\text{红球}) = ${frac(red, red + white)}$。`, 2);
              },
              (rng) => {
                const face = int(rng, 1, 6);
                return blank(`掷一枚质地均匀的骰子，朝上的点数大于 ${face - 1 || 0} 的概率是 ______`, `$${frac(7 - Math.max(face, 1), 6)}$`, `大于 ${face - 1 || 0} 的点数有 ${7 - Math.max(face, 1)} 种，共 6 种等可能结果，概率为 $${frac(7 - Math.max(face, 1), 6)}$。`, 2, 3, [`$${frac(6 - Math.max(face, 1), 6)}$`]);
              },
              (rng, i) => {
                const [stem, ok, why] = nth<[string, boolean, string]>([
                  ['抛一枚硬币 10 次，一定有 5 次正面朝上。', false, '概率为 $\\frac{1}{2}$ 只说明大量重复时频率接近 $\\frac{1}{2}$。'],
                  ['同时抛两枚硬币，两枚都正面朝上的概率是 $\\frac{1}{4}$。', true, '列表得 4 种等可能结果，两正只有 1 种。'],
                  ['“明天降水概率为 80%”表示明天有 80% 的时间下雨。', false, '它表示明天下雨的可能性很大。'],
                ], i, 4);
                return judge(stem, ok, why, 2);
              },
              (rng) => {
                const n = int(rng, 3, 6);
                return solve(`从 ${n} 名同学（含小明、小红）中随机选 2 名参加比赛，用列表法或树状图求小明和小红都被选中的概率。`, `$${frac(2, n * (n - 1))}$`, `共有 $\\dfrac{${n} \\times ${n - 1}}{2} = ${(n * (n - 1)) / 2}$ 种等可能的选法，两人都被选中只有 1 种，概率为 $${frac(2, n * (n - 1))}$。`, 4, 8, [`$${frac(1, n)}$`, `$${frac(2, n)}$`]);
              },
            ),
          },
        ],
      },
    ],
  },
];
