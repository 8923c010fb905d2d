// 常用筛选: a user's saved list filters, kept on the server per user (juno personal service).
import type { HttpClient } from './http';

export interface SavedFilter {
  id: number;
  name: string;
  filter: Record<string, unknown>;
}

export interface SavedFilterApi {
  savedFilters(resource: string): Promise<SavedFilter[]>;
  saveFilter(resource: string, name: string, filter: Record<string, unknown>): Promise<SavedFilter>;
  removeSavedFilter(id: number): Promise<void>;
  /** The columns the user chose for a list (field sources, in order); null before any choice. */
  listColumns(resource: string): Promise<{ columns: string[] | null }>;
  saveListColumns(resource: string, columns: string[]): Promise<{ columns: string[] }>;
}

const BASE = '/api/juno/personal/savedFilters';

export function createSavedFilterApi(http: HttpClient): SavedFilterApi {
  return {
    savedFilters: (resource) => http.get<SavedFilter[]>(BASE, { resource }),
    saveFilter: (resource, name, filter) => http.post<SavedFilter>(`${BASE}/save`, { resource, label: name, filter }),
    removeSavedFilter: async (id) => {
      await http.post<null>(`${BASE}/remove`, { id });
    },
    listColumns: (resource) => http.get<{ columns: string[] | null }>(`${BASE}/columns`, { resource }),
    saveListColumns: (resource, columns) => http.post<{ columns: string[] }>(`${BASE}/columns`, { resource, columns }),
  };
}
