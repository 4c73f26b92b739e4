package httpapi

import (
	"context"
	"net"
	"net/http"
	"time"
)

// ListenAndServe serves h on addr (port 0 picks a free one) until ctx is
// done, then shuts down gracefully. ready is told the address actually
// listened on, once the listener is open.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, ready func(addr string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shut)
}
