// Template, import and export buttons of a list (docs/api-school.md "Imports"). An import writes
// everything or nothing; a refused one comes back as the user's workbook with a 错误原因 column,
// which is saved for them at once, because that file is the only useful answer.
import { useRef, useState } from 'react';
import { Button, useDataProvider, useListContext, useNotify, useRefresh, useStore } from 'react-admin';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import MuiButton from '@mui/material/Button';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import type { AppDataProvider } from '../../dataProvider';
import { restQuery } from '../../dataProvider/adapters';
import type { Query } from '../../dataProvider/http';
import type { ImportOutcome } from '../../dataProvider/school';
import { UPLOAD_MAX_BYTES } from '../../domain/school';
import type { ResourceConfig } from '../types';

/** What the template and import buttons need: also used outside resource lists (a book's questions). */
export type TransferButtonsConfig = Pick<ResourceConfig, 'label' | 'transfer'>;

export function TemplateButton({ config }: { config: TransferButtonsConfig }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const template = config.transfer?.template;
  const [busy, setBusy] = useState(false);
  if (!template) return null;
  const fetchTemplate = async () => {
    setBusy(true);
    try {
      dataProvider.saveFile(await dataProvider.fileBlob(template.url, {}), template.fileName);
    } catch {
      // The http client has shown the reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label="下载模板" onClick={fetchTemplate} disabled={busy}>
      <DescriptionOutlined />
    </Button>
  );
}

export function importMessage(outcome: ImportOutcome): string {
  if (outcome.ok) return outcome.message || `导入成功：新增${outcome.counts.created}名，更新${outcome.counts.updated}名`;
  return `导入失败：${outcome.errorCount} 行有错误，未导入任何数据。已下载标注了错误原因的文件（${outcome.fileName}），请修改后重新导入`;
}

export function ImportButton({ config }: { config: TransferButtonsConfig }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<{ file: string; percent: number; outcome?: ImportOutcome; failed?: boolean } | undefined>();
  // 是否更新已经存在的数据: asked before each import of a list that matches existing records.
  const [asking, setAsking] = useState(false);
  const [update, setUpdate] = useState(false);
  const url = config.transfer?.import?.url;
  const askUpdate = !!config.transfer?.import?.askUpdate;
  if (!url) return null;

  const run = async (file: File) => {
    if (file.size > UPLOAD_MAX_BYTES) {
      notify('文件过大，单个文件不能超过50MB', { type: 'error' });
      return;
    }
    setState({ file: file.name, percent: 0 });
    try {
      const outcome = await dataProvider.importWorkbook(
        url,
        file,
        (loaded, total) => setState((s) => s && { ...s, percent: total ? Math.round((loaded / total) * 100) : s.percent }),
        askUpdate ? update : undefined,
      );
      if (!outcome.ok) dataProvider.saveFile(outcome.workbook, outcome.fileName);
      else refresh();
      setState({ file: file.name, percent: 100, outcome });
    } catch {
      // Refused before parsing (wrong file, too many rows): the http client showed why.
      setState((s) => s && { ...s, failed: true });
    }
  };

  const outcome = state?.outcome;
  const done = !!outcome || !!state?.failed;
  return (
    <>
      <Button label="批量导入" onClick={() => (askUpdate ? setAsking(true) : input.current?.click())}>
        <FileUploadOutlined />
      </Button>
      <Dialog open={asking} onClose={() => setAsking(false)} fullWidth maxWidth="xs">
        <DialogTitle>导入{config.label}</DialogTitle>
        <DialogContent>
          <FormControlLabel
            control={<Checkbox checked={update} onChange={(event) => setUpdate(event.target.checked)} />}
            label="是否更新已经存在的数据"
          />
          <Typography variant="body2" color="text.secondary">
            {update ? `文件中已存在的${config.label}将按文件内容更新。` : `文件中已存在的${config.label}将保持不变，只新增不存在的。`}
          </Typography>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setAsking(false)}>取消</MuiButton>
          <MuiButton
            variant="contained"
            onClick={() => {
              setAsking(false);
              input.current?.click();
            }}
          >
            选择文件
          </MuiButton>
        </DialogActions>
      </Dialog>
      <input
        ref={input}
        type="file"
        hidden
        aria-label={`导入${config.label}文件`}
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void run(file);
        }}
      />
      <Dialog open={!!state} onClose={done ? () => setState(undefined) : undefined} fullWidth maxWidth="sm">
        <DialogTitle>导入{config.label}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1, wordBreak: 'break-all' }}>
            {state?.file}
          </Typography>
          {!done && (
            <>
              <LinearProgress variant={state && state.percent < 100 ? 'determinate' : 'indeterminate'} value={state?.percent ?? 0} aria-label="上传进度" />
              <Typography variant="body2" sx={{ mt: 1 }}>
                {state && state.percent < 100 ? `正在上传… ${state.percent}%` : '上传完成，正在校验和导入…'}
              </Typography>
            </>
          )}
          {outcome && (
            <Alert severity={outcome.ok ? 'success' : 'error'} role="status">
              {importMessage(outcome)}
            </Alert>
          )}
          {outcome && !outcome.ok && outcome.rows.length > 0 && (
            <Box component="ul" aria-label="有错误的行" sx={{ mt: 1.5, mb: 0, pl: 2.5, maxHeight: 240, overflowY: 'auto' }}>
              {outcome.rows.map((r) => (
                <Typography component="li" variant="body2" key={r.row}>
                  第 {r.row} 行：{r.reason}
                </Typography>
              ))}
              {outcome.errorCount > outcome.rows.length && (
                <Typography component="li" variant="body2" color="text.secondary">
                  另有 {outcome.errorCount - outcome.rows.length} 行，见下载的文件
                </Typography>
              )}
            </Box>
          )}
          {state?.failed && <Alert severity="error">导入未完成，请按提示修改文件后重试</Alert>}
        </DialogContent>
        <DialogActions>
          {outcome && !outcome.ok && (
            <MuiButton onClick={() => dataProvider.saveFile(outcome.workbook, outcome.fileName)}>再次下载错误文件</MuiButton>
          )}
          <MuiButton onClick={() => setState(undefined)} disabled={!done} variant="contained">
            {done ? '知道了' : '导入中…'}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** Exports what the list shows: its filters and sort, no paging (SPEC §5 download helper). */
/** Where a list keeps the user's choice of columns (react-admin's store, in the browser). */
export const columnsKey = (config: Pick<ResourceConfig, 'name'>) => `${config.name}.datagrid`;

interface ColumnPreference {
  index: string;
  source?: string;
}

/**
 * The sources of the columns shown, in order, as react-admin's DatagridConfigurable keeps them:
 * the chosen column indexes, or every column that is not omitted.
 */
export function visibleSources(available: ColumnPreference[] | undefined, chosen: string[] | undefined, omit: string[] | undefined): string[] {
  const columns = available ?? [];
  const shown = chosen ? chosen.map((index) => columns.find((c) => c.index === index)) : columns.filter((c) => !c.source || !omit?.includes(c.source));
  return shown.flatMap((c) => (c?.source ? [c.source] : []));
}

export function ExportButton({ config }: { config: ResourceConfig }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { filterValues, sort } = useListContext();
  const [busy, setBusy] = useState(false);
  const key = `preferences.${columnsKey(config)}`;
  const [available] = useStore<ColumnPreference[]>(`${key}.availableColumns`);
  const [chosen] = useStore<string[]>(`${key}.columns`);
  const [omit] = useStore<string[]>(`${key}.omit`);
  const target = config.transfer?.export;
  if (!target) return null;
  const sortParam = config.endpoints.kind === 'paged' ? config.endpoints.sortParam ?? 'orderBy' : 'orderBy';
  const run = async () => {
    setBusy(true);
    try {
      const query: Query = {};
      if (config.endpoints.kind === 'rest') Object.assign(query, restQuery({ sort, filter: filterValues }));
      else {
        for (const [key, value] of Object.entries(filterValues ?? {})) if (value !== '' && value !== undefined && value !== null) query[key] = value as string | number;
        if (sort?.field && sort.field !== 'id') {
          query[sortParam] = sort.field;
          query.order = sort.order === 'DESC' ? 'desc' : 'asc';
        }
      }
      if (target.columns) query.fields = visibleSources(available, chosen, omit).join(',');
      await dataProvider.download(target.url, { name: target.name, ext: 'xlsx', query, timeout: 120_000 });
    } catch {
      // '导出{name}失败' or the server's reason is already on screen.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label={busy ? '导出中…' : '导出'} onClick={run} disabled={busy}>
      <FileDownloadOutlined />
    </Button>
  );
}
