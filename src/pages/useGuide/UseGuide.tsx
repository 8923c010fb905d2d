// 使用教程 (/useGuide): how a teacher grades with AI批改, assigns homework and uses the wrong-answer books, step by step, each step with a picture of
// the product itself. The pictures are made by scripts/guideShots.ts (the real server, signed in
// as the demo teacher) and served from public/guide/.
import { Link } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ScreenProps } from '../screen';
import { ScreenCard } from '../../ui/ScreenCard';

interface Step {
  title: string;
  text: string[];
  image: string;
  caption: string;
}

const STEPS: Step[] = [
  {
    title: '设计答题卡并打印',
    text: [
      '在「AI批改」中点击「新建批改任务」，选择答题卡批改，按试卷设置题型：单选、多选、判断、填空、解答和作文格。',
      '在「打印方式」中选择「按班级名单」时，系统为班级的每位学生各打印一份，卡上印有姓名和二维码，批改时自动对应到学生，无需填涂学号；也可以打印匿名卡，由学生填涂学号。',
    ],
    image: '/guide/sheet.png',
    caption: '按班级名单打印的答题卡：四角定位点、二维码和学生姓名',
  },
  {
    title: '学生作答',
    text: ['请学生用 2B 铅笔把选项涂满涂黑，改答案时用橡皮擦干净；填空和作文写在框内。涂得太浅或只涂了一半的题，系统会标记出来请老师复核。'],
    image: '/guide/scan.png',
    caption: '一位学生作答后的答题卡扫描件',
  },
  {
    title: '扫描或拍照上传',
    text: [
      '用扫描仪批量扫描成 PDF，或用手机逐张拍照，在批改任务中上传。支持 JPG、PNG 图片和多页 PDF，单个文件不超过 50 MB。',
      '拍照时请让整张答题卡入镜、光线均匀；图片无法识别时，上传时就会提示原因。',
    ],
    image: '/guide/list.png',
    caption: '「AI批改」首页：每个任务的状态、文件数和待复核份数',
  },
  {
    title: '提交批改',
    text: ['上传完毕后点击「提交批改」。系统在后台逐份识别，列表中实时显示进度，全部识别完成后任务变为「已批改」，无需停留在页面等待。'],
    image: '/guide/task.png',
    caption: '批改完成的任务：已批改，并提示有几份需要复核',
  },
  {
    title: '查看报告与复核',
    text: [
      '打开「查看报告」，可以看到平均分、最高分、最低分、分数段分布和每道题的得分率，以及学生最常选的错误答案。',
      '系统拿不准的题（例如涂得太浅、涂了两个选项）会列在「需要复核的学生」中，老师核对原图后给出分数，报告随即更新；报告可以导出为 Excel。',
    ],
    image: '/guide/report.png',
    caption: '批改报告：成绩概况与分数分布',
  },
  {
    title: '作文批改',
    text: [
      '新建作文批改任务，填写题目（可贴上完整的题目和写作要求）、字数要求和满分，逐个学生上传作文照片，或选「全班一起上传」一次传完全班的照片：作文开头写了姓名或学号的自动对应学生，其余的在列表里为每张照片选择学生。系统识别文字后按内容、结构、语言等维度给出分数和评语，评语引用作文中的原句；照抄题目、离题或空白的作文不超过满分的十分之一。',
      '作文的机器评分都会标记为待复核，请老师阅读后确认或修改分数。',
    ],
    image: '/guide/essay.png',
    caption: '作文批改报告：每位学生的得分与待复核状态',
  },
  {
    title: '布置作业',
    text: [
      '在「布置作业」中按顺序选择练习册、页面和班级，设好截止时间后点「布置作业」。同一班级已经布置过的页面会先提示，确认后才会再布置一次。',
      '下方「已布置的作业」中点开一份作业进入「作业详情」：谁已提交、谁还没交，每道题的正确率和学生的答案；可以修改标题和截止时间，在还没有学生提交时撤回，也可以导出 Excel。',
    ],
    image: '/guide/homework.png',
    caption: '布置作业：选择练习册、页面、班级和截止时间',
  },
  {
    title: '错题本与错题组卷',
    text: [
      '「班级错题本」按错误率从高到低列出全班做错的题，点开一道题能看到哪些学生做错、各自的答案；勾选几道题后点「错题组卷」，生成一份讲评练习打印发给学生。',
      '「学生错题本」按学生查看每个人的错题，方便个别辅导。',
    ],
    image: '/guide/wrongbook.png',
    caption: '班级错题本：全班错题按错误率排列',
  },
];

export default function UseGuide(_props: ScreenProps) {
  return (
    <ScreenCard title="使用教程" description="八步用好学助：从打印答题卡、AI批改到查看报告，作文批改，布置作业和错题本。">
      <Box component="ol" sx={{ listStyle: 'none', m: 0, mt: 2, p: 0, display: 'grid', gap: 4 }}>
        {STEPS.map((step, i) => (
          <Box component="li" key={step.title} data-testid="guide-step" sx={{ minWidth: 0 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1 }}>
              <Box
                aria-hidden
                sx={{ flexShrink: 0, width: 28, height: 28, borderRadius: '50%', bgcolor: 'primary.main', color: 'primary.contrastText', display: 'grid', placeItems: 'center', fontWeight: 600, fontSize: 14 }}
              >
                {i + 1}
              </Box>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                第{'一二三四五六七八'[i]}步　{step.title}
              </Typography>
            </Box>
            {step.text.map((p) => (
              <Typography key={p} variant="body2" sx={{ mb: 1, lineHeight: 1.8 }}>
                {p}
              </Typography>
            ))}
            <Box component="figure" sx={{ m: 0, mt: 1.5, maxWidth: 900 }}>
              <Box
                component="img"
                src={step.image}
                alt={step.caption}
                loading="lazy"
                sx={{ display: 'block', width: '100%', height: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
              />
              <Typography component="figcaption" variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
                {step.caption}
              </Typography>
            </Box>
          </Box>
        ))}
      </Box>
      <Button variant="contained" component={Link} to="/AICorrect/index" sx={{ mt: 3 }}>
        去 AI批改
      </Button>
    </ScreenCard>
  );
}
