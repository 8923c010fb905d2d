// 纸张消耗 and 补货建议 as the partner screens read them (server/modules/partner/consumption.ts).

export interface ReorderItem {
  packId: number;
  name: string;
  sheets: number;
  quantity: number;
}

export interface Consumption {
  /** The window the pace is measured over (CONSUMPTION_DAYS). */
  days: number;
  /** Sheets of the paid, not refunded orders that brought paper into the subtree. */
  boughtSheets: number;
  /** Pages the subtree's terminals ever printed. */
  printedPages: number;
  schools: {
    schoolId: number;
    schoolName: string;
    terminals: number;
    paperLeft: number;
    recentPages: number;
    pagesPerDay: number;
    /** Whole days the paper in the school's terminals lasts at the recent pace; null when nothing was printed. */
    daysLeft: number | null;
    /** Sheets to bring it to REORDER_COVER_DAYS when it is below REORDER_BELOW_DAYS; else 0. */
    needSheets: number;
  }[];
  terminals: {
    deviceId: number;
    serial: string;
    schoolId: number;
    schoolName: string;
    paperLeft: number;
    recentPages: number;
    totalPages: number;
    daysLeft: number | null;
  }[];
  reorder: { needSheets: number; schools: number; items: ReorderItem[] };
}
