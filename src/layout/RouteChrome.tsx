// What every navigation does (SPEC §2.1): tab title from the route, scroll back to the top,
// and a progress bar while the screen loads.
import { useEffect, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';
import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { PROGRESS_BAR } from '../domain/enums';
import { pageTitle } from './brand';

NProgress.configure({ ...PROGRESS_BAR, showSpinner: false });

export function useRouteChrome(title: string, scroller: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
  useEffect(() => {
    scroller.current?.scrollTo?.({ top: 0 });
    window.scrollTo?.({ top: 0 });
  }, [pathname, scroller]);
}

/** Suspense fallback: a lazy screen is being fetched. */
export function ScreenLoading() {
  useEffect(() => {
    NProgress.start();
  }, []);
  return null;
}

/** Rendered after the screen, keyed by location: the navigation has finished. */
export function ScreenShown() {
  useEffect(() => {
    if (!NProgress.isStarted()) NProgress.start();
    NProgress.done();
  }, []);
  return null;
}
