// Icon pair per menu icon name (SPEC §2.1): outlined when normal, filled when selected.
// Imported by path, not from the @mui/icons-material barrel, to keep the first load small.
import type SvgIcon from '@mui/material/SvgIcon';
import type { IconName } from './routes';
import MeetingRoom from '@mui/icons-material/MeetingRoom';
import MeetingRoomOutlined from '@mui/icons-material/MeetingRoomOutlined';
import AutoFixHigh from '@mui/icons-material/AutoFixHigh';
import AutoFixHighOutlined from '@mui/icons-material/AutoFixHighOutlined';
import School from '@mui/icons-material/School';
import SchoolOutlined from '@mui/icons-material/SchoolOutlined';
import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWallet';
import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import Event from '@mui/icons-material/Event';
import EventOutlined from '@mui/icons-material/EventOutlined';
import Insights from '@mui/icons-material/Insights';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import PostAdd from '@mui/icons-material/PostAdd';
import PostAddOutlined from '@mui/icons-material/PostAddOutlined';
import Hub from '@mui/icons-material/Hub';
import HubOutlined from '@mui/icons-material/HubOutlined';
import Class from '@mui/icons-material/Class';
import ClassOutlined from '@mui/icons-material/ClassOutlined';
import Groups from '@mui/icons-material/Groups';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import EditNote from '@mui/icons-material/EditNote';
import EditNoteOutlined from '@mui/icons-material/EditNoteOutlined';
import Dashboard from '@mui/icons-material/Dashboard';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import Devices from '@mui/icons-material/Devices';
import DevicesOutlined from '@mui/icons-material/DevicesOutlined';
import Storefront from '@mui/icons-material/Storefront';
import StorefrontOutlined from '@mui/icons-material/StorefrontOutlined';
import RuleFolder from '@mui/icons-material/RuleFolder';
import RuleFolderOutlined from '@mui/icons-material/RuleFolderOutlined';
import Quiz from '@mui/icons-material/Quiz';
import QuizOutlined from '@mui/icons-material/QuizOutlined';
import FactCheck from '@mui/icons-material/FactCheck';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import Favorite from '@mui/icons-material/Favorite';
import FavoriteBorderOutlined from '@mui/icons-material/FavoriteBorderOutlined';
import Assignment from '@mui/icons-material/Assignment';
import AssignmentOutlined from '@mui/icons-material/AssignmentOutlined';
import Paid from '@mui/icons-material/Paid';
import PaidOutlined from '@mui/icons-material/PaidOutlined';
import Cancel from '@mui/icons-material/Cancel';
import CancelOutlined from '@mui/icons-material/CancelOutlined';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import SpaceDashboard from '@mui/icons-material/SpaceDashboard';
import SpaceDashboardOutlined from '@mui/icons-material/SpaceDashboardOutlined';
import Article from '@mui/icons-material/Article';
import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import ShoppingCart from '@mui/icons-material/ShoppingCart';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import HowToReg from '@mui/icons-material/HowToReg';
import HowToRegOutlined from '@mui/icons-material/HowToRegOutlined';
import Folder from '@mui/icons-material/Folder';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import Assessment from '@mui/icons-material/Assessment';
import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import FolderShared from '@mui/icons-material/FolderShared';
import FolderSharedOutlined from '@mui/icons-material/FolderSharedOutlined';
import People from '@mui/icons-material/People';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import PersonSearch from '@mui/icons-material/PersonSearch';
import PersonSearchOutlined from '@mui/icons-material/PersonSearchOutlined';
import Badge from '@mui/icons-material/Badge';
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import BarChart from '@mui/icons-material/BarChart';
import BarChartOutlined from '@mui/icons-material/BarChartOutlined';
import MenuBook from '@mui/icons-material/MenuBook';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import AutoStories from '@mui/icons-material/AutoStories';
import AutoStoriesOutlined from '@mui/icons-material/AutoStoriesOutlined';
import ManageHistory from '@mui/icons-material/ManageHistory';
import ManageHistoryOutlined from '@mui/icons-material/ManageHistoryOutlined';

type Icon = typeof SvgIcon;

export interface IconPair {
  normal: Icon;
  selected: Icon;
}

const pair = (normal: unknown, selected: unknown): IconPair => ({ normal: normal as Icon, selected: selected as Icon });

export const MENU_ICONS: Record<IconName, IconPair> = {
  aiCorrect: pair(AutoFixHighOutlined, AutoFixHigh),
  academic: pair(SchoolOutlined, School),
  auditLog: pair(ManageHistoryOutlined, ManageHistory),
  account: pair(AccountBalanceWalletOutlined, AccountBalanceWallet),
  activity: pair(EventOutlined, Event),
  analysis: pair(InsightsOutlined, Insights),
  assignHomework: pair(PostAddOutlined, PostAdd),
  channelInfo: pair(HubOutlined, Hub),
  class: pair(ClassOutlined, Class),
  classManagement: pair(GroupsOutlined, Groups),
  composition: pair(EditNoteOutlined, EditNote),
  dashboard: pair(DashboardOutlined, Dashboard),
  devices: pair(DevicesOutlined, Devices),
  directMarketingSchool: pair(StorefrontOutlined, Storefront),
  errorNote: pair(RuleFolderOutlined, RuleFolder),
  exam: pair(QuizOutlined, Quiz),
  examProcess: pair(FactCheckOutlined, FactCheck),
  heartSounds: pair(FavoriteBorderOutlined, Favorite),
  homework: pair(AssignmentOutlined, Assignment),
  incomeStatistics: pair(PaidOutlined, Paid),
  mistake: pair(CancelOutlined, Cancel),
  orders: pair(ReceiptLongOutlined, ReceiptLong),
  overviewDashboard: pair(SpaceDashboardOutlined, SpaceDashboard),
  paper: pair(ArticleOutlined, Article),
  purchaseRecord: pair(ShoppingCartOutlined, ShoppingCart),
  registerBinding: pair(HowToRegOutlined, HowToReg),
  resource: pair(FolderOutlined, Folder),
  room: pair(MeetingRoomOutlined, MeetingRoom),
  schoolDashboard: pair(AssessmentOutlined, Assessment),
  schoolResource: pair(FolderSharedOutlined, FolderShared),
  studentManagement: pair(PeopleOutlined, People),
  studentTracking: pair(PersonSearchOutlined, PersonSearch),
  teacherManagement: pair(BadgeOutlined, Badge),
  usageStatistics: pair(BarChartOutlined, BarChart),
  useGuide: pair(MenuBookOutlined, MenuBook),
  wrongbook: pair(AutoStoriesOutlined, AutoStories),
};
