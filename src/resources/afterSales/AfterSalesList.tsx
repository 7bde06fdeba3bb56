import Stack from '@mui/material/Stack';
import {
  CreateButton, DataTable, DateInput, DeleteWithConfirmButton, EditButton, FilterButton, List, SearchInput, SelectInput, TextInput,
  useTranslate,
} from 'react-admin';
import { ListExportButton } from '../generic/ListExportButton';
import { AFTER_SALES_CLASSIFICATIONS } from '../../domain/afterSales';
import { useDateFormatter } from '../../format/useDateFormatter';
import { afterSalesLabel } from './AfterSalesForm';
import { DATATABLE_SX } from '../generic/listStyles';

type Report = Record<string, unknown> & { id: number };

function useFilters() {
  const translate = useTranslate();
  return [
    <SearchInput key="device" source="device" alwaysOn placeholder={translate('support.afterSales.device')} sx={{ minWidth: 200 }} />,
    <DateInput key="dateFrom" source="dateFrom" label="support.afterSales.dateFrom" alwaysOn />,
    <DateInput key="dateTo" source="dateTo" label="support.afterSales.dateTo" alwaysOn />,
    <SelectInput key="classification" source="classification" label="support.afterSales.classification" alwaysOn
      choices={AFTER_SALES_CLASSIFICATIONS.map((id) => ({ id, name: translate(`afterSales.classification.${id}`) }))} />,
    <TextInput key="department" source="department" label="support.afterSales.department" />,
  ];
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const clip = (value: unknown) => {
  const t = text(value);
  return <span title={t} style={{ display: 'inline-block', maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis', verticalAlign: 'bottom' }}>{t}</span>;
};

/** After-sales reports: the catalogue's columns, filters, sort, paging, export. */
export function AfterSalesList() {
  const translate = useTranslate();
  const format = useDateFormatter();
  return (
    <List
      title={translate('support.afterSales.title')}
      filters={useFilters()}
      perPage={25}
      sort={{ field: 'DispatchOfData', order: 'DESC' }}
      actions={<Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', py: 1, ml: 'auto' }}><FilterButton /><CreateButton variant="text" /><ListExportButton path="/supportModule/afterSales/export" label="support.afterSales.export" testId="as-export" /></Stack>}
      queryOptions={{ onError: () => undefined }}
      empty={false}
      sx={{ contain: 'inline-size' }}
    >
      <DataTable rowClick={false} bulkActionButtons={false}
        sx={DATATABLE_SX}>
        <DataTable.Col source="FeedbackPeople" label={afterSalesLabel('FeedbackPeople')} />
        <DataTable.Col source="DispatchOfData" label={afterSalesLabel('DispatchOfData')} />
        <DataTable.Col source="FeedbackApartment" label={afterSalesLabel('FeedbackApartment')} />
        <DataTable.Col source="Classification" label={afterSalesLabel('Classification')} render={(r: Report) => translate(`afterSales.classification.${text(r.Classification)}`, { _: text(r.Classification) })} />
        <DataTable.Col source="CustomerSuggestion" label={afterSalesLabel('CustomerSuggestion')} disableSort render={(r: Report) => clip(r.CustomerSuggestion)} />
        <DataTable.Col source="Description" label={afterSalesLabel('Description')} disableSort render={(r: Report) => clip(r.Description)} />
        <DataTable.Col source="Department" label={afterSalesLabel('Department')} />
        <DataTable.Col source="DeviceSn" label={afterSalesLabel('DeviceSn')} disableSort />
        <DataTable.Col source="createdAt" label={afterSalesLabel('createdAt')} render={(r: Report) => format(r.createdAt as string)} />
        <DataTable.Col label="console.table.actions" disableSort render={() => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <EditButton />
            <DeleteWithConfirmButton mutationMode="pessimistic" mutationOptions={{ onError: () => undefined }}
              titleTranslateOptions={{ name: translate('support.afterSales.name') }} contentTranslateOptions={{ name: translate('support.afterSales.name') }} />
          </span>
        )} />
      </DataTable>
    </List>
  );
}
