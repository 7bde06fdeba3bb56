import { Create, useTranslate } from 'react-admin';
import { AfterSalesForm } from './AfterSalesForm';
import { PageHeading } from '../generic/PageHeading';

/**
 * New report. Started from a fault, the fault clearing page opens
 * /service/afterService/create?source={...} (react-admin's prefill) with the vessel's model, SN,
 * number, customer and the fault's description; the form says which fault it came from.
 */
export function AfterSalesCreate() {
  const translate = useTranslate();
  return (
    <>
      <PageHeading titleKey="support.afterSales.create" />
      <Create title={translate('support.afterSales.create')} redirect="list" mutationOptions={{ onError: () => undefined }}>
        <AfterSalesForm defaults={{ DispatchOfData: new Date().toISOString().slice(0, 10) }} />
      </Create>
    </>
  );
}
