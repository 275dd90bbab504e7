import { useSyncExternalStore } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BRAND_NAME, LAUNCH_YEAR } from '../../brand';
import { SAMPLE_TALENTS, talentImageUrl } from '../../components/demo/sampleTalents';
import { IconList } from '../../components/IconList';
import { Icon, type IconName } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import './CreatePage.css';

const STEPS: readonly { icon: IconName; title: string; body: string }[] = [
  { icon: 'users', title: 'Choose a talent', body: 'Pick a real, consenting person from the Talent Library.' },
  { icon: 'pencil', title: 'Describe the shot', body: 'Write a prompt and choose a style, from photorealistic to editorial.' },
  { icon: 'download', title: 'Generate and download', body: 'Get licensed images, ready for commercial use.' },
];

const noSubscription = () => () => {};

/**
 * /create (docs/product.md#create). Generation itself arrives in a later release; this page
 * already accepts `?talent={id}` from the talent profiles and shows which talent was chosen.
 */
export function CreatePage() {
  usePageTitle('Create Ethical Content');
  const [params] = useSearchParams();
  // The page is rendered at build time without a query string: hydration uses that (null) snapshot,
  // then React renders again with the browser's one. The router re-renders on a new query string.
  const talentId = useSyncExternalStore(
    noSubscription,
    () => params.get('talent')?.trim() || null,
    () => null,
  );
  const known = talentId ? SAMPLE_TALENTS.find((t) => t.id === talentId) : undefined;

  return (
    <div className="create" data-testid="create-page">
      <section className="page-hero" aria-labelledby="create-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">Create</p>
          <h1 id="create-title">Create Ethical Content</h1>
          <p className="lead">
            Commercially licensed AI images of real people who said yes, with a royalty paid to them for every image.
          </p>
        </div>
      </section>

      <section className="container create__body" aria-label="Image generation">
        {talentId && (
          <div className="card create-talent" data-testid="create-selected-talent" data-talent-id={talentId}>
            {known && <img src={talentImageUrl(known.id)} alt="" width={56} height={70} className="create-talent__image" />}
            <div className="create-talent__text">
              <p className="create-talent__label">Selected talent</p>
              <p className="create-talent__name">{known ? known.name : talentId}</p>
            </div>
            <Link to="/talent" className="button button--ghost create-talent__change">
              Change<span className="sr-only"> talent</span>
            </Link>
          </div>
        )}

        <div className="card create-note" role="note" data-testid="create-note">
          <span className="icon-badge icon-badge--plum" aria-hidden="true">
            <Icon name="bell" />
          </span>
          <div>
            <h2 className="create-note__title">Image generation is coming soon</h2>
            <p>
              Generating images opens with the {BRAND_NAME} client portal at launch in {LAUNCH_YEAR}. In the meantime,
              explore the talent you would like to work with.
            </p>
            <div className="create-note__actions">
              <Link to="/talent" className="button button--primary">
                Browse the Talent Library <Icon name="arrowRight" size={18} className="button__arrow" />
              </Link>
              <Link to="/pricing" className="button button--secondary">
                See pricing
              </Link>
            </div>
          </div>
        </div>

        <IconList items={STEPS} steps tiles aria-label="How creating works" />
      </section>
    </div>
  );
}
