package playground

import "runtime"

// VersionRequest takes no fields.
type VersionRequest struct{}

// VersionResponse says which subplay answers and what it can do.
type VersionResponse struct {
	Version    string   `json:"version"`
	Go         string   `json:"go"`
	Operations []string `json:"operations"`
}

func init() {
	register("version", "the version of subplay and the operations it offers", func(*VersionRequest) (*VersionResponse, error) {
		return &VersionResponse{Version: Version, Go: runtime.Version(), Operations: Names()}, nil
	})
}
