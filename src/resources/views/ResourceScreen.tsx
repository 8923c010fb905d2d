// The screen of a route whose content is one or more resources: the route's title, then the
// resource's list (or its custom list view); several resources share the screen as tabs.
import { Suspense, useState } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import { useLocation, useNavigate } from 'react-router-dom';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { ScreenCard } from '../../ui/ScreenCard';
import type { ScreenProps } from '../../pages/screen';
import type { ResourceConfig } from '../types';
import { ResourceList, useReadOnly } from './ResourceList';

function ResourceBody({ config }: { config: ResourceConfig }) {
  const readOnly = useReadOnly(config);
  const View = config.listView;
  if (!View) return <ResourceList config={config} />;
  return (
    <Suspense fallback={<LinearProgress sx={{ mt: 2 }} />}>
      <View config={config} readOnly={readOnly} />
    </Suspense>
  );
}

export function ResourceScreen({ route, resources }: ScreenProps & { resources: readonly ResourceConfig[] }) {
  const [tab, setTab] = useState(0);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = resources[Math.min(tab, resources.length - 1)];
  return (
    <ScreenCard title={route.meta.title} description={resources.length === 1 ? current.description : undefined}>
      {resources.length > 1 && (
        <Tabs
          value={tab}
          onChange={(_, next: number) => {
            // Each list keeps its filters in the query string; another list must not inherit them.
            navigate(pathname, { replace: true });
            setTab(next);
          }}
          sx={{ borderBottom: 1, borderColor: 'divider', mt: 1 }}
        >
          {resources.map((r) => (
            <Tab key={r.name} label={r.label} />
          ))}
        </Tabs>
      )}
      <ResourceBody key={current.name} config={current} />
    </ScreenCard>
  );
}
