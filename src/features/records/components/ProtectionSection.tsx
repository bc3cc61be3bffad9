/**
 * The side panel's records line for a folder or file (administrators only, as the server answers
 * only them): "Under retention until <day> (<schedule>)" and "On legal hold: <name>", read from
 * GET records/protection when the panel shows the item; nothing when nothing protects it.
 */
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useEffect } from 'react';
import { formatDay, type ItemProtectionDto } from '../../../../common/retention';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import type { RootState } from '../../../store/store';
import { selectIsAdmin } from '../../session/sessionSelectors';
import { selectProtection } from '../recordsSelectors';
import { recordsActions } from '../recordsSlice';
import './records.css';

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
  useEffect(() => {
    if (isAdmin) dispatch(recordsActions.protectionRequested({ type: item.type, id: item.id }));
  }, [dispatch, isAdmin, item.type, item.id]);
  if (!isAdmin || !entry?.data) return null;
  const lines = protectionLines(entry.data);
  if (lines.length === 0) return null;
  return (
    <ul className="records-protection" aria-label="Records protection">
      {lines.map((line) => (
        <li key={line}>
          <SafetyCertificateOutlined aria-hidden /> {line}
        </li>
      ))}
    </ul>
  );
}
