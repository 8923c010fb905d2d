// 数据概览 (/school-dashboard) of the school admin: head counts of the school and, per grade,
// classes, students and binding, all from GET /api/vesta/school/overview. The same path is the
// partner's full-screen school board (partnerBoards/SchoolBoard), shown when the active role is partner.
import { lazy, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, usePermissions } from 'react-admin';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../dataProvider';
import type { SchoolSettings } from '../domain/school';
import { dateTime, DEFAULT_ZONE, setBrowserZone, zoneLabel } from '../domain/format';
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

/** Chinese place names a zone's label does not carry, so that typing 北京 or 东京 finds it. */
const ZONE_PLACES: Record<string, string> = {
  'Asia/Shanghai': '北京 上海 中国',
  'Asia/Urumqi': '新疆',
  'Asia/Hong_Kong': '香港',
  'Asia/Macau': '澳门',
  'Asia/Taipei': '台北 台湾',
  'Asia/Tokyo': '东京 日本',
  'Asia/Seoul': '首尔 韩国',
  'Asia/Singapore': '新加坡',
  'Asia/Bangkok': '曼谷 泰国',
  'Asia/Kuala_Lumpur': '吉隆坡 马来西亚',
  'Europe/London': '伦敦',
  'Europe/Paris': '巴黎',
  'America/New_York': '纽约',
  'America/Los_Angeles': '洛杉矶',
  'Australia/Sydney': '悉尼',
};

interface ZoneOption {
  zone: string;
  label: string;
  /** What a search is matched against: the label, the IANA name and the place names. */
  search: string;
}

/** Every zone this browser knows, labelled 日本标准时间（Asia/Tokyo，GMT+9）; China time first. */
function zoneOptions(): ZoneOption[] {
  const zones = Intl.supportedValuesOf('timeZone');
  const now = new Date();
  return [DEFAULT_ZONE, ...zones.filter((z) => z !== DEFAULT_ZONE)].map((zone) => {
    const label = zoneLabel(zone, now);
    return { zone, label, search: `${label} ${zone.replaceAll('_', ' ')} ${ZONE_PLACES[zone] ?? ''}`.toLowerCase() };
  });
}

/**
 * 时区: the school's clock. The server puts every date it makes for the school (exports, printed
 * reports, the family page, day filters) on it, and every screen of the school's users shows times on it.
 */
function TimeZoneSetting() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['schoolSettings'], queryFn: () => dataProvider.schoolSettings(), retry: false }).data;
  const options = useMemo(zoneOptions, []);
  const [saving, setSaving] = useState(false);
  if (!settings) return null;
  const current = options.find((o) => o.zone === settings.timeZone) ?? { zone: settings.timeZone, label: settings.timeZone, search: '' };
  const save = async (timeZone: string) => {
    setSaving(true);
    try {
      await dataProvider.saveSchoolSettings({ timeZone });
      queryClient.setQueryData<SchoolSettings>(['schoolSettings'], { ...settings, timeZone });
      // This page's own times follow at once; other users' pages on their next load.
      setBrowserZone(timeZone);
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
          时区
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 1.5 }}>
          本校各页面显示的时间、导出的表格和文件名、打印的报告、家长页面以及按日期筛选，都按这里的时区计算。默认北京时间，学校不在北京时间所在地区时再修改。
        </Typography>
        <Autocomplete
          options={options}
          value={current}
          disableClearable
          disabled={saving}
          getOptionLabel={(o) => o.label}
          isOptionEqualToValue={(a, b) => a.zone === b.zone}
          filterOptions={(list, { inputValue }) => {
            const words = inputValue.trim().toLowerCase().split(/\s+/).filter(Boolean);
            return list.filter((o) => words.every((w) => o.search.includes(w)));
          }}
          onChange={(_event, o) => o && o.zone !== settings.timeZone && void save(o.zone)}
          noOptionsText="没有匹配的时区"
          renderInput={(params) => <TextField {...params} label="学校所在时区" helperText={`该时区现在是 ${dateTime(new Date(), current.zone)}`} />}
          sx={{ width: 420, maxWidth: '100%' }}
        />
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
      <TimeZoneSetting />
    </ScreenCard>
  );
}
