/**
 * /missing-indexes: choose index fields, then a paged list of the files lacking
 * a value of any of them (POST entities/search/missing-indexes?page), each with a link to its
 * folder, so a firm can finish tagging its backlog. The chosen fields, the page and an optional
 * folder live in the URL (`field`, repeated, `page`, and `folder` with `folder_name` to look only
 * under one folder), so the list survives a reload and can be shared.
 */
import { FolderOpenOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, List, Select, Spin, Tag } from 'antd';
import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { withoutDetailsParam } from '@src/features/details/detailsLink';
import { fileKind } from '@common/files';
import { MISSING_INDEXES_PAGE_SIZE } from '@common/indexFields';
import { plural } from '@common/text';
import type { FileDto } from '@common/entities';
import { EntityIcon } from '@src/components/EntityIcon';
import { PageTitle } from '@src/components/PageTitle';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { folderRoute } from '@src/features/entities/components/FolderBreadcrumbs';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import { selectIndexFields, selectMissingIndexes } from '../indexFieldsSelectors';
import { indexFieldsActions } from '../indexFieldsSlice';
import './indexFields.css';

/** The page's title. */
const MISSING_INDEXES_TITLE = 'Missing indexes';

/** What the page shows: the chosen fields, the page, and an optional folder. */
export interface MissingView {
  fieldIds: string[];
  page: number;
  folderId: string | null;
  folderName: string | null;
}

/** Reads the view of the URL query. */
function missingViewFromSearch(search: string): MissingView {
  const params = new URLSearchParams(search);
  const fieldIds = [...new Set(params.getAll('field').filter(Boolean))];
  const page = Number(params.get('page'));
  return {
    fieldIds,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    folderId: params.get('folder') || null,
    folderName: params.get('folder_name') || null,
  };
}

/** The URL query of a view. */
function missingSearchFromView(view: MissingView): string {
  const params = new URLSearchParams();
  for (const id of view.fieldIds) params.append('field', id);
  if (view.page > 1) params.set('page', String(view.page));
  if (view.folderId) {
    params.set('folder', view.folderId);
    if (view.folderName) params.set('folder_name', view.folderName);
  }
  return params.toString();
}

/** One file lacking a value: its name and a link to its folder. */
function MissingRow({ file }: { file: FileDto }) {
  return (
    <List.Item
      aria-label={file.name}
      actions={[
        <Link
          key="folder"
          to={folderRoute(file.folder_id)}
          aria-label={`Open the folder of ${file.name}`}
        >
          <FolderOpenOutlined aria-hidden /> Open folder
        </Link>,
      ]}
    >
      <List.Item.Meta avatar={<EntityIcon kind={fileKind(file)} />} title={file.name} />
    </List.Item>
  );
}

/** The page listing files missing values for chosen index fields. */
export function MissingIndexesPage() {
  const dispatch = useAppDispatch();
  const [searchParams, setSearchParams] = useSearchParams();
  const search = withoutDetailsParam(searchParams);
  const view = useMemo(() => missingViewFromSearch(search), [search]);
  const fields = useAppSelector(selectIndexFields);
  const missing = useAppSelector(selectMissingIndexes);
  const databaseId = useAppSelector(selectCurrentDatabaseId);

  useEffect(() => {
    dispatch(indexFieldsActions.fieldsRequested());
  }, [dispatch, databaseId]);

  const key = view.fieldIds.join(',');
  useEffect(() => {
    dispatch(
      indexFieldsActions.missingRequested({
        fieldIds: key ? key.split(',') : [],
        folderId: view.folderId,
        page: view.page,
      }),
    );
  }, [dispatch, key, view.page, view.folderId, databaseId]);

  const choose = (fieldIds: string[], page = 1) =>
    setSearchParams(missingSearchFromView({ ...view, fieldIds, page }));

  let body;
  if (view.fieldIds.length === 0) {
    body = (
      <Empty description="Choose one or more index fields to list the files that have no value for them." />
    );
  } else if (missing.status === 'failed') {
    body = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={missing.error}
        action={
          <Button
            size="small"
            onClick={() =>
              dispatch(
                indexFieldsActions.missingRequested({
                  fieldIds: view.fieldIds,
                  folderId: view.folderId,
                  page: view.page,
                }),
              )
            }
          >
            Try again
          </Button>
        }
      />
    );
  } else if (missing.status !== 'succeeded') {
    body = (
      <div className="list-loading" role="status">
        <Spin description="Loading files…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else {
    body = (
      <div role="group" aria-label="Files missing index values" className="admin-scroll">
        <p role="status">
          {missing.total.toLocaleString('en-US')} {plural(missing.total, 'file')} missing a value
        </p>
        <List
          dataSource={missing.items}
          rowKey={(file) => file.id}
          locale={{ emptyText: 'Every file has a value for these index fields.' }}
          renderItem={(file) => <MissingRow file={file} />}
          pagination={
            missing.total > MISSING_INDEXES_PAGE_SIZE
              ? {
                  current: missing.page,
                  pageSize: MISSING_INDEXES_PAGE_SIZE,
                  total: missing.total,
                  showSizeChanger: false,
                  onChange: (page) => choose(view.fieldIds, page),
                }
              : false
          }
        />
      </div>
    );
  }

  return (
    <div className="page missing-page">
      <PageTitle>{MISSING_INDEXES_TITLE}</PageTitle>
      <Select<string[]>
        mode="multiple"
        aria-label="Index fields"
        placeholder="Choose index fields…"
        className="missing-fields"
        loading={fields.status === 'loading'}
        value={view.fieldIds}
        optionFilterProp="label"
        onChange={(fieldIds) => choose(fieldIds)}
        options={fields.items.map((field) => ({ value: field.id, label: field.name }))}
      />
      {view.folderId ? (
        <Tag
          closable
          closeIcon={<span aria-label="Look in every folder">×</span>}
          onClose={(event) => {
            event.preventDefault();
            setSearchParams(
              missingSearchFromView({ ...view, page: 1, folderId: null, folderName: null }),
            );
          }}
        >
          In folder: {view.folderName ?? view.folderId}
        </Tag>
      ) : null}
      {body}
    </div>
  );
}
