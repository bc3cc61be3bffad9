/** The Shared page: /shared for internal users, /sharing/shared for guests (issue 7). */
import { Empty } from 'antd';
import { PageTitle } from '../../../components/PageTitle';

/** The Shared page (a placeholder until the sharing work of issue 7 lands). */
export function SharedPage() {
  return (
    <div className="page">
      <PageTitle>Shared</PageTitle>
      <Empty
        className="page-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description="Shared items are coming in a later release."
      />
    </div>
  );
}
