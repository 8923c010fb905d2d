// The researcher's way down 学情分析: region → school → grade → class, as a breadcrumb whose every
// step goes back up, and a 学科 picker over the subjects taught in the region (each school has its
// own courses, so a subject is what the region has in common). The server checks every id against
// the region (docs/api-analysis.md, "Region scope").
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { Analysis } from '../../domain/analysis';
import { FilterSelect } from '../../filters/FilterSelect';

interface Named {
  id: number;
  name: string;
}

export interface Drill {
  school?: Named;
  grade?: Named;
  klass?: Named;
  subjectId?: number;
}

const ALL = 'all';

export function RegionDrill({ drill, onChange, region }: { drill: Drill; onChange: (d: Drill) => void; region?: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const subjects = useQuery({ queryKey: ['analysisSubjects', drill.school?.id], queryFn: () => dataProvider.analysisSubjects(drill.school?.id), retry: false });
  const steps: { label: string; to: Drill }[] = [
    { label: region || '本区域', to: { subjectId: drill.subjectId } },
    ...(drill.school ? [{ label: drill.school.name, to: { school: drill.school, subjectId: drill.subjectId } }] : []),
    ...(drill.grade ? [{ label: drill.grade.name, to: { school: drill.school, grade: drill.grade, subjectId: drill.subjectId } }] : []),
    ...(drill.klass ? [{ label: drill.klass.name, to: drill }] : []),
  ];
  const options = [{ value: ALL, label: '全部学科' }, ...(subjects.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))];
  return (
    <Box sx={{ mt: 2, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, justifyContent: 'space-between' }}>
      <Breadcrumbs aria-label="下钻路径" sx={{ minWidth: 0 }}>
        {steps.map((s, i) =>
          i === steps.length - 1 ? (
            <Typography key={s.label} color="text.primary" sx={{ fontWeight: 600 }} data-testid="drill-current">
              {s.label}
            </Typography>
          ) : (
            <Link key={s.label} component="button" type="button" underline="hover" onClick={() => onChange(s.to)}>
              {s.label}
            </Link>
          ),
        )}
      </Breadcrumbs>
      <FilterSelect label="学科" value={drill.subjectId ? String(drill.subjectId) : ALL} options={options} onChange={(v) => onChange({ ...drill, subjectId: v === ALL ? undefined : Number(v) })} width={150} />
    </Box>
  );
}

/** One level down from a row of the comparison: a school opens its grades, a grade its classes, a class itself. */
RegionDrill.into = (d: Drill, groupBy: Analysis['groupBy'], g: Named): Drill => {
  if (groupBy === 'school') return { subjectId: d.subjectId, school: g };
  if (groupBy === 'grade') return { ...d, grade: g };
  return { ...d, klass: g };
};
