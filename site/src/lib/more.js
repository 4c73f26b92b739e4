// more.js draws long lists a part at a time. Ten thousand sample messages
// are allowed (core/limits SampleMessages); a row, a finding and an editor
// mark for each, drawn at once, held the page's main thread for seconds
// (BenchmarkHostilePaste: 7.5 s for 10,000 messages with an error each).
// The counts in the panels' summaries still cover every item.
import { h, replace } from "./dom.js";

/** PART is how many items are drawn at first, and at each "Show more". */
export const PART = 200;

/**
 * drawParts fills container with row(item) for the first PART items and,
 * when there are more, fills more (an element, hidden otherwise) with a
 * note and a button that draws the next PART. noun names the items
 * ("messages"). Rows are nodes.
 */
export function drawParts(container, items, row, more, noun) {
  let shown = 0;
  const note = h("span");
  const button = h("button", { type: "button", class: "link", onclick: () => next() });
  const next = () => {
    const part = items.slice(shown, shown + PART).map(row);
    container.append(...part);
    shown += part.length;
    const left = items.length - shown;
    more.hidden = left <= 0;
    if (left <= 0) {
      replace(more);
      return;
    }
    note.textContent = `Showing ${shown} of ${items.length} ${noun}. `;
    button.textContent = `Show ${Math.min(PART, left)} more`;
    if (!more.contains(button)) replace(more, note, button);
  };
  container.replaceChildren();
  next();
}

/**
 * firstFindings returns at most PART of ds (the first, in the core's
 * order: per message, in message order) and says how many were left out in
 * note (an element, hidden when none were).
 */
export function firstFindings(ds, note) {
  const left = ds.length - PART;
  note.hidden = left <= 0;
  note.textContent = left > 0 ? `${left} more finding${left === 1 ? "" : "s"} in later messages are not listed here or marked in the editor.` : "";
  return left > 0 ? ds.slice(0, PART) : ds;
}
