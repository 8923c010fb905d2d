// 数据概览 (/school-dashboard) of the school admin: head counts of the school and, per grade,
// classes, students and binding, all from GET /api/vesta/school/overview. The same path is the
// partner's full-screen school board (partnerBoards/SchoolBoard), shown when the active role is partner.
import { lazy, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, usePermissions } from 'react-admin';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../dataProvider';
import type { SchoolSettings } from '../domain/school';
import type { Permissions } from '../authProvider';
import type { ScreenProps } from './screen';
import EmptyScreen from './EmptyScreen';
import { EmptyState } from '../ui/EmptyState';
import { ScreenCard } from '../ui/ScreenCard';
import { Tile } from '../ui/Tile';
import { bandAxis, usePhone } from '../ui/bandAxis';

const ADMINS = ['schoolAdmin', 'mpSchoolAdmin'];
/** The partner's school board: its own chunk, which school admins never load. */
const PartnerSchoolBoard = lazy(() => import('./partnerBoards/SchoolBoard'));

function Board() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery({ queryKey: ['schoolOverview'], queryFn: () => dataProvider.schoolOverview(), retry: false });
  const phone = usePhone();
  const overview = query.isError ? null : query.data;
  if (overview === undefined) return <LinearProgress sx={{ mt: 2 }} />;
  if (overview === null) return <EmptyState />;
  const current = overview.grades.filter((g) => g.graduatedYear === null);
  const names = current.map((g) => g.gradeName);
  return (
    <>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 2, mt: 2 }}>
        <Tile label="年级" value={overview.gradeCount} unit="个" />
        <Tile label="班级" value={overview.classCount} unit="个" />
        <Tile label="在读学生" value={overview.studentCount} unit="名" />
        <Tile label="教师" value={overview.teacherCount} unit="名" />
        <Tile label="已绑定" value={overview.boundCount} unit="名" />
        <Tile label="未绑定" value={overview.unboundCount} unit="名" />
        <Tile label="已毕业" value={overview.graduatedCount} unit="名" />
      </Box>
      {current.length === 0 ? (
        <EmptyState />
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr' }, gap: 2, mt: 2 }}>
          <Card variant="outlined" sx={{ borderRadius: 2, minWidth: 0 }}>
            <CardContent>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                各年级学生与绑定
              </Typography>
              <BarChart
                height={300}
                // Every grade is labelled: the default skips labels it measures as overlapping.
                xAxis={[bandAxis(names, phone)]}
                series={[
                  { data: current.map((g) => g.boundCount), label: '已绑定', stack: 'students', color: '#2e7d32' },
                  { data: current.map((g) => g.unboundCount), label: '未绑定', stack: 'students', color: '#bdbdbd' },
                ]}
              />
            </CardContent>
          </Card>
          <Card variant="outlined" sx={{ borderRadius: 2, minWidth: 0 }}>
            <CardContent>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                各年级班级数
              </Typography>
              <PieChart
                height={300}
                series={[{ data: current.map((g, i) => ({ id: i, value: g.classCount, label: `${g.gradeName}（${g.classCount}个班）` })), innerRadius: 50 }]}
              />
            </CardContent>
          </Card>
        </Box>
      )}
    </>
  );
}

/**
 * 成绩公开范围: what leaders see of each student's exam result. Teachers always see scores; the
 * server applies the choice to every report it sends to anyone else.
 */
function ScoreDisclosureSetting() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['schoolSettings'], queryFn: () => dataProvider.schoolSettings(), retry: false }).data;
  const [saving, setSaving] = useState(false);
  if (!settings) return null;
  const save = async (scoreDisclosure: number) => {
    setSaving(true);
    try {
      await dataProvider.saveSchoolSettings({ scoreDisclosure });
      queryClient.setQueryData<SchoolSettings>(['schoolSettings'], { ...settings, scoreDisclosure });
      notify('设置已保存', { type: 'success' });
    } catch {
      // The http client has shown why.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card variant="outlined" sx={{ borderRadius: 2, mt: 2 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          成绩公开范围
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 1.5 }}>
          依据《未成年人学校保护规定》，学校不公开学生的成绩和排名。任课教师始终可以看到本班学生的分数；年级组长、学科组长、校长和教研员查看考试报告时，每名学生只显示下面所选的内容，不显示分数。
        </Typography>
        <TextField
          select
          label="教师以外的人员可以看到"
          value={settings.scoreDisclosure}
          disabled={saving}
          onChange={(event) => void save(Number(event.target.value))}
          sx={{ width: 420, maxWidth: '100%' }}
        >
          {settings.scoreDisclosureOptions.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      </CardContent>
    </Card>
  );
}

export default function SchoolDashboard({ route }: ScreenProps) {
  const { permissions } = usePermissions<Permissions>();
  if (!permissions) return null;
  if (permissions.activeRole === 'partner') return <PartnerSchoolBoard />;
  if (!ADMINS.includes(permissions.activeRole)) return <EmptyScreen route={route} />;
  return (
    <ScreenCard title={route.meta.title}>
      <Board />
      <ScoreDisclosureSetting />
    </ScreenCard>
  );
}
