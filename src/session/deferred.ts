/**
 * A promise with its resolve/reject handles, and a list of them indexed by step number.
 */

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
  settled: boolean;
}

/**
 * @example
 * const ready = createDeferred<void>(); setTimeout(ready.resolve, 0); await ready.promise;
 */
export function createDeferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  const deferred: Deferred<T> = {
    promise,
    settled: false,
    resolve: (value) => {
      deferred.settled = true;
      resolve(value);
    },
    reject: (error) => {
      deferred.settled = true;
      reject(error);
    },
  };
  // A rejection nobody awaits is still observed by whoever asks for it later; avoid an unhandled-rejection crash meanwhile.
  promise.catch(() => undefined);
  return deferred;
}

/**
 * Deferreds by index, created on first use from either side.
 *
 * @example
 * const steps = createDeferredList<number>(); steps.at(0).resolve(1); await steps.at(0).promise;
 */
export function createDeferredList<T>() {
  const items: Deferred<T>[] = [];
  return {
    at(index: number): Deferred<T> {
      let item = items[index];
      if (item === undefined) {
        item = createDeferred<T>();
        items[index] = item;
      }
      return item;
    },
    rejectPending(error: unknown): void {
      for (const item of items) if (item !== undefined && !item.settled) item.reject(error);
    },
  };
}
