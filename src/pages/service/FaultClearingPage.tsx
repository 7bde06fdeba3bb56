import { useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AssignmentIcon from '@mui/icons-material/Assignment';
import LockIcon from '@mui/icons-material/Lock';
import { useCanAccess, useGetOne } from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { supportApi, type ActiveAlarm, type FaultRecord, type VesselItem } from '../../api/supportApi';
import { useCallQuery } from '../../data/dataHooks';
import { ExportButton } from '../../layout/ExportButton';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useTranslate } from 'ra-core';
import { useClientState } from '../../state/useClientState';
import { FaultCodeChips, SEVERITY_COLOR } from './FaultCodeChips';
import { FaultHistory } from './FaultHistory';
import { FaultRecordForm } from './FaultRecordForm';
import { DEVICES, FaultVesselPicker } from './FaultVesselPicker';

const AFTER_SALES_RESOURCE = 'service/afterService';
const AFTER_SALES = `/${AFTER_SALES_RESOURCE}`;

/**
 * Support > Troubleshooting (/service/faultClearing, levels 1-3): the fault codes of
 * docs/requirements.md §8 as a guide. Pick a vessel (its active faults first, from the alarm API) or a code;
 * see its meaning, unit, severity and steps; record what was done in the vessel's history (a fault
 * cleared acknowledges the vessel's alarms of the code); the report step offers an after-sales
 * report to those who may raise one (an admin), and sends the others to their service provider.
 * ?deviceId= and ?code= open one directly.
 */
export default function FaultClearingPage() {
  const t = useTranslate();
  const language = useClientState((s) => s.language);
  const navigate = useNavigate();
  const format = useDateFormatter();
  // The after-sales report's list is what its page opens (react-admin's canAccess, the authProvider's matrix).
  const { canAccess: canStartReport } = useCanAccess({ resource: AFTER_SALES_RESOURCE, action: 'list' });
  const [params, setParams] = useSearchParams();
  const code = params.get('code');
  const deviceId = Number(params.get('deviceId')) || null;
  const guideQuery = useCallQuery('support', 'faultGuide', []);
  const guide = guideQuery.data ?? null;
  // The vessel of ?deviceId= is read; one picked here shows until it is.
  const [picked, setPicked] = useState<VesselItem | null>(null);
  const { data: read } = useGetOne<VesselItem>(DEVICES, { id: deviceId! }, { enabled: deviceId !== null });
  const vessel = deviceId === null ? null : read?.id === deviceId ? read : picked?.id === deviceId ? picked : null;
  const alarms = useCallQuery('support', 'activeAlarms', deviceId ? [deviceId] : null);
  const active: ActiveAlarm[] = (deviceId && alarms.data?.list) || [];
  const history = useCallQuery('support', 'faultRecords', deviceId ? [{ deviceId, pageSize: 50 }] : null);
  // A failed read shows an empty history.
  const records: FaultRecord[] | null = deviceId ? (history.data?.list ?? (history.isError ? [] : null)) : null;
  // A vessel alone opens its first active fault.
  const firstActive = alarms.data?.list[0]?.code;
  useEffect(() => {
    if (deviceId && firstActive && !params.get('code'))
      setParams(
        (p) => {
          p.set('code', firstActive);
          return p;
        },
        { replace: true },
      );
  }, [deviceId, firstActive]); // eslint-disable-line react-hooks/exhaustive-deps

  const fault = useMemo(() => guide?.find((g) => g.code === code) ?? null, [guide, code]);
  const alarm = active.find((a) => a.code === code);
  const set = (key: string, value: string | null) =>
    setParams((p) => {
      if (value) p.set(key, value);
      else p.delete(key);
      return p;
    });
  const pickVessel = (v: VesselItem | null) => {
    setPicked(v);
    setParams((p) => {
      if (v) p.set('deviceId', String(v.id));
      else p.delete('deviceId');
      p.delete('code');
      return p;
    });
  };
  const startReport = () => {
    if (!fault) return;
    const source = {
      DeviceModel: vessel?.deviceModel ?? '',
      DeviceSn: vessel?.deviceSn ?? '',
      DeviceNum: vessel?.deviceNum ?? '',
      Customer: vessel?.ownerName ?? '',
      Classification: 'hardware',
      Description: t('support.fault.reportDescription', { code: fault.code, meaning: fault.meaning[language] }),
      deviceId: vessel?.id ?? null,
      faultCode: fault.code,
    };
    navigate(`${AFTER_SALES}/create?source=${encodeURIComponent(JSON.stringify(source))}`);
  };

  // The page's one h1, also above a load error.
  const heading = (
    <Typography variant="h6" component="h1" sx={{ mb: 2 }}>
      {t('support.fault.title')}
    </Typography>
  );
  if (guideQuery.isError)
    return (
      <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="fault-clearing">
        {heading}
        <Alert severity="error">{t('support.fault.loadError')}</Alert>
      </Box>
    );
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="fault-clearing">
      {heading}
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Paper variant="outlined" sx={{ p: 2, width: { xs: '100%', lg: 380 }, flexShrink: 0, boxSizing: 'border-box' }}>
          <FaultVesselPicker value={vessel} onChange={pickVessel} />
          {vessel && (
            <Box sx={{ mt: 2 }}>
              <Typography variant="subtitle2" sx={{ fontWeight: 600 }}>
                {t('support.fault.activeFaults')}
              </Typography>
              {active.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {t('support.fault.noActiveFaults')}
                </Typography>
              ) : (
                active.map((a) => (
                  <Typography key={a.id} variant="body2" sx={{ cursor: 'pointer' }} onClick={() => set('code', a.code)}>
                    <b>{a.code}</b> · {guide?.find((g) => g.code === a.code)?.meaning[language] ?? a.meaning} · {format(a.raisedAt)}
                    {a.ackedAt && (
                      <Chip
                        component="span"
                        size="small"
                        variant="outlined"
                        color="success"
                        sx={{ ml: 1 }}
                        label={a.ackedByName ? `${t('support.fault.acknowledged')} · ${a.ackedByName}` : t('support.fault.acknowledged')}
                        data-testid={`fc-acked-${a.code}`}
                      />
                    )}
                  </Typography>
                ))
              )}
            </Box>
          )}
          <Typography variant="subtitle2" sx={{ mt: 2, mb: 1, fontWeight: 600 }}>
            {vessel ? t('support.fault.allCodes') : t('support.fault.orCode')}
          </Typography>
          {guide && <FaultCodeChips guide={guide} active={active} selected={code} onPick={(c) => set('code', c)} />}
        </Paper>
        <Paper variant="outlined" sx={{ p: 2, flex: 1, width: '100%', boxSizing: 'border-box', minWidth: 0 }}>
          {!fault ? (
            <Typography color="text.secondary" data-testid="fc-empty">
              {t('support.fault.detailHint')}
            </Typography>
          ) : (
            <Box data-testid="fc-detail">
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
                <Typography variant="h5" component="span" sx={{ fontWeight: 700 }}>
                  {fault.code}
                </Typography>
                <Chip
                  size="small"
                  color={SEVERITY_COLOR[fault.severity]}
                  label={`${t('support.fault.severity')}: ${t(`support.severity.${fault.severity}`)}`}
                />
                <Chip size="small" variant="outlined" label={`${t('support.fault.unit')}: ${t(`support.unit.${fault.unit}`)}`} />
                {alarm && <Chip size="small" variant="outlined" label={`${t('support.fault.raisedAt')}: ${format(alarm.raisedAt)}`} />}
              </Stack>
              <Typography variant="subtitle1" sx={{ mt: 1 }} data-testid="fc-meaning">
                {fault.meaning[language]}
              </Typography>
              {fault.contactManufacturer && (
                <Alert severity="error" sx={{ mt: 1 }} data-testid="fc-contact">
                  {t('support.fault.contactManufacturer')}
                </Alert>
              )}
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t('support.fault.remedy')}: {fault.remedy[language]}
              </Typography>
              <FaultRecordForm
                key={`${fault.code}:${vessel?.id ?? ''}`}
                vessel={vessel}
                fault={fault}
                report={{
                  allowed: canStartReport === true,
                  node:
                    canStartReport === true ? (
                      <Button
                        size="small"
                        variant="outlined"
                        startIcon={<AssignmentIcon />}
                        onClick={startReport}
                        data-testid="fc-start-report"
                      >
                        {t('support.fault.startReport')}
                      </Button>
                    ) : canStartReport === false ? (
                      <Chip size="small" icon={<LockIcon />} label={t('console.page.locked')} data-testid="fc-report-locked" />
                    ) : null,
                }}
              />
            </Box>
          )}
          {vessel && (
            <Box sx={{ mt: 3 }}>
              <Stack direction="row" sx={{ mb: 1, alignItems: 'center', justifyContent: 'space-between' }}>
                <Typography variant="subtitle2" sx={{ fontWeight: 600 }}>
                  {t('support.fault.history')}
                </Typography>
                <ExportButton onExport={() => supportApi.exportFaultRecords({ deviceId: vessel.id })} testId="fc-export" />
              </Stack>
              <FaultHistory records={records} />
            </Box>
          )}
        </Paper>
      </Stack>
    </Box>
  );
}
