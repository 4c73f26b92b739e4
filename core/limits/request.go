package limits

// RequestBytes bounds one request of the contract, whichever entry it
// comes through: a call from the page, a POST /v1/<op> body, a request the
// CLI builds. A configuration is at most 1 MiB of text, which JSON escaping
// can make longer, and a request carries sample messages and two schemas
// besides: 4 MiB holds all of them with room, and stays far below what a
// Worker's 128 MB isolate can decode.
const RequestBytes = 4 << 20
