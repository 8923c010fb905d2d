// Custom screens by route path. Each screen is its own chunk (React.lazy), so the first load
// carries only the shell. Routes that show resources get the generic resource screen unless a
// custom screen is listed here (src/AdminApp.tsx merges the two); any other route shows EmptyScreen.
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { CanAccess } from 'react-admin';
import type { ScreenProps } from './screen';
import { ScreenLoading, ScreenShown } from '../layout/RouteChrome';
import { AccessDenied } from './NotFound';

type Screen = LazyExoticComponent<ComponentType<ScreenProps>>;

const EmptyScreen: Screen = lazy(() => import('./EmptyScreen'));

export const CUSTOM_SCREENS: Readonly<Record<string, Screen>> = {
  '/school-dashboard': lazy(() => import('./SchoolDashboard')),
  '/classManage': lazy(() => import('./ClassManage')),
  '/assignHomework': lazy(() => import('./AssignHomework')),
  '/assignHomework/details': lazy(() => import('./HomeworkDetails')),
  '/workbook/:bookId': lazy(() => import('./WorkbookDetail')),
  '/exam': lazy(() => import('./Exam')),
  '/examReport': lazy(() => import('./ExamReport')),
  '/homework': lazy(() => import('./Homework')),
  '/homeworkDetails': lazy(() => import('./HomeworkDetails')),
  '/homeworkAssign': lazy(() => import('./AssignHomework')),
  '/homeworkMissing': lazy(() => import('./HomeworkMissing')),
  '/paper': lazy(() => import('./Paper')),
  '/paperPrinter': lazy(() => import('./PaperPrinter')),
  '/printer': lazy(() => import('./Printer')),
  '/AICorrect/index': lazy(() => import('./aiCorrect/TaskList')),
  '/AICorrect/report': lazy(() => import('./aiCorrect/TaskReport')),
  '/AICorrect/lecture': lazy(() => import('./aiCorrect/lecture/Lecture')),
  '/AICorrect/marking': lazy(() => import('./aiCorrect/marking/MarkingScreen')),
  '/AICorrect/createCorrectTask': lazy(() => import('./aiCorrect/CreateTask')),
  '/correctDetail': lazy(() => import('./aiCorrect/CorrectDetail')),
  '/examProcessCorrectDetail': lazy(() => import('./aiCorrect/CorrectDetail')),
  '/composition-detail': lazy(() => import('./aiCorrect/composition/CompositionDetail')),
  '/compositionCorrectDetail': lazy(() => import('./aiCorrect/composition/CompositionDetail')),
  '/useGuide': lazy(() => import('./useGuide/UseGuide')),
  '/wrongbook/index': lazy(() => import('./wrongbook/ClassWrongBook')),
  '/errorNote': lazy(() => import('./wrongbook/ClassWrongBook')),
  '/without/common': lazy(() => import('./wrongbook/ClassWrongBook')),
  '/learningGroup': lazy(() => import('./wrongbook/LearningGroup')),
  '/studentTracking': lazy(() => import('./studentTracking/StudentTracking')),
  '/studentHistory': lazy(() => import('./studentHistory/StudentHistory')),
  '/wrongbook/volumnPaper': lazy(() => import('./volumePaper/VolumePaper')),
  '/analysis': lazy(() => import('./analysis/Analysis')),
  '/leaderExams': lazy(() => import('./leaderExams/LeaderExams')),
  '/usageStatistics': lazy(() => import('./usageStatistics/UsageStatistics')),
  '/account': lazy(() => import('./account/Account')),
  '/alarms': lazy(() => import('./alarms/Alarms')),
  '/channel-info': lazy(() => import('./channelInfo/ChannelInfo')),
  '/withdrawal-review': lazy(() => import('./withdrawals/WithdrawalReview')),
  '/platform-orders': lazy(() => import('./platformOrders/PlatformOrders')),
  '/child-partners': lazy(() => import('./childPartners/ChildPartners')),
  '/level-one-partners': lazy(() => import('./childPartners/ChildPartners')),
  '/overview-dashboard': lazy(() => import('./partnerBoards/OverviewDashboard')),
  '/student-usage-detail': lazy(() => import('./partnerBoards/StudentUsageDetail')),
  '/heart-sounds': lazy(() => import('./heartVoices/HeartVoices')),
  '/heart-sounds/detail': lazy(() => import('./heartVoices/HeartVoiceDetail')),
  '/heart-voice-privacy': lazy(() => import('./heartVoices/HeartPrivacy')),
  '/roleManage': lazy(() => import('./roles/RoleHolders')),
  '/academic/roles': lazy(() => import('./roles/RoleHolders')),
  '/academic/year': lazy(() => import('./schoolYear/SchoolYear')),
  '/researchers': lazy(() => import('./roles/Researchers')),
  '/schoolYear': lazy(() => import('./schoolYear/SchoolYear')),
};

/**
 * The screen of a route, behind the same access rule as the menu (a typed-in address included).
 * The progress bar runs from the access check until the screen's chunk has rendered.
 */
export function RouteScreen({ route, screens }: ScreenProps & { screens: Readonly<Record<string, Screen>> }) {
  const Screen = screens[route.path] ?? EmptyScreen;
  return (
    <CanAccess action="access" resource={route.path} accessDenied={<AccessDenied />} loading={<ScreenLoading />}>
      <Suspense fallback={<ScreenLoading />}>
        <Screen route={route} />
        <ScreenShown key={route.path} />
      </Suspense>
    </CanAccess>
  );
}
