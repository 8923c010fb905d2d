// The caller's unread 学生心声 notices (suspected high risk for the psychology teacher, reveals for
// the principal), loaded once per screen; the setter empties them after they are marked as read.
import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import type { HeartNotice } from '../../dataProvider/heartVoices';

export function useHeartNotices() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [notices, setNotices] = useState<HeartNotice[]>([]);
  useEffect(() => {
    let live = true;
    dataProvider.heartNotices().then(
      (n) => live && setNotices(n.records),
      () => live && setNotices([]),
    );
    return () => {
      live = false;
    };
  }, [dataProvider]);
  return [notices, setNotices] as const;
}
