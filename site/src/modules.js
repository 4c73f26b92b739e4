// modules.js says which builds of the core (wasm/browser/doc.go) the
// playground page loads. The first starts with the page and answers every
// operation it has; an operation it lacks goes to the next, which is
// fetched the first time a panel asks for one. build.mjs reads this too, to
// list what the page downloads.
export const PAGE_MODULES = ["full"];
