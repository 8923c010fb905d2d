// The dataProvider: react-admin resources routed to per-service adapters, plus the shell's own
// calls as extra methods (reached through useDataProvider<AppDataProvider>()).
import { HttpError, type DataProvider } from 'ra-core';
import type { HttpClient } from './http';
import type { ResourceAdapter } from './adapters';
import { createShellApi, type ShellApi } from './api';
import { createSchoolApi, type SchoolApi } from './school';
import { createMinervaApi, type MinervaApi } from './minerva';
import { createWorkbookApi, type WorkbookApi } from './workbooks';
import { createExamApi, type ExamApi } from './exams';
import { createLeaderExamApi, type LeaderExamApi } from './leaderExams';
import { createPaperApi, type PaperApi } from './papers';
import { createVolumePaperApi, type VolumePaperApi } from './volumePaper';
import { createCorrectApi, type CorrectApi } from './correct';
import { createWrongbookApi, type WrongbookApi } from './wrongbook';
import { createStudentWrongbookApi, type StudentWrongbookApi } from './studentWrongbook';
import { createAnalysisApi, type AnalysisApi } from './analysis';
import { createSavedFilterApi, type SavedFilterApi } from './savedFilters';
import { createDeviceApi, type DeviceApi } from './devices';
import { createOrderApi, type OrderApi } from './orders';
import { createSettlementApi, type SettlementApi } from './settlement';
import { createChildPartnerApi, type ChildPartnerApi } from './childPartners';
import { createPartnerBoardsApi, type PartnerBoardsApi } from './partnerBoards';
import { createHeartVoiceApi, type HeartVoiceApi } from './heartVoices';
import { createRoleApi, type RoleApi } from './roles';
import { createSchoolYearApi, type SchoolYearApi } from './schoolYear';
import { createFamilyApi, type FamilyApi } from './family';

/** Adapters by resource name, built from the resource configs (src/resources: adaptersOf). */
export type AdapterRegistry = Record<string, (http: HttpClient) => ResourceAdapter>;

export type AppDataProvider = DataProvider & ShellApi & SchoolApi & MinervaApi & WorkbookApi & ExamApi & LeaderExamApi & PaperApi & VolumePaperApi & CorrectApi & WrongbookApi & StudentWrongbookApi & AnalysisApi & SavedFilterApi & DeviceApi & OrderApi & SettlementApi & ChildPartnerApi & PartnerBoardsApi & HeartVoiceApi & RoleApi & SchoolYearApi & FamilyApi & Pick<HttpClient, 'download'>;

export function createDataProvider(http: HttpClient, registry: AdapterRegistry): AppDataProvider {
  const adapters = new Map<string, ResourceAdapter>();
  const adapterFor = (resource: string): ResourceAdapter => {
    let adapter = adapters.get(resource);
    if (!adapter) {
      const make = registry[resource];
      if (!make) throw new HttpError(`未知的资源：${resource}`, 404, {});
      adapter = make(http);
      adapters.set(resource, adapter);
    }
    return adapter;
  };
  const route =
    <M extends keyof ResourceAdapter>(method: M) =>
    async (resource: string, params: unknown) => {
      const handler = adapterFor(resource)[method] as ((resource: string, params: unknown) => Promise<unknown>) | undefined;
      if (!handler) throw new HttpError('不支持此操作', 405, {});
      return handler(resource, params);
    };

  const crud = {
    getList: route('getList'),
    getOne: route('getOne'),
    getMany: route('getMany'),
    getManyReference: route('getManyReference'),
    create: route('create'),
    update: route('update'),
    updateMany: route('updateMany'),
    delete: route('delete'),
    deleteMany: route('deleteMany'),
  } as unknown as DataProvider;

  // Methods only: react-admin hands components a proxy that turns every property into a function.
  return {
    ...crud,
    ...createShellApi(http),
    ...createSchoolApi(http),
    ...createMinervaApi(http),
    ...createWorkbookApi(http),
    ...createExamApi(http),
    ...createLeaderExamApi(http),
    ...createPaperApi(http),
    ...createVolumePaperApi(http),
    ...createCorrectApi(http),
    ...createWrongbookApi(http),
    ...createStudentWrongbookApi(http),
    ...createAnalysisApi(http),
    ...createSavedFilterApi(http),
    ...createDeviceApi(http),
    ...createOrderApi(http),
    ...createSettlementApi(http),
    ...createChildPartnerApi(http),
    ...createPartnerBoardsApi(http),
    ...createHeartVoiceApi(http),
    ...createRoleApi(http),
    ...createSchoolYearApi(http),
    ...createFamilyApi(http),
    download: (url, options) => http.download(url, options),
  };
}
