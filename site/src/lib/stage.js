// stage.js evaluates the editor's libraries one at a time, each in a task
// of its own. Imported all at once, their evaluation was one task of 100 ms
// and more on a slow machine; the page's entries call this before they
// import the rest of the page, which then finds them evaluated. The chunks
// themselves were fetched in parallel by the pages' modulepreload links.
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

export async function stageEditor() {
  await import("@codemirror/state");
  await tick();
  await import("@codemirror/view");
  await tick();
  await import("@lezer/highlight");
  await import("@codemirror/language");
  await tick();
  await import("@codemirror/commands");
  await tick();
  await import("@codemirror/search");
  await import("@codemirror/lint");
  await tick();
  await import("@codemirror/lang-json");
  await tick();
  await import("@codemirror/lang-yaml");
  await tick();
}
