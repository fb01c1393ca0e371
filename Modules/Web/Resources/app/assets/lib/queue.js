// The offline queue: workout writes are kept in localStorage with their idempotency keys and sent in order,
// one at a time, whenever the connection allows. A write the server refuses for good is dropped and reported;
// a write that meets no network stays first in line. Finishing a workout waits for the queue to empty.
import { call } from "./api.js";

export function createQueue(storageKey, { onChange = () => {}, onRefused = () => {}, onSent = () => {} } = {}) {
  let items = load();
  let draining = null;

  function load() {
    try { return JSON.parse(localStorage.getItem(storageKey) || "[]"); } catch { return []; }
  }
  function save() {
    localStorage.setItem(storageKey, JSON.stringify(items));
    onChange(items.slice());
  }

  async function run() {
    while (items.length) {
      const item = items[0];
      try {
        const data = await call(item.name, item.body);
        items.shift();
        save();
        onSent(item, data);
      } catch (error) {
        if (error.offline || error.code === "UNAVAILABLE" || error.status >= 500 || error.code === "UNAUTHENTICATED") return false;
        items.shift();
        save();
        onRefused(item, error);
      }
    }
    return true;
  }

  return {
    /** Adds a write (`name`, `body` with its `idempotency_key`) at the end of the line and starts sending. */
    enqueue(name, body) {
      items.push({ name, body, at: Date.now() });
      save();
      this.drain();
    },
    /** Sends what waits; resolves true when nothing is left. */
    drain() {
      if (!draining) draining = run().finally(() => { draining = null; });
      return draining;
    },
    pending: () => items.slice(),
    get size() { return items.length; },
    clear() { items = []; save(); },
  };
}
