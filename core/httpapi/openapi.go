package httpapi

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"sync"

	"github.com/subplay/subplay/core/playground"
)

// OpenAPI returns the OpenAPI 3.1 document of the API, built from the
// operations registered in core/playground and their Go request and
// response types, so it cannot describe an operation that does not exist
// or a field the code does not have.
func OpenAPI() map[string]any {
	set := newSchemaSet()
	set.taken["Error"] = reflect.TypeFor[playground.Error]()
	set.taken["ErrorResponse"] = reflect.TypeFor[playground.ErrorResponse]()
	paths := map[string]any{
		"/healthz": map[string]any{"get": map[string]any{
			"operationId": "healthz",
			"summary":     "whether the service answers",
			"responses": map[string]any{
				"200": jsonResponse("the service is up", Schema{
					"type": "object", "required": []string{"status"}, "additionalProperties": false,
					"properties": Schema{"status": Schema{"const": "ok"}},
				}),
			},
		}},
		"/v1/openapi.json": map[string]any{"get": map[string]any{
			"operationId": "openapi",
			"summary":     "this document",
			"responses": map[string]any{
				"200": jsonResponse("an OpenAPI 3.1 document", Schema{"type": "object"}),
			},
		}},
	}
	for _, op := range playground.Ops() {
		resp := set.ref(op.Response)
		item := map[string]any{}
		for _, m := range opMethods(op) {
			switch m {
			case http.MethodPost:
				item["post"] = map[string]any{
					"operationId": op.Name,
					"summary":     op.Summary,
					"requestBody": map[string]any{
						// An empty body is taken as {}.
						"required": false,
						"content": map[string]any{
							"application/json": map[string]any{"schema": set.ref(op.Request)},
						},
					},
					"responses": map[string]any{
						"200": jsonResponse("the result; findings about the input are diagnostics inside it", resp),
						"400": errorRef(http.StatusBadRequest),
						"408": errorRef(http.StatusRequestTimeout),
						"413": errorRef(http.StatusRequestEntityTooLarge),
						"415": errorRef(http.StatusUnsupportedMediaType),
						"500": errorRef(http.StatusInternalServerError),
						"503": errorRef(http.StatusServiceUnavailable),
					},
				}
			case http.MethodGet:
				item["get"] = map[string]any{
					"operationId": op.Name + "-get",
					"summary":     op.Summary + " (takes no input, so GET works too)",
					"responses": map[string]any{
						"200": jsonResponse("the result", resp),
						"500": errorRef(http.StatusInternalServerError),
						"503": errorRef(http.StatusServiceUnavailable),
					},
				}
			}
		}
		paths["/v1/"+op.Name] = item
	}

	schemas := map[string]any{}
	for name, s := range set.components {
		schemas[name] = s
	}
	schemas["Error"] = Schema{
		"type": "object", "required": []string{"code", "message"}, "additionalProperties": false,
		"properties": Schema{
			"code": Schema{"type": "string", "enum": []string{
				codeBadRequest, codeBusy, codeCancelled, codeInternal, codeMediaType, codeMethodNotAllowed,
				codeNotFound, codeRequestTimeout, codeTimeout, codeTooLarge, codeUnknownOp,
			}},
			"message": Schema{"type": "string"},
		},
	}
	schemas["ErrorResponse"] = Schema{
		"type": "object", "required": []string{"error"}, "additionalProperties": false,
		"properties": Schema{"error": Schema{"$ref": "#/components/schemas/Error"}},
	}
	responses := map[string]any{}
	for _, status := range []int{http.StatusBadRequest, http.StatusRequestTimeout, http.StatusRequestEntityTooLarge,
		http.StatusUnsupportedMediaType, http.StatusInternalServerError, http.StatusServiceUnavailable} {
		responses[errorName(status)] = jsonResponse(errorText[status], Schema{"$ref": "#/components/schemas/ErrorResponse"})
	}
	responses[errorName(http.StatusServiceUnavailable)].(map[string]any)["headers"] = map[string]any{
		"Retry-After": map[string]any{
			"description": "with code \"busy\": seconds to wait before retrying",
			"schema":      Schema{"type": "integer"},
		},
	}

	return map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info": map[string]any{
			"title":   "subplay",
			"version": playground.Version,
			"description": "Checks and previews Google Cloud Pub/Sub subscription configurations. " +
				"Requests and responses are the JSON that the playground page and `subplay <command> --format json` use. " +
				"Problems found in a configuration come back as diagnostics in a 200 response; " +
				"an HTTP error means the request itself could not be taken, and its body is {\"error\": {\"code\", \"message\"}}. " +
				"Bodies are limited to " + strconv.Itoa(MaxBody>>20) + " MiB and must be UTF-8. A busy server answers 503. Any origin may call the API (CORS without credentials).",
		},
		"paths":      paths,
		"components": map[string]any{"schemas": schemas, "responses": responses},
	}
}

var errorText = map[int]string{
	http.StatusBadRequest:            "the body is not JSON, or not the operation's request",
	http.StatusRequestTimeout:        "the body did not arrive within the server's read time-out (the native server only)",
	http.StatusRequestEntityTooLarge: "the body is larger than " + strconv.Itoa(MaxBody>>20) + " MiB",
	http.StatusUnsupportedMediaType:  "the body is not declared as application/json",
	http.StatusInternalServerError:   "a failure of the service (logged); not the caller's fault",
	http.StatusServiceUnavailable: "code \"busy\": every slot for running operations is taken, retry after Retry-After seconds; " +
		"code \"timeout\": the operation passed its time limit (the native server only); " +
		"code \"cancelled\": the request was cancelled before its answer was ready, so the operation stopped (seen only by a client that stays to read it)",
}

func errorName(status int) string { return "Error" + strconv.Itoa(status) }

func errorRef(status int) map[string]any {
	return map[string]any{"$ref": "#/components/responses/" + errorName(status)}
}

func jsonResponse(desc string, s Schema) map[string]any {
	return map[string]any{
		"description": desc,
		"content":     map[string]any{"application/json": map[string]any{"schema": s}},
	}
}

// openAPIJSON is the encoded document. It depends only on the code, so it is
// built once per process, and only when asked for: a worker instance that
// answers one validate never pays for it.
var openAPIJSON = sync.OnceValue(func() []byte {
	b, err := json.Marshal(OpenAPI())
	if err != nil {
		panic("httpapi: encoding the OpenAPI document: " + err.Error())
	}
	return b
})
