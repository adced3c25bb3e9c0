// A component whose code is a chunk of its own, loaded when it is first rendered or
// ahead by whoever knows it will be (a route's loader). Loaded, it renders at once.
// Not React's lazy, which suspends on every first render even with its module in hand:
// React reveals suspended content at most every 300 ms, so each lazy part of a screen
// that has its data cost up to 300 ms of waiting (the editor and the page tree beside
// it, bench/editor-browser.ts).
import { createElement, use, type ComponentType, type JSX } from 'react';

export interface Loadable<Props extends object> {
  Component: (props: Props) => JSX.Element;
  /** Starts loading the code; answers once it is loaded. */
  preload: () => Promise<void>;
}

/** `loadable(async () => (await import('./Screen.tsx')).Screen)`. */
export function loadable<Props extends object>(load: () => Promise<ComponentType<Props>>): Loadable<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => void (loaded = component),
      // A failed load is tried again on the next render, which shows the error if it fails again.
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  function Component(props: Props) {
    if (!loaded) use(preload());
    return createElement(loaded!, props);
  }
  return { Component, preload };
}
