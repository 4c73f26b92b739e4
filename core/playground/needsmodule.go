package playground

// CodeNeedsModule is the code of the Error a build answers when it was
// built without something the request needs (the JavaScript engine for
// UDFs, the HCL reader for Terraform, cel-go for a transformed preview's
// filter). It answers so rather than partly; whoever runs a smaller build
// sends the same request to a build that has everything: the page's
// router (site/src/modules.js) and the edge worker's glue
// (wasm/worker/patch-glue.mjs, through a service binding).
const CodeNeedsModule = "needs-module"
