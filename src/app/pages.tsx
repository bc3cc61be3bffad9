/** Simple pages: the not-yet-available sections and "not found". */
import { Button, Empty, Result, Spin } from 'antd';
import { useNavigate } from 'react-router';
import { PageTitle } from '../components/PageTitle';

/** Props of {@link ComingSoonPage}. */
export interface ComingSoonPageProps {
  title: string;
  /** The plain sentence saying the section comes later. */
  text: string;
}

/** A section of the navigation that is not available yet. */
export function ComingSoonPage({ title, text }: ComingSoonPageProps) {
  return (
    <div className="page">
      <PageTitle>{title}</PageTitle>
      <Empty className="page-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} />
    </div>
  );
}

/** Any unknown address inside the app. */
export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={<h1 className="not-found-title">Page not found</h1>}
      subTitle="There is nothing at this address."
      extra={
        <Button type="primary" onClick={() => void navigate('/home')}>
          Go to Home
        </Button>
      }
    />
  );
}

/** What a lazily loaded page shows while its chunk arrives. */
export function PageLoading() {
  return (
    <div className="page page-loading" role="status" aria-live="polite">
      <Spin description="Loading…" />
    </div>
  );
}
