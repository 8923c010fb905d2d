// The switch on the field type (DESIGN.md, after ra-no-code): one place decides how each kind of
// field is listed, edited, shown and filtered, with the Chinese validation messages of the server.
import { cloneElement, type ReactElement } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  BooleanField,
  BooleanInput,
  DateInput,
  FunctionField,
  NumberField,
  NumberInput,
  ReferenceInput,
  SelectField,
  SelectInput,
  TextField,
  TextInput,
  maxLength,
  maxValue,
  minValue,
  regex,
  required,
  type Validator,
} from 'react-admin';
import type { RaRecord } from 'ra-core';
import Chip from '@mui/material/Chip';
import { PHONE_PATTERN } from '../../domain/school';
import { dateTime } from '../../domain/format';
import type { Role } from '../../domain/roles';
import type { FieldConfig, FilterConfig } from '../types';

const CHOICE = { optionText: 'label', optionValue: 'value' } as const;

export function formatBytes(size: unknown): string {
  const n = Number(size);
  if (!Number.isFinite(n) || n < 0) return '-';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The server's messages (docs/api-school.md), so a form and an import say the same thing. */
export function validatorsOf(field: FieldConfig): Validator[] {
  const rules: Validator[] = [];
  if (field.required) rules.push(required(`${field.label}不能为空`));
  switch (field.type) {
    case 'text':
      if (field.maxLength) rules.push(maxLength(field.maxLength, `${field.label}长度不能超过${field.maxLength}个字符`));
      if (field.pattern) rules.push(regex(field.pattern.regex, field.pattern.message));
      break;
    case 'phone':
      rules.push(regex(PHONE_PATTERN, `${field.label}格式不正确`));
      break;
    case 'number':
      if (field.min !== undefined) rules.push(minValue(field.min, `${field.label}不能小于${field.min}`));
      if (field.max !== undefined) rules.push(maxValue(field.max, `${field.label}不能大于${field.max}`));
      break;
    default:
      break;
  }
  return rules;
}

/** A list column or a show row. */
export function fieldElement(field: FieldConfig): ReactElement {
  return cloneElement(fieldOf(field), { key: field.source });
}

function fieldOf(field: FieldConfig): ReactElement {
  const layout = { ...(field.nowrap ? { whiteSpace: 'nowrap' } : {}), ...(field.minWidth ? { display: 'block', minWidth: field.minWidth } : {}) };
  const common = { source: field.source, label: field.label, sortable: !!field.sortable, ...(field.nowrap || field.minWidth ? { sx: layout } : {}) };
  switch (field.type) {
    case 'text':
    case 'phone':
      return <TextField {...common} emptyText="-" />;
    case 'number':
      return <NumberField {...common} emptyText="-" />;
    case 'select':
      return <SelectField {...common} choices={field.choices as never[]} {...CHOICE} emptyText="-" />;
    case 'reference':
      // The listed record already names what it refers to (className, gradeName): no extra calls.
      return <TextField {...common} source={field.display} sortBy={field.sortable ? field.display : undefined} emptyText="-" />;
    case 'date':
      // China time in the product's one format (2026-11-27 12:42), whatever zone the browser is in;
      // react-admin's DateField would show the browser's zone as 2026/11/27 04:42:22.
      return <FunctionField {...common} render={(record: RaRecord) => dateTime(record[field.source])} />;
    case 'boolean':
      return <BooleanField {...common} />;
    case 'fileSize':
      return <FunctionField {...common} render={(record: RaRecord) => formatBytes(record[field.source])} />;
    case 'computed':
      return <FunctionField {...common} render={(record: RaRecord) => field.render(record) || '-'} />;
    case 'status':
      return (
        <FunctionField
          {...common}
          render={(record: RaRecord) => {
            const { label, tone } = field.status(record);
            return <Chip size="small" label={label} color={tone} variant={tone === 'default' ? 'outlined' : 'filled'} sx={{ fontWeight: 500 }} />;
          }}
        />
      );
  }
}

function DependentReferenceInput({ field }: { field: Extract<FieldConfig, { type: 'reference' }> }) {
  const parent = useWatch({ name: field.dependsOn!.source });
  return (
    <ReferenceInput source={field.source} reference={field.reference} filter={{ ...field.filter, ...(parent ? { [field.dependsOn!.filter]: parent } : {}) }} perPage={500}>
      <SelectInput label={field.label} optionText={field.optionText} validate={validatorsOf(field)} helperText={field.helperText} fullWidth />
    </ReferenceInput>
  );
}

/** A create/edit input; undefined for fields a form does not carry. */
export function inputElement(field: FieldConfig, mode: 'create' | 'edit'): ReactElement | undefined {
  if (field.form === false || (field.form === 'create' && mode === 'edit')) return undefined;
  const element = inputOf(field);
  return element && cloneElement(element, { key: field.source });
}

function inputOf(field: FieldConfig): ReactElement | undefined {
  const common = { source: field.source, label: field.label, validate: validatorsOf(field), helperText: field.helperText, fullWidth: true };
  switch (field.type) {
    case 'text':
      return <TextInput {...common} />;
    case 'phone':
      return <TextInput {...common} type="tel" />;
    case 'number':
      return <NumberInput {...common} min={field.min} max={field.max} />;
    case 'select':
      return <SelectInput {...common} choices={field.choices as never[]} {...CHOICE} emptyText={field.required ? undefined : '不填'} />;
    case 'reference':
      if (field.dependsOn) return <DependentReferenceInput field={field} />;
      return (
        <ReferenceInput source={field.source} reference={field.reference} filter={field.filter} perPage={500}>
          <SelectInput label={field.label} optionText={field.optionText} validate={common.validate} helperText={field.helperText} fullWidth />
        </ReferenceInput>
      );
    case 'date':
      return <DateInput {...common} />;
    case 'boolean':
      return <BooleanInput source={field.source} label={field.label} />;
    case 'fileSize':
    case 'computed':
    case 'status':
      return undefined;
  }
}

/** Clears the filters that depend on this one when it changes (SPEC §2.2: grade clears class). */
function useClearDependents(dependents: readonly string[]) {
  const form = useFormContext();
  return () => {
    for (const dependent of dependents) form.setValue(dependent, '');
  };
}

/** `source` and `alwaysOn` sit on the element itself: react-admin's FilterForm reads them from there. */
function ReferenceFilter({ filter, dependents }: { filter: Extract<FilterConfig, { type: 'reference' }>; dependents: readonly string[]; source: string; alwaysOn: boolean }) {
  const clear = useClearDependents(dependents);
  const parent = useWatch({ name: filter.dependsOn?.source ?? '__none__' });
  const narrowed = filter.dependsOn && parent ? { [filter.dependsOn.filter]: parent } : {};
  return (
    <ReferenceInput source={filter.source} reference={filter.reference} filter={{ ...filter.filter, ...narrowed }} perPage={500} alwaysOn>
      <SelectInput label={filter.label} optionText={filter.optionText} emptyText="全部" onChange={clear} sx={{ minWidth: 140 }} />
    </ReferenceInput>
  );
}

/** The list's filter inputs, all shown (alwaysOn); their state lives in the URL via react-admin's List. */
export function filterElements(filters: readonly FilterConfig[] = [], role?: Role): ReactElement[] {
  const usable = filters.filter((f) => !f.roles || (role && f.roles.includes(role)));
  return usable.map((filter) => {
    const dependents = usable.filter((f) => f.type === 'reference' && f.dependsOn?.source === filter.source).map((f) => f.source);
    switch (filter.type) {
      case 'search':
        return <TextInput key={filter.source} source={filter.source} label={filter.label} placeholder={filter.placeholder} alwaysOn resettable sx={{ minWidth: 180 }} />;
      case 'select':
        return <SelectInput key={filter.source} source={filter.source} label={filter.label} choices={filter.choices as never[]} {...CHOICE} emptyText="全部" alwaysOn sx={{ minWidth: 120 }} />;
      case 'date':
        return <DateInput key={filter.source} source={filter.source} label={filter.label} alwaysOn sx={{ minWidth: 150 }} />;
      case 'reference':
        return <ReferenceFilter key={filter.source} filter={filter} dependents={dependents} alwaysOn source={filter.source} />;
    }
  });
}
