/**
 * The list toolbar's layout switch: one toggle button (aria-pressed) between the rows of a list
 * and a grid of thumbnail cards. The choice holds for every item list and is remembered for the
 * user (imagingSagas.ts).
 */
import { AppstoreOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectListLayout } from '../imagingSelectors';
import { imagingActions } from '../imagingSlice';

/** The toggle's accessible name (pressed: the grid shows). */
export const GRID_VIEW_LABEL = 'Grid view';

/** Switches item lists between rows and a grid of cards. */
export function ListLayoutToggle() {
  const dispatch = useAppDispatch();
  const layout = useAppSelector(selectListLayout);
  const grid = layout === 'grid';
  return (
    <Tooltip title={grid ? 'Show as a list' : 'Show as a grid'}>
      <Button
        className="list-layout-toggle"
        icon={grid ? <UnorderedListOutlined aria-hidden /> : <AppstoreOutlined aria-hidden />}
        aria-label={GRID_VIEW_LABEL}
        aria-pressed={grid}
        onClick={() => dispatch(imagingActions.layoutChosen(grid ? 'list' : 'grid'))}
      />
    </Tooltip>
  );
}
