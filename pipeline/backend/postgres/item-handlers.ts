import { episodeHandler } from "./episode-item.js";
import { slotHandler } from "./slot-item.js";
import type { ItemHandler } from "./item-handler.js";
import type { ItemKind } from "./queue.js";

/** Every kind of queue item a worker runs. */
export const ITEM_HANDLERS: Readonly<Record<ItemKind, ItemHandler<unknown> | null>> = {
  episode: episodeHandler as ItemHandler<unknown>,
  slot: slotHandler as ItemHandler<unknown>,
};
