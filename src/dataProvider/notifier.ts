// Toasts for code that lives outside React (the http client). react-admin's `notify` only exists
// inside <Admin>, and the first requests (the role list at startup) run before any screen mounts,
// so messages wait in a queue until a component attaches the real notify.

export type NotifyType = 'success' | 'info' | 'warning' | 'error';
export type Notify = (message: string, type: NotifyType, autoHideDuration: number) => void;

export interface Notifier {
  notify: Notify;
  /** Routes messages to `target` (and flushes the queue); returns the detach function. */
  attach(target: Notify): () => void;
}

export function createNotifier(): Notifier {
  let target: Notify | undefined;
  const queue: Parameters<Notify>[] = [];
  return {
    notify(message, type, autoHideDuration) {
      if (target) target(message, type, autoHideDuration);
      else queue.push([message, type, autoHideDuration]);
    },
    attach(next) {
      target = next;
      for (const args of queue.splice(0)) next(...args);
      return () => {
        if (target === next) target = undefined;
      };
    },
  };
}
