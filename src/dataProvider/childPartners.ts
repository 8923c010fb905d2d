// 下级合作商 and the platform's 一级合作商 (docs/api-partner-children.md).
import type { HttpClient } from './http';

export interface ChildPartnerRow {
  id: number;
  name: string;
  contactName: string | null;
  phone: string | null;
  region: string | null;
  status: number;
  level: number;
  username: string | null;
  schoolCount: number;
  deviceCount: number;
  childCount: number;
  monthBoughtFen: number;
  createdAt: string;
}
export interface ChildPartnerList {
  parentName: string;
  childLevel: number;
  records: ChildPartnerRow[];
}
export interface ChildPrice {
  packId: number;
  name: string;
  sheets: number;
  priceFen: number;
  setFen: number | null;
  levelFen: number;
  minFen: number;
  maxFen: number;
}
export interface HeldSchool {
  id: number;
  name: string;
  region: string;
}
export interface HeldDevice {
  id: number;
  serial: string;
  model: string;
  schoolName: string | null;
}
export interface ChildPartnerDetail {
  id: number;
  name: string;
  contactName: string;
  phone: string;
  region: string;
  status: number;
  createdAt: string;
  username: string | null;
  awaitingPassword: boolean | null;
  prices: ChildPrice[];
  schools: HeldSchool[];
  devices: HeldDevice[];
  ownSchools: HeldSchool[];
  ownDevices: HeldDevice[];
  canAssign: boolean;
}
export interface ChildPartnerFields {
  name: string;
  contactName: string;
  phone: string;
  region: string;
}

const BASE = '/api/wrongbook/v1.0/partner/children';

export function createChildPartnerApi(http: HttpClient) {
  return {
    childPartners: () => http.get<ChildPartnerList>(BASE),
    childPartner: (partnerId: number) => http.get<ChildPartnerDetail>(`${BASE}/detail`, { partnerId }),
    inviteChildPartner: (body: ChildPartnerFields & { username: string }) => http.post<{ partnerId: number; username: string; name: string; password: string }>(`${BASE}/add`, body),
    updateChildPartner: (partnerId: number, body: ChildPartnerFields) => http.post<unknown>(`${BASE}/update`, { partnerId, ...body }),
    setChildPartnerStatus: (partnerId: number, status: number) => http.post<unknown>(`${BASE}/setStatus`, { partnerId, status }),
    /** A price left out (priceFen undefined) goes back to the level's price. */
    setChildPartnerPrices: (partnerId: number, prices: { packId: number; priceFen?: number }[]) => http.post<unknown>(`${BASE}/setPrices`, { partnerId, prices }),
    assignToChild: (partnerId: number, moves: { deviceIds?: number[]; schoolIds?: number[] }) => http.post<unknown>(`${BASE}/assign`, { partnerId, ...moves }),
    reclaimFromChild: (partnerId: number, moves: { deviceIds?: number[]; schoolIds?: number[] }) => http.post<unknown>(`${BASE}/reclaim`, { partnerId, ...moves }),
  };
}

export type ChildPartnerApi = ReturnType<typeof createChildPartnerApi>;
