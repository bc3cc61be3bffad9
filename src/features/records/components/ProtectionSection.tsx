/**
 * The side panel's records line for a folder or file (administrators only, as the server answers
 * only them): "Under retention until <day> (<schedule>)" and "On legal hold: <name>", read from
 * GET records/protection when the panel shows the item, and "Add to a legal hold…", which reads
 * the firm's holds when it opens, offers the active ones that do not hold the item yet, and adds
 * the item to the one chosen.
 */
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Select, Spin } from 'antd';
import { useEffect } from 'react';
import { formatDay, type ItemProtectionDto } from '@common/retention';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import type { RootState } from '@src/store/store';
import { selectIsAdmin } from '@src/features/session/sessionSelectors';
import { selectHolds, selectProtection, selectRecordsChange } from '../recordsSelectors';
import { recordsActions } from '../recordsSlice';
import { RecordsError } from './RecordsCommon';
import './records.css';

/** The placeholder of the hold chooser, whose accessible name is "Add to a legal hold". */
const ADD_TO_HOLD_TEXT = 'Add to a legal hold…';

/** The lines of an item's protection, in words (none when nothing protects it). */
export function protectionLines(protection: ItemProtectionDto): string[] {
  const lines: string[] = [];
  const names = protection.schedules.map((s) => s.schedule_name).join(', ');
  if (protection.type === 'file') {
    if (protection.retention_pending) {
      lines.push(`Under retention until its date index value is set (${names})`);
    } else if (protection.retained_until) {
      lines.push(`Under retention until ${formatDay(protection.retained_until)} (${names})`);
    }
  } else if (protection.schedules.length > 0) {
    lines.push(`Files here are under retention (${names})`);
  }
  for (const hold of protection.holds) lines.push(`On legal hold: ${hold.name}`);
  return lines;
}

/** The section; `item` is the panel's folder or file. */
export function ProtectionSection({ item }: { item: { type: 'folder' | 'file'; id: string } }) {
  const dispatch = useAppDispatch();
  const isAdmin = useAppSelector(selectIsAdmin);
  const entry = useAppSelector((state: RootState) => selectProtection(state, item.id));
  const holds = useAppSelector(selectHolds);
  const change = useAppSelector(selectRecordsChange);
  useEffect(() => {
    if (isAdmin) dispatch(recordsActions.protectionRequested({ type: item.type, id: item.id }));
  }, [dispatch, isAdmin, item.type, item.id]);
  if (!isAdmin || !entry?.data) return null;
  const lines = protectionLines(entry.data);
  const holding = new Set(entry.data.holds.map((hold) => hold.id));
  const offered = holds.items.filter((hold) => hold.status === 'active' && !holding.has(hold.id));
  const adding = change.kind === 'holdTarget';
  let notFound: React.ReactNode = 'No other active legal hold.';
  if (holds.status === 'loading') notFound = <Spin size="small" />;
  else if (holds.status === 'failed') notFound = holds.error;
  return (
    <div className="records-protection-section">
      {lines.length > 0 ? (
        <ul className="records-protection" aria-label="Records protection">
          {lines.map((line) => (
            <li key={line}>
              <SafetyCertificateOutlined aria-hidden /> {line}
            </li>
          ))}
        </ul>
      ) : null}
      <Select<string>
        size="small"
        className="records-wide"
        aria-label="Add to a legal hold"
        placeholder={ADD_TO_HOLD_TEXT}
        value={null}
        disabled={adding && change.status === 'loading'}
        loading={holds.status === 'loading'}
        notFoundContent={notFound}
        // The firm's holds are read when the list opens, not with every panel.
        onOpenChange={(open) => {
          if (open) dispatch(recordsActions.holdsRequested());
        }}
        options={offered.map((hold) => ({
          value: hold.id,
          label: hold.matter ? `${hold.name} (${hold.matter})` : hold.name,
        }))}
        onChange={(holdId: string) =>
          dispatch(
            recordsActions.holdTargetAddRequested({
              id: holdId,
              target: { type: item.type, id: item.id },
            }),
          )
        }
      />
      {adding && change.status === 'failed' ? <RecordsError message={change.error} /> : null}
    </div>
  );
}
