// Where the user is in 考试分析 (school → grade → class → student) and the way back up.
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';

export interface Level {
  examId: string;
  classId: string;
  studentId: string;
}

export interface Crumb {
  label: string;
  /** The level it opens; the last crumb (where the user is) has none. */
  to?: Partial<Level>;
}

/** The path from the school down to where the user is, each step a link up. */
export function Trail({ crumbs, go }: { crumbs: Crumb[]; go: (to: Partial<Level>) => void }) {
  return (
    <Breadcrumbs aria-label="层级" sx={{ mb: 1.5 }} data-testid="leader-trail">
      {crumbs.map((c, i) =>
        c.to && i < crumbs.length - 1 ? (
          <Link key={i} component="button" underline="hover" onClick={() => go(c.to!)} sx={{ fontSize: 14 }}>
            {c.label}
          </Link>
        ) : (
          <Typography key={i} color="text.primary" sx={{ fontSize: 14, fontWeight: 600 }}>
            {c.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}

