/**
 * A virtualised list on react-virtuoso (DESIGN.md section 5): only the visible rows are in the
 * DOM, and `onEndReached` is called when the last loaded row comes into view so that the next
 * page can be fetched. In the 'grid' layout the items are cards in rows of as many columns as fit
 * (VirtuosoGrid; the columns are the CSS grid of `.virtual-grid-items`), and the items read the
 * layout from {@link ListLayoutContext}.
 */
import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import {
  Virtuoso,
  VirtuosoGrid,
  type Components,
  type ContextProp,
  type GridComponents,
  type GridListProps,
  type ListProps,
  type ScrollerProps,
  type VirtuosoGridHandle,
  type VirtuosoHandle,
} from 'react-virtuoso';
import { ListLayoutContext, type ListLayout } from './listLayout';

/** Props of {@link VirtualList}. */
export interface VirtualListProps<T> {
  /** The loaded items. */
  items: readonly T[];
  /** A stable key per item. */
  itemKey: (item: T) => string;
  /** Renders one item. */
  renderItem: (item: T, index: number) => ReactNode;
  /** Called when the end of the loaded items is reached. */
  onEndReached?: () => void;
  /** Shown after the last item (loading more, "Try again"). */
  footer?: ReactNode;
  /** ARIA role of the element that holds the rows ('rowgroup' inside a table, 'list', ...). */
  role?: string;
  /** Accessible name of the rows' container. */
  ariaLabel?: string;
  /** Class name of the scroller. */
  className?: string;
  /**
   * The key of an item to bring into view (centred) whenever it changes and is loaded, e.g. a
   * folder just created in a long list.
   */
  scrollToKey?: string | null;
  /**
   * Whether the scroller itself is a tab stop (with `ariaLabel` as its name): for lists whose rows
   * hold nothing focusable (history), so the keyboard can still scroll them (WCAG 2.1.1). Lists
   * with links or buttons in their rows leave it off: the rows are the tab stops.
   */
  focusableScroller?: boolean;
  /** Rows (the default) or a grid of cards. */
  layout?: ListLayout;
}

/** What the list's inner components read from Virtuoso's context. */
interface ListContext {
  role?: string;
  ariaLabel?: string;
  footer?: ReactNode;
  focusableScroller?: boolean;
}

function ItemsContainer({ context, ...props }: ListProps & ContextProp<ListContext>) {
  return <div {...props} role={context.role} aria-label={context.ariaLabel} />;
}

function ListFooter({ context }: ContextProp<ListContext>) {
  return context.footer ? <div className="virtual-list-footer">{context.footer}</div> : null;
}

/**
 * The scroller without Virtuoso's own tab stop (tabIndex 0): the rows' links and buttons are the
 * tab stops, and a focusable box inside a table or list role is not allowed (axe
 * aria-required-children; WCAG 1.3.1). The scroll area stays reachable through its rows.
 */
function Scroller({
  context,
  tabIndex: _tabIndex,
  ...props
}: ScrollerProps & ContextProp<ListContext>) {
  if (context.focusableScroller) {
    return <div {...props} tabIndex={0} role="region" aria-label={context.ariaLabel} />;
  }
  return <div {...props} />;
}

const COMPONENTS: Components<unknown, ListContext> = {
  List: ItemsContainer,
  Footer: ListFooter,
  Scroller,
};

function GridItemsContainer({
  context,
  ...props
}: GridListProps & ContextProp<ListContext | undefined>) {
  return <div {...props} role={context?.role} aria-label={context?.ariaLabel} />;
}

function GridFooter({ context }: ContextProp<ListContext | undefined>) {
  return context?.footer ? <div className="virtual-list-footer">{context.footer}</div> : null;
}

/** The grid's scroller, without a tab stop of its own (see {@link Scroller}). */
function GridScroller({
  context: _context,
  tabIndex: _tabIndex,
  ...props
}: ScrollerProps & ContextProp<ListContext | undefined>) {
  return <div {...props} />;
}

const GRID_COMPONENTS: GridComponents<ListContext> = {
  List: GridItemsContainer,
  Footer: GridFooter,
  Scroller: GridScroller,
};

/** Renders `items` virtualised in a scroller that fills its parent's height. */
export function VirtualList<T>({
  items,
  itemKey,
  renderItem,
  onEndReached,
  footer,
  role,
  ariaLabel,
  className,
  scrollToKey,
  focusableScroller,
  layout = 'list',
}: VirtualListProps<T>) {
  const virtuoso = useRef<VirtuosoHandle>(null);
  const grid = useRef<VirtuosoGridHandle>(null);
  // Once per key: later changes of the list do not pull the view back to it.
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (!scrollToKey || scrolledTo.current === scrollToKey) return;
    const index = items.findIndex((item) => itemKey(item) === scrollToKey);
    if (index < 0) return;
    scrolledTo.current = scrollToKey;
    virtuoso.current?.scrollToIndex({ index, align: 'center' });
    grid.current?.scrollToIndex({ index, align: 'center' });
  }, [scrollToKey, items, itemKey]);
  const context = useMemo<ListContext>(
    () => ({ role, ariaLabel, footer, focusableScroller }),
    [role, ariaLabel, footer, focusableScroller],
  );
  const computeItemKey = useCallback((_index: number, item: T) => itemKey(item), [itemKey]);
  const itemContent = useCallback(
    (index: number, item: T) => renderItem(item, index),
    [renderItem],
  );
  const endReached = useCallback(() => onEndReached?.(), [onEndReached]);
  const classes = (base: string) => (className ? `${base} ${className}` : base);

  if (layout === 'grid') {
    return (
      <ListLayoutContext.Provider value="grid">
        <VirtuosoGrid<T, ListContext>
          ref={grid}
          className={classes('virtual-list virtual-grid')}
          listClassName="virtual-grid-items"
          itemClassName="virtual-grid-item"
          style={{ height: '100%' }}
          data={items}
          context={context}
          computeItemKey={computeItemKey}
          itemContent={itemContent}
          endReached={endReached}
          increaseViewportBy={{ top: 200, bottom: 400 }}
          components={GRID_COMPONENTS}
        />
      </ListLayoutContext.Provider>
    );
  }

  return (
    <Virtuoso<T, ListContext>
      ref={virtuoso}
      className={classes('virtual-list')}
      style={{ height: '100%' }}
      data={items}
      context={context}
      computeItemKey={computeItemKey}
      itemContent={itemContent}
      endReached={endReached}
      increaseViewportBy={{ top: 200, bottom: 400 }}
      components={COMPONENTS as Components<T, ListContext>}
    />
  );
}
