// A list's column choice (选择列) kept on the server with the saved filters: react-admin keeps it
// in the browser's store, which signing out clears (SPEC §4), so a partner who hid columns of
// 订单管理 found them all back the next morning. This restores the server's choice into the store
// when the browser has none, and saves each choice the user makes afterwards.
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useStore } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import type { ResourceConfig } from '../types';
import { columnsKey, visibleSources } from './Transfer';

interface ColumnPreference {
  index: string;
  source?: string;
}

export function useServerColumns(config: ResourceConfig, enabled: boolean): void {
  const dataProvider = useDataProvider<AppDataProvider>();
  const key = `preferences.${columnsKey(config)}`;
  const [available] = useStore<ColumnPreference[]>(`${key}.availableColumns`);
  const [chosen, setChosen] = useStore<string[] | undefined>(`${key}.columns`);
  const saved = useQuery({ queryKey: ['listColumns', config.name], queryFn: () => dataProvider.listColumns(config.name), enabled, retry: false, staleTime: Infinity });
  /** The sources last known to be on the server; undefined until the server's answer is read. */
  const onServer = useRef<string | undefined>(undefined);

  // Once the server has answered and the grid has listed its columns: the server's choice, unless
  // this browser already has one.
  useEffect(() => {
    if (!enabled || onServer.current !== undefined || !saved.data || !available?.length) return;
    const sources = saved.data.columns;
    onServer.current = sources ? sources.join(',') : '';
    if (sources && !chosen) {
      const indexes = sources.flatMap((source) => available.find((c) => c.source === source)?.index ?? []);
      if (indexes.length) setChosen(indexes);
    }
  }, [enabled, saved.data, available, chosen, setChosen]);

  // Every later choice goes to the server (a choice equal to what it has is not sent again).
  useEffect(() => {
    if (!enabled || onServer.current === undefined || !chosen || !available?.length) return;
    const sources = visibleSources(available, chosen, undefined);
    const text = sources.join(',');
    if (text === onServer.current) return;
    onServer.current = text;
    dataProvider.saveListColumns(config.name, sources).catch(() => undefined);
  }, [enabled, chosen, available, dataProvider, config.name]);
}
