// The caller's unread 学生心声 notices (suspected high risk for the psychology teacher, reveals for
// the principal), shared by the screens that show them; `clear` empties them once marked as read.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import type { HeartNotice } from '../../dataProvider/heartVoices';

const KEY = ['heartNotices'];
const NONE: HeartNotice[] = [];

export function useHeartNotices() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: KEY, queryFn: () => dataProvider.heartNotices().then((n) => n.records), retry: false });
  const clear = () => queryClient.setQueryData<HeartNotice[]>(KEY, []);
  return [data ?? NONE, clear] as const;
}
