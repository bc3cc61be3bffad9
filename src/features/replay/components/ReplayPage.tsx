/**
 * The Replay page (/replay/:folderId, docs/architecture/replay.md): a folder as it was at a
 * moment, read-only. A banner names the moment ("Back to now" returns to the folder's page); the
 * breadcrumbs are the folder's path as it was, then the levels opened inside it; the list shows
 * one level of the subtree (archived items on request, items destroyed since tagged), the
 * details panel the selected item, and the timeline beside them (below on a phone) steps to the
 * previous or next event (the buttons, or ←/↑ and →/↓ outside text fields) and highlights what
 * that event changed.
 *
 * The address carries the moment (`as_of`, `event` or `before_event`), the level (`folder`) and
 * `archived=1`, and is replaced at each step, so a reload shows the same step. A date-time picker
 * jumps to another moment; "Case file" exports the timeline of a period.
 */
import { HomeOutlined } from '@ant-design/icons';
import { Alert, Breadcrumb, Button, DatePicker, Empty, Result, Spin, Switch } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ROOT_FOLDER_ID } from '@common/constants';
import { childrenAt, type ReplayState } from '@common/replay';
import { REPLAY_MESSAGES } from '@common/replayViews';
import { PageTitle } from '@src/components/PageTitle';
import { isTextField } from '@src/features/notifications/useUndoShortcut';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import {
  addressFromSearch,
  folderIdOfParam,
  folderPagePath,
  replayPagePath,
  searchFromAddress,
  type ReplayAddress,
} from '../replayLinks';
import {
  selectReplay,
  selectReplayCanStep,
  selectReplayChanges,
  selectReplayChangesById,
  selectReplayCrumbs,
  selectReplayFolderMissing,
  selectReplayIsLegacy,
  selectReplayMomentTime,
  selectReplayState,
  selectReplayTimeline,
} from '../replaySelectors';
import { replayActions, type ReplayDirection, type ReplayMoment } from '../replaySlice';
import {
  BACK_TO_NOW_LABEL,
  COULD_NOT_LOAD_REPLAY,
  HOME_FOLDER_NAME,
  MOMENT_FORMAT,
  bannerText,
} from '../replayTexts';
import { CASE_FILE_TITLE, CaseFileDialog } from './CaseFileDialog';
import { ReplayDetails } from './ReplayDetails';
import { ReplayItems } from './ReplayItems';
import { ReplayTimeline } from './ReplayTimeline';
import { nextVisit } from './visits';
import './replay.css';

/** The arrow keys of the timeline. */
const STEP_KEYS: Record<string, ReplayDirection> = {
  ArrowLeft: 'previous',
  ArrowUp: 'previous',
  ArrowRight: 'next',
  ArrowDown: 'next',
};

/** Whether an arrow key belongs to what has the focus (a field, a dialog, a menu, a list box). */
function keyTakenElsewhere(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) {
    return true;
  }
  if (isTextField(event.target)) return true;
  const target = event.target instanceof Element ? event.target : null;
  return (
    target?.closest(
      '[role="dialog"], [role="menu"], [role="listbox"], [role="slider"], [role="tablist"]',
    ) != null
  );
}

/** The key of a moment, for effects and comparisons. */
function momentKey(moment: ReplayMoment): string {
  return [moment.as_of ?? '', moment.event ?? '', moment.before_event ?? ''].join('|');
}

/** The levels from the replayed folder down to `levelId` (excluded: the replayed folder). */
function pathInside(state: ReplayState, rootId: string, levelId: string) {
  const chain: { id: string; name: string }[] = [];
  let current = state.items[levelId];
  for (let hops = 0; current && current.id !== rootId && hops < 1000; hops++) {
    chain.unshift({ id: current.id, name: current.name });
    current = state.items[current.parentId];
  }
  return current || rootId === ROOT_FOLDER_ID ? chain : [];
}

/** Rows are about 52 px; the list's box fits them up to the style sheet's maximum. */
const ROW_HEIGHT = 52;

/** The page. */
export function ReplayPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { folderId: param } = useParams();
  const folderId = folderIdOfParam(param);
  const [search, setSearch] = useSearchParams();
  const searchText = search.toString();
  const address = useMemo(() => addressFromSearch(new URLSearchParams(searchText)), [searchText]);
  const [visit] = useState(nextVisit);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [caseFileOpen, setCaseFileOpen] = useState(false);

  const replay = useAppSelector(selectReplay);
  const state = useAppSelector(selectReplayState);
  const changes = useAppSelector(selectReplayChanges);
  const changesById = useAppSelector(selectReplayChangesById);
  const legacy = useAppSelector(selectReplayIsLegacy);
  const missing = useAppSelector(selectReplayFolderMissing);
  const timeline = useAppSelector(selectReplayTimeline);
  const crumbs = useAppSelector(selectReplayCrumbs);
  const momentTime = useAppSelector(selectReplayMomentTime);
  const canStep = useAppSelector(selectReplayCanStep);
  const view = replay.folderId === folderId ? replay.view : null;

  // The address names the moment: read it (the sagas skip what this visit already holds).
  const addressKey = momentKey(address.moment);
  useEffect(() => {
    const [as_of, event, before_event] = addressKey.split('|');
    const moment: ReplayMoment = {
      as_of: as_of || null,
      event: event || null,
      before_event: before_event || null,
    };
    dispatch(replayActions.viewOpened({ folderId, moment, visit }));
  }, [dispatch, folderId, addressKey, visit]);

  // A step moved the store's moment: put it in the address (replacing it), so a reload shows it.
  const storeKey = replay.folderId === folderId ? momentKey(replay.moment) : null;
  const lastStoreKey = useRef<string | null>(null);
  const addressRef = useRef(address);
  addressRef.current = address;
  const storeMoment = replay.moment;
  useEffect(() => {
    const previous = lastStoreKey.current;
    lastStoreKey.current = storeKey;
    if (previous === null || storeKey === null || previous === storeKey) return;
    if (storeKey === momentKey(addressRef.current.moment)) return;
    setSearch(searchFromAddress({ ...addressRef.current, moment: storeMoment }), {
      replace: true,
    });
  }, [storeKey, storeMoment, setSearch]);

  const step = useCallback(
    (direction: ReplayDirection) => dispatch(replayActions.stepRequested({ direction })),
    [dispatch],
  );
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const direction = STEP_KEYS[event.key];
      if (!direction || keyTakenElsewhere(event)) return;
      event.preventDefault();
      step(direction);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [step]);

  const setAddress = useCallback(
    (next: Partial<ReplayAddress>, replace = false) =>
      setSearch(searchFromAddress({ ...addressRef.current, ...next }), { replace }),
    [setSearch],
  );

  // The level shown: the address's sub-folder while it lies in the subtree at this step.
  const rootId = view?.folder_id ?? folderId;
  const wanted = address.subFolderId;
  const levelId =
    state && wanted !== null && wanted !== rootId && state.items[wanted]?.type === 'folder'
      ? pathInside(state, rootId, wanted).length > 0
        ? wanted
        : rootId
      : rootId;
  const inside = state && levelId !== rootId ? pathInside(state, rootId, levelId) : [];
  useEffect(() => setSelectedId(null), [levelId]);

  const levelHref = useCallback(
    (id: string) =>
      `?${searchFromAddress({ ...addressRef.current, subFolderId: id === rootId ? null : id }).toString()}`,
    [rootId],
  );

  const items = useMemo(
    () => (state ? childrenAt(state, levelId, { archived: address.archived }) : []),
    [state, levelId, address.archived],
  );

  const folderName = (id: string) =>
    id === ROOT_FOLDER_ID ? HOME_FOLDER_NAME : (state?.items[id]?.name ?? '');
  const rootName = folderName(rootId) || 'Folder';
  const levelName = folderName(levelId) || rootName;

  if (!view) {
    if (replay.status === 'failed' && replay.folderId === folderId) {
      return (
        <div className="page replay-page">
          <Result
            status="warning"
            title={COULD_NOT_LOAD_REPLAY}
            subTitle={replay.error}
            extra={[
              <Button
                key="again"
                onClick={() =>
                  dispatch(
                    replayActions.viewRequested({
                      folderId,
                      moment: address.moment,
                      visit,
                      followUp: null,
                    }),
                  )
                }
              >
                Try again
              </Button>,
              <Button
                key="now"
                type="primary"
                onClick={() => void navigate(folderPagePath(folderId))}
              >
                {BACK_TO_NOW_LABEL}
              </Button>,
            ]}
          />
        </div>
      );
    }
    return (
      <div className="page page-loading" role="status" aria-live="polite">
        <Spin description="Loading the folder’s past…" />
      </div>
    );
  }

  const selected = selectedId !== null ? (state?.items[selectedId] ?? null) : null;
  const shownItem =
    selected ?? (levelId !== ROOT_FOLDER_ID ? (state?.items[levelId] ?? null) : null);
  const loading = replay.status === 'loading';
  // The case file's period starts just before the window's first event, so that it is listed.
  const firstEvent = view.entries[0]?.event.created_at;
  const firstAt = firstEvent
    ? new Date(Date.parse(firstEvent) - 1).toISOString()
    : (view.base.at ?? momentTime ?? '');
  const crumbItems = [
    ...crumbs.map((crumb) => ({
      key: `above-${crumb.id}`,
      title:
        crumb.id === ROOT_FOLDER_ID ? (
          <Link
            to={replayPagePath(ROOT_FOLDER_ID, { moment: replay.moment })}
            aria-label="Home folder"
          >
            <HomeOutlined aria-hidden />
          </Link>
        ) : (
          <Link to={replayPagePath(crumb.id, { moment: replay.moment })}>{crumb.name}</Link>
        ),
    })),
    ...[{ id: rootId, name: rootName }, ...inside].map((level, index, all) => ({
      key: `level-${level.id || 'root'}`,
      title:
        index === all.length - 1 ? (
          <span aria-current="page">
            {level.id === ROOT_FOLDER_ID ? <HomeOutlined aria-label="Home folder" /> : level.name}
          </span>
        ) : (
          <Link to={levelHref(level.id)}>
            {level.id === ROOT_FOLDER_ID ? HOME_FOLDER_NAME : level.name}
          </Link>
        ),
    })),
  ];

  return (
    <div className="page replay-page">
      <Alert
        className="replay-banner"
        type="info"
        showIcon
        role="status"
        title={bannerText(rootName, momentTime)}
        action={
          <Button size="small" type="primary" onClick={() => void navigate(folderPagePath(rootId))}>
            {BACK_TO_NOW_LABEL}
          </Button>
        }
      />
      <Breadcrumb aria-label="Folder path as it was" className="replay-crumbs" items={crumbItems} />
      <PageTitle
        extra={
          <div className="replay-toolbar">
            <DatePicker
              showTime
              aria-label="Moment"
              format={MOMENT_FORMAT}
              classNames={{ popup: { root: 'replay-picker-popup' } }}
              allowClear={false}
              value={momentTime ? dayjs(momentTime) : null}
              onChange={(value) => {
                if (!value) return;
                setAddress({
                  moment: { as_of: value.toISOString(), event: null, before_event: null },
                });
              }}
            />
            <label className="replay-switch">
              <Switch
                size="small"
                checked={address.archived}
                onChange={(checked) => setAddress({ archived: checked }, true)}
              />
              Show archived
            </label>
            <Button onClick={() => setCaseFileOpen(true)}>{CASE_FILE_TITLE}</Button>
          </div>
        }
      >
        {levelName}
      </PageTitle>
      {replay.status === 'failed' && replay.error ? (
        <Alert
          type="error"
          role="alert"
          showIcon
          title={`${COULD_NOT_LOAD_REPLAY} ${replay.error}`}
        />
      ) : null}
      <div className="replay-body">
        <div className="replay-main">
          {legacy ? <Alert type="warning" showIcon title={REPLAY_MESSAGES.legacy} /> : null}
          {missing ? (
            <Empty
              className="replay-empty"
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={REPLAY_MESSAGES.notYet}
            />
          ) : (
            <>
              <section
                className="replay-items"
                aria-label="Items"
                style={{ height: items.length > 0 ? items.length * ROW_HEIGHT + 2 : undefined }}
              >
                <ReplayItems
                  items={items}
                  viewerId={view.viewer_id}
                  changes={changesById}
                  destroyedSince={view.destroyed_since}
                  selectedId={selectedId}
                  levelHref={levelHref}
                  onSelect={setSelectedId}
                />
              </section>
              <ReplayDetails
                item={shownItem}
                viewerId={view.viewer_id}
                destroyedSince={shownItem ? view.destroyed_since[shownItem.id] : undefined}
              />
            </>
          )}
        </div>
        <ReplayTimeline
          rows={timeline}
          position={replay.position}
          changes={changes}
          legacy={legacy}
          hasEarlier={view.has_earlier}
          hasLater={view.has_later}
          canPrevious={canStep.previous}
          canNext={canStep.next}
          loading={loading}
          onPrevious={() => step('previous')}
          onNext={() => step('next')}
          onSelect={(position) => dispatch(replayActions.positionChanged({ position }))}
        />
      </div>
      {caseFileOpen ? (
        <CaseFileDialog
          folderId={rootId}
          from={firstAt || new Date().toISOString()}
          to={new Date().toISOString()}
          onClose={() => setCaseFileOpen(false)}
        />
      ) : null}
    </div>
  );
}
